// SPDX-License-Identifier: GPL-2.0
/*
 * example: a complete reclaim-replay policy plugin, built by `make` into
 * $(O)/plugins/example.so and documented in docs/plugins.md.
 *
 * It replays the throttling of kernels 5.0-5.15 (the built-in
 * `legacy-broken`), written against <reclaim_replay/policy.h> alone, so
 * that its figures must equal the built-in's (tests/cli/t0700-plugins.sh
 * checks that). One option shows how settings arrive:
 *
 *   reclaim-replay replay TRACE -P ./example.so --set example.extra=2
 *   reclaim-replay replay TRACE -P ./example.so:extra=2
 *
 * Build out of tree:
 *   cc -shared -fPIC $(pkg-config --cflags reclaim-replay) -o example.so example.c
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <reclaim_replay/policy.h>

/* Private state of one run: init allocates it, cleanup frees it. */
struct example {
	uint64_t extra_jiffies;	/* rescheduling delay after a congestion_wait() */
};

/* j jiffies in ns at the recording's HZ (dp->hz is 0 only if unknown). */
static uint64_t jiffies_ns(const struct rr_decision_point *dp, uint64_t j)
{
	return j * 1000000000ULL / (dp->hz ? dp->hz : 250);
}

/* HZ/d as the kernel computes it: integer jiffies, at least one. */
static uint64_t hz_div_ns(const struct rr_decision_point *dp, uint32_t d)
{
	uint64_t j = (dp->hz ? dp->hz : 250) / d;

	return jiffies_ns(dp, j ? j : 1);
}

/* A legacy event recorded the timeout the kernel asked for: use it. */
static uint64_t recorded_or(const struct rr_decision_point *dp, uint64_t fallback)
{
	return dp->recorded_timeout_ns ? dp->recorded_timeout_ns : fallback;
}

/*
 * Settings arrive as "KEY=VALUE" strings, the plugin's "example." prefix
 * already taken off, valid only during this call. Refuse what is not
 * understood: -EINVAL makes reclaim-replay name the settings and exit 2.
 */
static int example_init(const struct rr_policy_env *env, void **priv)
{
	struct example *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->extra_jiffies = 1;
	for (uint32_t i = 0; i < env->nr_settings; i++) {
		const char *s = env->settings[i];
		char *end;

		if (!strncmp(s, "extra=", 6)) {
			e->extra_jiffies = strtoull(s + 6, &end, 10);
			if (end != s + 6 && !*end && e->extra_jiffies <= 1000)
				continue;
		}
		free(e);
		return -EINVAL;
	}
	*priv = e;
	return 0;
}

/* congestion_wait(): nothing clears congestion, so the whole timeout,
 * then the wait for the cpu; counted as a legacy congestion_wait. */
static void congestion_wait(const struct example *e, const struct rr_decision_point *dp,
			    struct rr_verdict *v, uint64_t timeout_ns)
{
	v->sleep = 1;
	v->wake = RR_WAKE_TIMEOUT_ONLY;
	v->timeout_ns = timeout_ns;
	v->extra_ns = jiffies_ns(dp, e->extra_jiffies);
	v->counted_as = RR_POLICY_REASON_CONGESTION_WAIT + 1;
}

/*
 * Called at every decision point (and again at each retry of one): fill
 * @v. The engine zeroed @v; leaving v->sleep at 0 means "do not sleep".
 */
static int example_decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	const struct example *e = priv;
	int observed = dp->flags & RR_DP_OBSERVED, legacy = dp->flags & RR_DP_LEGACY_EVENT;

	memset(v, 0, sizeof(*v));
	switch (dp->site) {
	case RR_SITE_SHRINK_NODE_KSWAPD:	/* congestion_wait(BLK_RW_ASYNC, HZ/10) */
	case RR_SITE_COMPACTION_ISOLATED:
		congestion_wait(e, dp, v, recorded_or(dp, hz_div_ns(dp, 10)));
		break;
	case RR_SITE_NO_PROGRESS:		/* should_reclaim_retry(), where it failed */
		if (observed)
			congestion_wait(e, dp, v, legacy ? recorded_or(dp, hz_div_ns(dp, 10)) :
					hz_div_ns(dp, 10));
		break;
	case RR_SITE_DO_WRITEPAGES:		/* -ENOMEM loop: congestion_wait(HZ/50) */
		congestion_wait(e, dp, v, legacy ? recorded_or(dp, hz_div_ns(dp, 50)) :
				hz_div_ns(dp, 50));
		break;
	case RR_SITE_TOO_MANY_ISOLATED:		/* msleep(100): no wake, not traced */
		if (observed) {
			v->sleep = 1;
			v->wake = RR_WAKE_TIMEOUT_ONLY;
			v->timeout_ns = 100000000ULL;
		}
		break;
	default:	/* wait_iff_congested() never sleeps on blk-mq devices */
		break;
	}
	return 0;
}

static const struct rr_policy_option example_options[] = {
	{ "extra", "count", "1", "jiffies of rescheduling delay after each congestion_wait()" },
	{ NULL, NULL, NULL, NULL },
};

static const struct rr_policy_ops example_ops = {
	.abi_version = RR_POLICY_ABI_VERSION,	/* checked at load */
	.size = sizeof(struct rr_policy_ops),	/* checked at load */
	.name = "example",			/* the NAME of --set NAME.KEY=VALUE */
	.summary = "example plugin: legacy-broken written against policy.h alone",
	.init = example_init,
	.decide = example_decide,
	.cleanup = free,
	.help = "congestion_wait() sleeps its whole timeout plus `extra` jiffies; "
		"too_many_isolated() sleeps 100 ms; wait_iff_congested() never sleeps. "
		"Equal to the built-in legacy-broken with the default extra=1.",
	.options = example_options,
};

/* The one symbol reclaim-replay looks up (RR_POLICY_PLUGIN_ENTRY). */
const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &example_ops;
}
