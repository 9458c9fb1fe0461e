/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the built-in policies share: jiffies, the kernel's constants and
 * the verdict shapes of reclaim_throttle() and congestion_wait(). Built-ins
 * include only policy.h and this; a plugin gets the same interface.
 */
#ifndef RR_POLICIES_COMMON_H
#define RR_POLICIES_COMMON_H

#include <stdint.h>
#include <string.h>

#include "reclaim_replay/policy.h"

static inline uint64_t rr_jiffies_ns(const struct rr_decision_point *dp, uint64_t j)
{
	uint32_t hz = dp->hz ? dp->hz : 250;

	return j * 1000000000ULL / hz;
}

/* HZ/d jiffies as the kernel computes them (integer division), in ns. */
static inline uint64_t rr_hz_div_ns(const struct rr_decision_point *dp, uint32_t d)
{
	uint32_t hz = dp->hz ? dp->hz : 250;
	uint64_t j = hz / d;

	return rr_jiffies_ns(dp, j ? j : 1);
}

static inline void rr_sleep(struct rr_verdict *v, uint64_t timeout_ns, uint32_t wake)
{
	memset(v, 0, sizeof(*v));
	v->sleep = 1;
	v->timeout_ns = timeout_ns;
	v->wake = wake;
	v->pages_per_waiter = 32;		/* SWAP_CLUSTER_MAX */
	v->wake_efficiency_ppm = 125000;	/* nr_reclaimed > nr_scanned >> 3 */
}

/* legacy congestion_wait(): nobody clears congestion, so the whole timeout,
 * then the wait for the cpu (traced 104-132 ms for HZ/10 at HZ=250 [G3];
 * we add one jiffy, the least of that). */
static inline void rr_congestion_wait(const struct rr_decision_point *dp, struct rr_verdict *v,
				      uint64_t timeout_ns)
{
	rr_sleep(v, timeout_ns, RR_WAKE_TIMEOUT_ONLY);
	v->extra_ns = rr_jiffies_ns(dp, 1);
	v->counted_as = RR_POLICY_REASON_CONGESTION_WAIT + 1;
}

/* The timeout the recorded legacy event asked for, or @fallback. */
static inline uint64_t rr_recorded_timeout(const struct rr_decision_point *dp, uint64_t fallback)
{
	return dp->recorded_timeout_ns ? dp->recorded_timeout_ns : fallback;
}

/* Parse "key=value" settings; helpers in analyzer/policies/settings.c. */
struct rr_param {
	const char *key;
	enum { RR_PARAM_DURATION, RR_PARAM_RATIO, RR_PARAM_COUNT } type;
	uint64_t *value;	/* ns, ppm or count */
};

int rr_policy_parse_settings(const struct rr_policy_env *env, const char *policy,
			     const struct rr_param *params, int nr_params);

#endif
