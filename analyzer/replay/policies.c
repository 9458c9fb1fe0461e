// SPDX-License-Identifier: GPL-2.0
/*
 * The table of built-in policies, and opening one: check the ops the way
 * a plugin's will be checked (version, size, a decide hook, a name), then
 * run its init with the recording's environment.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

int rr_policy_open(const char *name, const char *const *settings, uint32_t nr_settings,
		   const struct rr_model *m, struct rr_policy_instance *out)
{
	const struct rr_policy_ops *ops = rr_policy_find(name);
	struct rr_policy_env env = { 0 };
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!ops)
		return rr_fail(RR_EXIT_USAGE, "unknown policy '%s' (see 'reclaim-replay policies')",
			       name);
	if (check_ops(ops, name))
		return RR_EXIT_FAILURE;
	env.size = sizeof(env);
	env.hz = rr_model_hz(m, NULL);
	env.nr_nodes = (uint32_t)m->trace->nr_nodes;
	env.flags = m->trace->legacy_throttle_events ? RR_ENV_LEGACY_TRACE : 0;
	env.settings = settings;
	env.nr_settings = nr_settings;
	if (ops->init) {
		ret = ops->init(&env, &out->priv);
		if (ret == -EINVAL)
			return RR_EXIT_USAGE;
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

void rr_policy_close(struct rr_policy_instance *p)
{
	if (p->ops && p->ops->cleanup && p->priv)
		p->ops->cleanup(p->priv);
	memset(p, 0, sizeof(*p));
}
