// SPDX-License-Identifier: GPL-2.0
/* Test-only plugin: loads and checks out, then its init fails (-ENODEV). */
#include <errno.h>

#include <reclaim_replay/policy.h>

static int init(const struct rr_policy_env *env, void **priv)
{
	return -ENODEV;
}

static int decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	v->sleep = 0;
	return 0;
}

static const struct rr_policy_ops ops = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "bad-init",
	.summary = "init fails",
	.init = init,
	.decide = decide,
};

const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &ops;
}
