// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels 5.0-5.15 (reference 1 and 6). `legacy-broken`: each
 * congestion_wait() site sleeps its whole timeout plus rescheduling delay,
 * because after 5.0 nothing cleared congestion on block devices;
 * wait_iff_congested() only yields; the isolation stall is msleep(100).
 * `legacy-intended`: the same sites as designed, with congestion modelled
 * as block requests in flight against the old request queue's thresholds.
 */
#include <errno.h>
#include <stdlib.h>

#include "common.h"

struct legacy {
	int intended;
	uint64_t nr_requests;
	uint32_t on, off;
};

static int legacy_init_common(const struct rr_policy_env *env, void **priv, int intended)
{
	struct legacy *l = calloc(1, sizeof(*l));
	const struct rr_param params[] = {
		{ "congestion.nr_requests", RR_PARAM_COUNT, &l->nr_requests },
	};
	uint64_t n;

	if (!l)
		return -ENOMEM;
	l->intended = intended;
	l->nr_requests = 128;	/* the default nr_requests of the legacy request queue */
	if (intended && rr_policy_parse_settings(env, "legacy-intended", params, 1)) {
		free(l);
		return -EINVAL;
	}
	if (!intended && rr_policy_parse_settings(env, "legacy-broken", NULL, 0)) {
		free(l);
		return -EINVAL;
	}
	/* blk_queue_congestion_threshold() of 4.x block/blk-core.c */
	n = l->nr_requests;
	l->on = (uint32_t)(n - n / 8 + 1);
	l->off = (uint32_t)(n - n / 8 - n / 16 - 1);
	*priv = l;
	return 0;
}

static int broken_init(const struct rr_policy_env *env, void **priv)
{
	return legacy_init_common(env, priv, 0);
}

static int intended_init(const struct rr_policy_env *env, void **priv)
{
	return legacy_init_common(env, priv, 1);
}

static void congestion_wait(const struct legacy *l, const struct rr_decision_point *dp,
			    struct rr_verdict *v, uint64_t timeout)
{
	rr_congestion_wait(dp, v, timeout);
	if (l->intended) {
		/* woken by clear_wb_congested() when the queue drains below "off" */
		v->wake = RR_WAKE_UNCONGESTED;
		v->congestion_on = l->on;
		v->congestion_off = l->off;
		v->extra_ns = 0;
	}
}

static void legacy_rules(const struct legacy *l, const struct rr_decision_point *dp,
			 struct rr_verdict *v)
{
	uint64_t hz10 = rr_hz_div_ns(dp, 10), hz50 = rr_hz_div_ns(dp, 50);

	memset(v, 0, sizeof(*v));
	switch (dp->site) {
	case RR_SITE_SHRINK_NODE_KSWAPD:	/* congestion_wait(BLK_RW_ASYNC, HZ/10) */
	case RR_SITE_COMPACTION_ISOLATED:	/* isolate_migratepages_block */
		congestion_wait(l, dp, v, rr_recorded_timeout(dp, hz10));
		return;
	case RR_SITE_NO_PROGRESS:
		/* should_reclaim_retry()'s congestion_wait(HZ/10) after a failed
		 * reclaim: only where a recorded throttle says reclaim failed */
		if (dp->flags & RR_DP_OBSERVED)
			congestion_wait(l, dp, v, (dp->flags & RR_DP_LEGACY_EVENT) ?
					rr_recorded_timeout(dp, hz10) : hz10);
		return;
	case RR_SITE_DO_WRITEPAGES:		/* -ENOMEM loop: congestion_wait(HZ/50) */
		congestion_wait(l, dp, v, (dp->flags & RR_DP_LEGACY_EVENT) ?
				rr_recorded_timeout(dp, hz50) : hz50);
		return;
	case RR_SITE_TOO_MANY_ISOLATED:		/* msleep(100): no wake, not traced */
		if (dp->flags & RR_DP_OBSERVED) {
			rr_sleep(v, 100000000ULL, RR_WAKE_TIMEOUT_ONLY);
		}
		return;
	case RR_SITE_SHRINK_NODE_DIRECT:
		/* wait_iff_congested(): sleeps only while a device is congested,
		 * which on blk-mq devices is never (reference 1.1) */
		if (l->intended && (dp->flags & RR_DP_OBSERVED) && dp->device_inflight >= l->on)
			congestion_wait(l, dp, v, rr_recorded_timeout(dp, hz10));
		return;
	case RR_SITE_MEMCG_WRITEBACK:
		/* memcg v1 reclaim waited on each page's writeback inside
		 * shrink_page_list(): batch time, not a throttle */
	default:
		return;
	}
}

static int legacy_decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	const struct legacy *l = priv;

	legacy_rules(l, dp, v);
	/* only wait_iff_congested() as designed reads a changing figure */
	v->inputs = RR_IN_DECLARED;
	if (l->intended && dp->site == RR_SITE_SHRINK_NODE_DIRECT)
		v->inputs |= RR_IN_INFLIGHT;
	return 0;
}

const struct rr_policy_ops rr_policy_legacy_broken = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "legacy-broken",
	.summary = "5.0-5.15: congestion_wait() always sleeps its full timeout",
	.init = broken_init,
	.decide = legacy_decide,
	.cleanup = free,
};

const struct rr_policy_ops rr_policy_legacy_intended = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "legacy-intended",
	.summary = "congestion_wait() woken when block queues drain (set congestion.nr_requests)",
	.init = intended_init,
	.decide = legacy_decide,
	.cleanup = free,
};
