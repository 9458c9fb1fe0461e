// SPDX-License-Identifier: GPL-2.0
/*
 * The table of built-in policies, and opening one, built-in or plugin:
 * check the ops (a plugin's are checked by the loader, plugin.c, with the
 * same rules), then run its init with the recording's environment.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "policies.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"

extern const struct rr_policy_ops rr_policy_recorded, rr_policy_none, rr_policy_legacy_broken,
	rr_policy_legacy_intended, rr_policy_mainline_rc, rr_policy_mainline,
	rr_policy_parametric;

static const struct rr_policy_ops *const builtins[] = {
	&rr_policy_recorded, &rr_policy_none, &rr_policy_legacy_broken,
	&rr_policy_legacy_intended, &rr_policy_mainline_rc, &rr_policy_mainline,
	&rr_policy_parametric,
};

/* Help and options of the built-ins, for `policies` (plugins carry theirs). */
static const struct rr_policy_option no_options[] = { { NULL, NULL, NULL, NULL } };

static const struct rr_policy_option legacy_intended_options[] = {
	{ "congestion.nr_requests", "count", "128",
	  "the legacy request queue's nr_requests (congestion thresholds derive from it)" },
	{ NULL, NULL, NULL, NULL },
};

static const struct rr_policy_option parametric_options[] = {
	{ "writeback.timeout", "duration", "HZ/10", "WRITEBACK sleep timeout" },
	{ "isolated.timeout", "duration", "HZ/50", "ISOLATED sleep timeout" },
	{ "noprogress.timeout", "duration", "1j", "NOPROGRESS sleep timeout" },
	{ "congested.timeout", "duration", "1j", "CONGESTED sleep timeout" },
	{ "writeback.pages_per_waiter", "count", "32",
	  "WRITEBACK wake: pages written per waiter since the first waiter slept" },
	{ "noprogress.wake_efficiency", "ratio", "0.125",
	  "NOPROGRESS wake: a direct reclaimer on the node reclaims this share of its scan" },
	{ "isolated.wake", "0|1", "1", "0: ISOLATED sleeps its whole timeout" },
	{ NULL, NULL, NULL, NULL },
};

/*
 * Each built-in's help, options, and the changing figures its decide()
 * reads (rr_policy_reads(): a superset of every RR_IN_* bit its verdicts
 * declare; keep in step with the rules in analyzer/policies/, and
 * tests/bench/replay_identity.sh compares the figures with a build that
 * fills every field).
 */
static const struct described {
	const struct rr_policy_ops *ops;
	const char *help;
	const struct rr_policy_option *options;
	uint32_t reads;
} described[] = {
	{ &rr_policy_recorded, "Sleeps exactly where and as long as the recorded kernel slept; "
	  "its replay must give back what stats measured (validate's identity check).",
	  no_options, 0 /* flags, recorded_* */ },
	{ &rr_policy_none, "Never sleeps: what wait_iff_congested() effectively did on blk-mq "
	  "storage; the floor of every stall comparison.", no_options, 0 },
	{ &rr_policy_legacy_broken, "Kernels 5.0-5.15: congestion_wait() sites (kswapd, "
	  "compaction isolation, should_reclaim_retry, writepages -ENOMEM) sleep their whole "
	  "timeout plus one jiffy, too_many_isolated() sleeps 100 ms, wait_iff_congested() "
	  "never sleeps.", no_options, 0 /* site, flags, hz, recorded_timeout_ns */ },
	{ &rr_policy_legacy_intended, "legacy-broken's sites as designed: a congestion_wait() "
	  "ends when block requests in flight fall below the old request queue's congestion-off "
	  "threshold.", legacy_intended_options,
	  RR_IN_INFLIGHT /* wait_iff_congested() as designed: device_inflight */ },
	{ &rr_policy_mainline_rc, "reclaim_throttle() as merged in 5.16-rc1: WRITEBACK HZ/10, "
	  "ISOLATED HZ/50, NOPROGRESS HZ/2 at priority < 10 on every node, no skip rules.",
	  no_options, RR_IN_NODE_SAMPLE | RR_IN_EPISODE },
	{ &rr_policy_mainline, "reclaim_throttle() from 5.16 on: WRITEBACK HZ/10 (woken after "
	  "32 pages written per waiter), ISOLATED HZ/50 (woken when isolation drops), "
	  "NOPROGRESS and CONGESTED 1 jiffy; skip_throttle_noprogress(), kernel threads exempt.",
	  /* skip_throttle_noprogress(): the node sample; the NOPROGRESS rule: the
	   * episode's reclaim (always filled: no lookup) */
	  no_options, RR_IN_NODE_SAMPLE | RR_IN_EPISODE },
	{ &rr_policy_parametric, "mainline's rules with the timeouts and wake thresholds set "
	  "by --set, for sweeps.", parametric_options, RR_IN_NODE_SAMPLE | RR_IN_EPISODE },
};

/* The built-in entry of @ops, NULL for a plugin. */
static const struct described *describe(const struct rr_policy_ops *ops)
{
	for (size_t i = 0; i < sizeof(described) / sizeof(described[0]); i++)
		if (described[i].ops == ops)
			return &described[i];
	return NULL;
}

uint32_t rr_policy_reads(const struct rr_policy_ops *ops)
{
	const struct described *d = describe(ops);

	return d ? d->reads | RR_READS_BUILTIN : RR_READS_ALL;
}

/* The appended fields exist only when the ops' size covers them. */
#define HAS_FIELD(ops, f) \
	((ops)->size >= offsetof(struct rr_policy_ops, f) + sizeof((ops)->f))

const char *rr_policy_help(const struct rr_policy_ops *ops)
{
	const struct described *d = describe(ops);

	if (HAS_FIELD(ops, help) && ops->help)
		return ops->help;
	return d ? d->help : "";
}

const struct rr_policy_option *rr_policy_options(const struct rr_policy_ops *ops)
{
	const struct described *d = describe(ops);

	if (HAS_FIELD(ops, options) && ops->options)
		return ops->options;
	return d ? d->options : no_options;
}

const struct rr_policy_ops *rr_policy_find(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i]->name, name))
			return builtins[i];
	return NULL;
}

void rr_policy_list(void (*fn)(const struct rr_policy_ops *ops, void *data), void *data)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		fn(builtins[i], data);
}

static int check_ops(const struct rr_policy_ops *ops, const char *name)
{
	if (ops->abi_version != RR_POLICY_ABI_VERSION)
		return rr_error("policy %s: ABI version %u, this build speaks %u", name,
				ops->abi_version, RR_POLICY_ABI_VERSION);
	if (ops->size < sizeof(struct rr_policy_ops) || !ops->decide || !ops->name ||
	    !*ops->name)
		return rr_error("policy %s: incomplete ops (size, name or decide missing)", name);
	return 0;
}

/* "'a=1' 'b=2'" for an error message; "(none)" when there are none. */
static const char *settings_text(const char *const *s, uint32_t n, char *buf, size_t size)
{
	size_t len = 0;

	snprintf(buf, size, "(none)");
	for (uint32_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s'%s'", i ? " " : "", s[i]);
	return buf;
}

static int start(const struct rr_policy_ops *ops, const char *name, const char *path,
		 const char *const *settings, uint32_t nr_settings, const struct rr_model *m,
		 struct rr_policy_instance *out)
{
	struct rr_policy_env env = { 0 };
	char text[256];
	size_t len;
	int ret;

	env.size = sizeof(env);
	env.hz = rr_model_hz(m, NULL);
	env.nr_nodes = (uint32_t)m->trace->nr_nodes;
	env.flags = m->trace->legacy_throttle_events ? RR_ENV_LEGACY_TRACE : 0;
	env.settings = settings;
	env.nr_settings = nr_settings;
	if (ops->init) {
		ret = ops->init(&env, &out->priv);
		/* a built-in explains a refused setting itself; a plugin may not */
		if (ret == -EINVAL && !path)
			return RR_EXIT_USAGE;
		if (ret == -EINVAL)
			return rr_fail(RR_EXIT_USAGE, "plugin '%s': init refused its settings "
				       "%s (see 'reclaim-replay policies --policy %s')", path,
				       settings_text(settings, nr_settings, text, sizeof(text)),
				       path);
		if (ret && path)
			return rr_fail(RR_EXIT_FAILURE, "plugin '%s': init failed: %s", path,
				       ret < 0 ? strerror(-ret) : "positive return");
		if (ret)
			return rr_fail(RR_EXIT_FAILURE, "policy %s: cannot start: %s", name,
				       strerror(-ret));
	} else if (nr_settings) {
		return rr_fail(RR_EXIT_USAGE, "policy %s takes no --set options", name);
	}
	out->ops = ops;
	len = (size_t)snprintf(out->label, sizeof(out->label), "%s", ops->name);
	for (uint32_t i = 0; i < nr_settings && len < sizeof(out->label); i++)
		len += (size_t)snprintf(out->label + len, sizeof(out->label) - len, "%s%s",
					i ? "," : ":", settings[i]);
	return 0;
}

/* A plugin: its ARGS and prefixed --set strings become its settings. */
static int open_plugin(const char *spec, const char *const *settings, uint32_t nr_settings,
		       const struct rr_model *m, struct rr_policy_instance *out)
{
	const struct rr_policy_ops *ops;
	char **set = NULL;
	uint32_t nr = 0;
	int ret = rr_plugin_load(spec, &ops);

	if (ret)
		return ret;
	ret = rr_plugin_settings(ops, spec, settings, nr_settings, &set, &nr);
	if (!ret)
		ret = start(ops, ops->name, rr_plugin_path(ops), (const char *const *)set, nr, m,
			    out);
	/* settings are the init's to copy: they do not outlive it */
	rr_plugin_settings_free(set, nr);
	if (ret) {
		memset(out, 0, sizeof(*out));
		rr_plugin_put(ops);
	}
	return ret;
}

int rr_policy_open(const char *name, const char *const *settings, uint32_t nr_settings,
		   const struct rr_model *m, struct rr_policy_instance *out)
{
	const struct rr_policy_ops *ops;

	memset(out, 0, sizeof(*out));
	if (rr_plugin_is_spec(name))
		return open_plugin(name, settings, nr_settings, m, out);
	ops = rr_policy_find(name);
	if (!ops)
		return rr_fail(RR_EXIT_USAGE, "unknown policy '%s' (see 'reclaim-replay policies')",
			       name);
	if (check_ops(ops, name))
		return RR_EXIT_FAILURE;
	return start(ops, name, NULL, settings, nr_settings, m, out);
}

void rr_policy_close(struct rr_policy_instance *p)
{
	if (p->ops && p->ops->cleanup && p->priv)
		p->ops->cleanup(p->priv);
	if (p->ops)
		rr_plugin_put(p->ops);
	memset(p, 0, sizeof(*p));
}
