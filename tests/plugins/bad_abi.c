// SPDX-License-Identifier: GPL-2.0
/* Test-only plugin: claims an ABI version this build does not speak. */
#include <reclaim_replay/policy.h>

static int decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	v->sleep = 0;
	return 0;
}

static const struct rr_policy_ops ops = {
	.abi_version = RR_POLICY_ABI_VERSION + 98,
	.size = sizeof(struct rr_policy_ops),
	.name = "bad-abi",
	.summary = "wrong ABI version",
	.decide = decide,
};

const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &ops;
}
