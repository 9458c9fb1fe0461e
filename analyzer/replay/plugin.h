/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy plugins: shared objects loaded with dlopen for --policy
 * PATH[:ARGS] (docs/plugins.md). The loader checks what a plugin hands
 * over before anything else calls into it, and keeps its handle open while
 * any policy instance uses it.
 */
#ifndef RR_REPLAY_PLUGIN_H
#define RR_REPLAY_PLUGIN_H

#include <stdint.h>

#include "reclaim_replay/policy.h"

/* 1 when @spec names a plugin: it holds a '/' or its PATH ends in ".so"
 * (PATH ends at the first ".so:", else it is all of @spec). */
int rr_plugin_is_spec(const char *spec);

/*
 * rr_plugin_load - dlopen the PATH of @spec ("PATH[:ARGS]") and check its ops
 * Returns 0 with *@ops set and one reference held (drop it with
 * rr_plugin_put), or an RR_EXIT_* code after printing one line that names
 * the file and the problem.
 */
int rr_plugin_load(const char *spec, const struct rr_policy_ops **ops);
/* Drop one reference rr_plugin_load took; the last one closes the handle.
 * No-op for ops that did not come from a plugin (the built-ins). */
void rr_plugin_put(const struct rr_policy_ops *ops);
/* The path a loaded plugin's ops came from, or NULL for a built-in. */
const char *rr_plugin_path(const struct rr_policy_ops *ops);

/*
 * rr_plugin_settings - the settings a plugin's init sees
 * @spec:    "PATH[:ARGS]"; ARGS is KEY=VALUE[,KEY=VALUE...]
 * @set:     --set strings, each NAME.KEY=VALUE with NAME the plugin's name
 * @out:     malloc'd array of malloc'd "KEY=VALUE" strings: ARGS first, then
 *           @set with the "NAME." prefix taken off; free with
 *           rr_plugin_settings_free()
 * Returns 0, or RR_EXIT_USAGE after printing why (bad ARGS, a --set
 * without the plugin's prefix).
 */
int rr_plugin_settings(const struct rr_policy_ops *ops, const char *spec,
		       const char *const *set, uint32_t nr_set, char ***out, uint32_t *nr_out);
void rr_plugin_settings_free(char **s, uint32_t n);

#endif
