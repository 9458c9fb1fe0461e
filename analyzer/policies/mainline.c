// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim_throttle() policies (reference 2 and 6): `mainline` (5.16 final
 * to current), `mainline-5.16rc` (the series as merged in 5.16-rc1), and
 * `parametric`, mainline's rules with timeouts and wake thresholds from
 * --set options, for sweeps.
 */
#include <errno.h>
#include <stdlib.h>

#include "common.h"

#define DEF_PRIORITY 12

struct throttle_cfg {
	const char *name;
	int rc;				/* 5.16-rc rules */
	uint64_t timeout[4];		/* ns per reason; 0 = HZ-derived default */
	uint64_t pages_per_waiter;	/* WRITEBACK wake */
	uint64_t wake_efficiency;	/* NOPROGRESS wake, ppm */
	uint64_t wake_isolated;		/* 0: ISOLATED sleeps its whole timeout */
	int legacy_trace;		/* the recording is from a <= 5.15 kernel */
};

static int init_cfg(const struct rr_policy_env *env, void **priv, const char *name, int rc,
		    int parametric)
{
	struct throttle_cfg *c = calloc(1, sizeof(*c));
	const struct rr_param params[] = {
		{ "writeback.timeout", RR_PARAM_DURATION, NULL },
		{ "isolated.timeout", RR_PARAM_DURATION, NULL },
		{ "noprogress.timeout", RR_PARAM_DURATION, NULL },
		{ "congested.timeout", RR_PARAM_DURATION, NULL },
		{ "writeback.pages_per_waiter", RR_PARAM_COUNT, NULL },
		{ "noprogress.wake_efficiency", RR_PARAM_RATIO, NULL },
		{ "isolated.wake", RR_PARAM_COUNT, NULL },
	};
	struct rr_param p[7];

	if (!c)
		return -ENOMEM;
	c->name = name;
	c->rc = rc;
	c->legacy_trace = (env->flags & RR_ENV_LEGACY_TRACE) != 0;
	c->pages_per_waiter = 32;
	c->wake_efficiency = 125000;
	c->wake_isolated = 1;
	memcpy(p, params, sizeof(p));
	for (int i = 0; i < 4; i++)
		p[i].value = &c->timeout[i];
	p[4].value = &c->pages_per_waiter;
	p[5].value = &c->wake_efficiency;
	p[6].value = &c->wake_isolated;
	if (rr_policy_parse_settings(env, name, parametric ? p : NULL, parametric ? 7 : 0)) {
		free(c);
		return -EINVAL;
	}
	*priv = c;
	return 0;
}

static int mainline_init(const struct rr_policy_env *env, void **priv)
{
	return init_cfg(env, priv, "mainline", 0, 0);
}

static int rc_init(const struct rr_policy_env *env, void **priv)
{
	return init_cfg(env, priv, "mainline-5.16rc", 1, 0);
}

static int parametric_init(const struct rr_policy_env *env, void **priv)
{
	return init_cfg(env, priv, "parametric", 0, 1);
}

static uint64_t timeout_of(const struct throttle_cfg *c, const struct rr_decision_point *dp,
			   uint32_t reason)
{
	if (c->timeout[reason])
		return c->timeout[reason];
	switch (reason) {
	case RR_POLICY_REASON_WRITEBACK:
		return rr_hz_div_ns(dp, 10);
	case RR_POLICY_REASON_ISOLATED:
		return rr_hz_div_ns(dp, 50);
	case RR_POLICY_REASON_NOPROGRESS:
		return c->rc ? rr_hz_div_ns(dp, 2) : rr_jiffies_ns(dp, 1);
	default:
		return rr_jiffies_ns(dp, 1);
	}
}

static void throttle(const struct throttle_cfg *c, const struct rr_decision_point *dp,
		     struct rr_verdict *v, uint32_t reason)
{
	static const uint32_t wake[4] = {
		RR_WAKE_WRITEBACK, RR_WAKE_ISOLATED, RR_WAKE_PROGRESS, RR_WAKE_TIMEOUT_ONLY,
	};

	rr_sleep(v, timeout_of(c, dp, reason), wake[reason]);
	v->pages_per_waiter = (uint32_t)c->pages_per_waiter;
	v->wake_efficiency_ppm = (uint32_t)c->wake_efficiency;
	if (reason == RR_POLICY_REASON_ISOLATED && !c->wake_isolated)
		v->wake = RR_WAKE_TIMEOUT_ONLY;
}

/* skip_throttle_noprogress(): no point waiting when little is being written */
static int skip_noprogress(const struct rr_decision_point *dp)
{
	if (!(dp->flags & RR_DP_NODE_SAMPLED))
		return 0;	/* unknown: the rule cannot be evaluated */
	return 2 * dp->node_write_pending <= dp->node_reclaimable;
}

static void rules(const struct throttle_cfg *c, const struct rr_decision_point *dp,
		  struct rr_verdict *v)
{
	int kswapd = dp->flags & RR_DP_KSWAPD, observed = dp->flags & RR_DP_OBSERVED;
	int legacy = dp->flags & RR_DP_LEGACY_EVENT;
	/* Latent points of a >= 5.16 recording are where the recorded kernel
	 * ran these same rules and did not throttle; on a legacy recording
	 * they are decisions a post-5.16 kernel would make anew. */
	int fresh = c->legacy_trace;
	int congested = dp->batch_dirty && dp->batch_dirty == dp->batch_congested;

	memset(v, 0, sizeof(*v));
	/* reclaim_throttle(): kernel threads and IO workers only cond_resched() */
	if ((dp->flags & RR_DP_KTHREAD) && !kswapd)
		return;
	switch (dp->site) {
	case RR_SITE_SHRINK_NODE_KSWAPD:
		if (kswapd && (observed || (fresh && dp->batch_immediate)))
			throttle(c, dp, v, RR_POLICY_REASON_WRITEBACK);
		return;
	case RR_SITE_MEMCG_WRITEBACK:
	case RR_SITE_DO_WRITEPAGES:
		if (observed)
			throttle(c, dp, v, RR_POLICY_REASON_WRITEBACK);
		return;
	case RR_SITE_TOO_MANY_ISOLATED:
		/* kswapd and cgroup v1 reclaim never throttle here */
		if (observed && !kswapd && !(dp->flags & RR_DP_CGROUP))
			throttle(c, dp, v, RR_POLICY_REASON_ISOLATED);
		return;
	case RR_SITE_COMPACTION_ISOLATED:
		if (observed)
			throttle(c, dp, v, RR_POLICY_REASON_ISOLATED);
		return;
	case RR_SITE_SHRINK_NODE_DIRECT:
		if (kswapd || !(observed || (fresh && congested)))
			return;
		if (c->rc)	/* 5.16-rc: this path throttled on WRITEBACK */
			throttle(c, dp, v, RR_POLICY_REASON_WRITEBACK);
		else if (!skip_noprogress(dp))
			throttle(c, dp, v, RR_POLICY_REASON_CONGESTED);
		return;
	case RR_SITE_NO_PROGRESS:
		/* the legacy page allocator's wait (should_reclaim_retry) is gone */
		if (kswapd || legacy)
			return;
		if (c->rc) {
			/* every node, cgroup reclaim included, priority < DEF_PRIORITY - 2 */
			if (observed || (dp->priority >= 0 && dp->priority < DEF_PRIORITY - 2))
				throttle(c, dp, v, RR_POLICY_REASON_NOPROGRESS);
			return;
		}
		if (dp->flags & RR_DP_CGROUP)
			return;
		/* first zonelist node, priority 1, nothing reclaimed, not skipped */
		if (observed || (fresh && (dp->flags & RR_DP_FIRST_NODE) && dp->priority == 1 &&
				 !dp->episode_reclaimed && !skip_noprogress(dp)))
			throttle(c, dp, v, RR_POLICY_REASON_NOPROGRESS);
		return;
	default:
		return;
	}
}

static int decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	rules(priv, dp, v);
	/* what rules() read beyond the point's fixed fields: the skip rule's
	 * counters, and the fresh NOPROGRESS rule's episode figures */
	v->inputs = RR_IN_DECLARED;
	if (dp->site == RR_SITE_SHRINK_NODE_DIRECT)
		v->inputs |= RR_IN_NODE_SAMPLE;
	else if (dp->site == RR_SITE_NO_PROGRESS)
		v->inputs |= RR_IN_NODE_SAMPLE | RR_IN_EPISODE;
	return 0;
}

const struct rr_policy_ops rr_policy_mainline = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "mainline",
	.summary = "5.16 final to current: HZ/10, HZ/50, 1 jiffy, skip rules, exemptions",
	.init = mainline_init,
	.decide = decide,
	.cleanup = free,
};

const struct rr_policy_ops rr_policy_mainline_rc = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "mainline-5.16rc",
	.summary = "5.16-rc1: NOPROGRESS HZ/2 at priority < 10 on every node, no skip rules",
	.init = rc_init,
	.decide = decide,
	.cleanup = free,
};

const struct rr_policy_ops rr_policy_parametric = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "parametric",
	.summary = "mainline rules, timeouts and wake thresholds from --set (sweeps)",
	.init = parametric_init,
	.decide = decide,
	.cleanup = free,
};
