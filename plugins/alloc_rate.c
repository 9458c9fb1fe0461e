// SPDX-License-Identifier: GPL-2.0
/*
 * alloc-rate: mainline's reclaim_throttle() rules with each sleep scaled
 * by how fast the task allocates, so heavy allocators wait longer and
 * light ones less (the next step the throttling series' author named:
 * prioritise tasks by their rate of allocation). Shipped as a plugin,
 * built against <reclaim_replay/policy.h> alone, to show the ABI suffices.
 *
 * Traces carry no allocation events, so the rate is the task's reclaim
 * demand: a task enters direct reclaim when its allocations outrun free
 * memory and reclaims for them (docs/plugins.md, "alloc-rate"):
 *
 *   demand  = max(task_reclaimed, 32 x task_episodes)             pages
 *   rate    = demand / max(task_lifetime_ns, window)
 *   all     = max(trace_reclaimed, 32 x trace_episodes)
 *   mean    = all / max(trace_task_ns, window)      (per task and ns)
 *   factor  = clamp((rate / mean) ^ exponent, min, max)
 *   timeout = max(1, round(mainline_jiffies x factor)) jiffies
 *
 * Where, when and for which reason it sleeps, and what wakes it, are
 * mainline's; kswapd, and tasks the trace says nothing about yet, keep
 * factor 1. With exponent=0 it is mainline exactly.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <reclaim_replay/policy.h>

#define DEF_PRIORITY 12
#define SWAP_CLUSTER_MAX 32

struct alloc_rate {
	double exponent, min, max;
	uint64_t window_ns;
	int legacy_trace;	/* recorded by a <= 5.15 kernel: latent points are new */
};

/* --- settings ------------------------------------------------------------ */

static int parse_number(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0 || v > 1e6)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)(v * units[i].ns + 0.5);
			return 0;
		}
	}
	return -1;
}

static int set_one(struct alloc_rate *a, const char *s)
{
	const char *eq = strchr(s, '=');
	size_t klen = eq ? (size_t)(eq - s) : 0;

	if (!eq)
		return -1;
	if (klen == 8 && !strncmp(s, "exponent", 8))
		return parse_number(eq + 1, 0, 4, &a->exponent);
	if (klen == 3 && !strncmp(s, "min", 3))
		return parse_number(eq + 1, 0.01, 1, &a->min);
	if (klen == 3 && !strncmp(s, "max", 3))
		return parse_number(eq + 1, 1, 100, &a->max);
	if (klen == 6 && !strncmp(s, "window", 6))
		return parse_duration(eq + 1, &a->window_ns) || !a->window_ns ? -1 : 0;
	return -1;
}

static int ar_init(const struct rr_policy_env *env, void **priv)
{
	struct alloc_rate *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->exponent = 0.5;
	a->min = 0.25;
	a->max = 4;
	a->window_ns = 100000000ULL;
	a->legacy_trace = (env->flags & RR_ENV_LEGACY_TRACE) != 0;
	for (uint32_t i = 0; i < env->nr_settings; i++) {
		if (set_one(a, env->settings[i])) {
			free(a);
			return -EINVAL;
		}
	}
	*priv = a;
	return 0;
}

/* --- the rate ------------------------------------------------------------ */

/* Pages reclaimed, at least SWAP_CLUSTER_MAX per episode: what the
 * allocations that entered reclaim asked for. */
static double demand(uint64_t reclaimed, uint64_t episodes)
{
	double floor_pages = (double)SWAP_CLUSTER_MAX * (double)episodes;

	return (double)reclaimed > floor_pages ? (double)reclaimed : floor_pages;
}

static double scale_factor(const struct alloc_rate *a, const struct rr_decision_point *dp)
{
	double rate, mean, f;

	/* figures appended to the decision point: an older engine lacks them */
	if (dp->size < offsetof(struct rr_decision_point, trace_task_ns) +
	    sizeof(dp->trace_task_ns))
		return 1;
	if ((dp->flags & RR_DP_KSWAPD) || !dp->task_episodes || !dp->trace_episodes ||
	    a->exponent == 0)
		return 1;
	/* the same demand and the same floor for the task and for everyone */
	rate = demand(dp->task_reclaimed, dp->task_episodes) /
	       (double)(dp->task_lifetime_ns > a->window_ns ? dp->task_lifetime_ns : a->window_ns);
	mean = demand(dp->trace_reclaimed, dp->trace_episodes) /
	       (double)(dp->trace_task_ns > a->window_ns ? dp->trace_task_ns : a->window_ns);
	f = pow(rate / mean, a->exponent);
	return f < a->min ? a->min : f > a->max ? a->max : f;
}

/* --- mainline's rules (analyzer/policies/mainline.c), timeouts scaled ---- */

static uint32_t hz_of(const struct rr_decision_point *dp)
{
	return dp->hz ? dp->hz : 250;
}

/* Mainline's timeout in jiffies: HZ/10, HZ/50, or one jiffy. */
static uint64_t base_jiffies(const struct rr_decision_point *dp, uint32_t reason)
{
	uint64_t j;

	switch (reason) {
	case RR_POLICY_REASON_WRITEBACK:
		j = hz_of(dp) / 10;
		break;
	case RR_POLICY_REASON_ISOLATED:
		j = hz_of(dp) / 50;
		break;
	default:
		j = 1;
	}
	return j ? j : 1;
}

static void throttle(const struct alloc_rate *a, const struct rr_decision_point *dp,
		     struct rr_verdict *v, uint32_t reason)
{
	static const uint32_t wake[4] = {
		RR_WAKE_WRITEBACK, RR_WAKE_ISOLATED, RR_WAKE_PROGRESS, RR_WAKE_TIMEOUT_ONLY,
	};
	uint64_t j = base_jiffies(dp, reason);
	double f = scale_factor(a, dp);

	/* the kernel sleeps whole jiffies, at least one */
	if (f != 1) {
		double scaled = floor((double)j * f + 0.5);

		j = scaled < 1 ? 1 : (uint64_t)scaled;
	}
	memset(v, 0, sizeof(*v));
	v->sleep = 1;
	v->wake = wake[reason];
	v->timeout_ns = j * 1000000000ULL / hz_of(dp);
	v->pages_per_waiter = SWAP_CLUSTER_MAX;
	v->wake_efficiency_ppm = 125000;	/* nr_reclaimed > nr_scanned >> 3 */
}

/* skip_throttle_noprogress(): no point waiting when little is being written */
static int skip_noprogress(const struct rr_decision_point *dp)
{
	if (!(dp->flags & RR_DP_NODE_SAMPLED))
		return 0;
	return 2 * dp->node_write_pending <= dp->node_reclaimable;
}

static void rules(const struct alloc_rate *a, const struct rr_decision_point *dp,
		  struct rr_verdict *v)
{
	int kswapd = dp->flags & RR_DP_KSWAPD, observed = dp->flags & RR_DP_OBSERVED;
	int fresh = a->legacy_trace;
	int congested = dp->batch_dirty && dp->batch_dirty == dp->batch_congested;

	memset(v, 0, sizeof(*v));
	if ((dp->flags & RR_DP_KTHREAD) && !kswapd)
		return;
	switch (dp->site) {
	case RR_SITE_SHRINK_NODE_KSWAPD:
		if (kswapd && (observed || (fresh && dp->batch_immediate)))
			throttle(a, dp, v, RR_POLICY_REASON_WRITEBACK);
		return;
	case RR_SITE_MEMCG_WRITEBACK:
	case RR_SITE_DO_WRITEPAGES:
		if (observed)
			throttle(a, dp, v, RR_POLICY_REASON_WRITEBACK);
		return;
	case RR_SITE_TOO_MANY_ISOLATED:
		if (observed && !kswapd && !(dp->flags & RR_DP_CGROUP))
			throttle(a, dp, v, RR_POLICY_REASON_ISOLATED);
		return;
	case RR_SITE_COMPACTION_ISOLATED:
		if (observed)
			throttle(a, dp, v, RR_POLICY_REASON_ISOLATED);
		return;
	case RR_SITE_SHRINK_NODE_DIRECT:
		if (kswapd || !(observed || (fresh && congested)))
			return;
		if (!skip_noprogress(dp))
			throttle(a, dp, v, RR_POLICY_REASON_CONGESTED);
		return;
	case RR_SITE_NO_PROGRESS:
		if (kswapd || (dp->flags & RR_DP_LEGACY_EVENT) || (dp->flags & RR_DP_CGROUP))
			return;
		if (observed || (fresh && (dp->flags & RR_DP_FIRST_NODE) && dp->priority == 1 &&
				 !dp->episode_reclaimed && !skip_noprogress(dp)))
			throttle(a, dp, v, RR_POLICY_REASON_NOPROGRESS);
		return;
	default:
		return;
	}
}

static int ar_decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	rules(priv, dp, v);
	/*
	 * What the rules read beyond the point's fixed fields (the task
	 * figures are fixed too): the skip rule's node counters and the fresh
	 * NOPROGRESS rule's episode figures. The engine may then reuse a
	 * "no sleep" at a retry of the same point instead of asking again.
	 */
	v->inputs = RR_IN_DECLARED;
	if (dp->site == RR_SITE_SHRINK_NODE_DIRECT)
		v->inputs |= RR_IN_NODE_SAMPLE;
	else if (dp->site == RR_SITE_NO_PROGRESS)
		v->inputs |= RR_IN_NODE_SAMPLE | RR_IN_EPISODE;
	return 0;
}

static const struct rr_policy_option ar_options[] = {
	{ "exponent", "0..4", "0.5", "how strongly the rate ratio scales a sleep; 0 is mainline" },
	{ "min", "0.01..1", "0.25", "the smallest factor (the lightest allocators)" },
	{ "max", "1..100", "4", "the largest factor (the heaviest allocators)" },
	{ "window", "duration", "100ms", "rates are taken over at least this long" },
	{ NULL, NULL, NULL, NULL },
};

static const struct rr_policy_ops ar_ops = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "alloc-rate",
	.summary = "mainline, each sleep scaled by the task's allocation rate",
	.init = ar_init,
	.decide = ar_decide,
	.cleanup = free,
	.help = "mainline's reasons, sites and wake conditions; each timeout is mainline's "
		"in jiffies times clamp((rate/mean)^exponent, min, max), rounded, at least one "
		"jiffy, where rate is the task's reclaim demand (pages reclaimed so far, at "
		"least 32 per episode) over its time in the trace, and mean is all reclaiming "
		"tasks' demand over their summed time. kswapd keeps mainline's timeouts.",
	.options = ar_options,
};

const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &ar_ops;
}
