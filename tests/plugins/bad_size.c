// SPDX-License-Identifier: GPL-2.0
/* Test-only plugin: a struct rr_policy_ops size no ABI v1 header produces. */
#include <reclaim_replay/policy.h>

static int decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	v->sleep = 0;
	return 0;
}

static const struct rr_policy_ops ops = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = 2 * sizeof(uint32_t),	/* truncated: only the version and size */
	.name = "bad-size",
	.summary = "size mismatch",
	.decide = decide,
};

const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &ops;
}
