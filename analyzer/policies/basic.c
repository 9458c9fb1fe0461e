// SPDX-License-Identifier: GPL-2.0
/*
 * The two reference points of every comparison: `recorded` sleeps exactly
 * what the recorded kernel slept (the identity check), `none` never sleeps
 * (what wait_iff_congested() effectively did on block storage).
 */
#include "common.h"

static int recorded_decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	(void)priv;
	memset(v, 0, sizeof(*v));
	v->inputs = RR_IN_DECLARED;	/* reads only the point's fixed fields */
	if (!(dp->flags & RR_DP_OBSERVED) || (dp->flags & RR_DP_RETRY))
		return 0;
	rr_sleep(v, dp->recorded_timeout_ns > dp->recorded_delayed_ns ? dp->recorded_timeout_ns :
		 dp->recorded_delayed_ns, RR_WAKE_RECORDED);
	return 0;
}

static int none_decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	(void)priv;
	(void)dp;
	memset(v, 0, sizeof(*v));
	v->inputs = RR_IN_DECLARED;
	return 0;
}

const struct rr_policy_ops rr_policy_recorded = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "recorded",
	.summary = "sleep exactly as the recorded kernel did (identity)",
	.decide = recorded_decide,
};

const struct rr_policy_ops rr_policy_none = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "none",
	.summary = "never sleep",
	.decide = none_decide,
};
