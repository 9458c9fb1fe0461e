// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only plugin: never sleeps, and appends the task figures of every
 * observed decision point (first asking only, not retries) to the file of
 * its `out=PATH` setting, for t0700-plugins.sh to check against a
 * generated scenario's hand-computed figures.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <reclaim_replay/policy.h>

static int init(const struct rr_policy_env *env, void **priv)
{
	FILE *f = NULL;

	for (uint32_t i = 0; i < env->nr_settings; i++) {
		if (strncmp(env->settings[i], "out=", 4) || f)
			return -EINVAL;
		f = fopen(env->settings[i] + 4, "a");
		if (!f)
			return -errno;
	}
	if (!f)
		return -EINVAL;
	*priv = f;
	return 0;
}

static int decide(void *priv, const struct rr_decision_point *dp, struct rr_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (!(dp->flags & RR_DP_OBSERVED) || (dp->flags & RR_DP_RETRY))
		return 0;
	fprintf(priv, "pid=%" PRIu32 " episodes=%" PRIu32 " batches=%" PRIu32 " scanned=%" PRIu64
		" reclaimed=%" PRIu64 " reclaim_ns=%" PRIu64 " lifetime_ns=%" PRIu64
		" throttles=%" PRIu32 " throttled_ns=%" PRIu64 " trace_tasks=%" PRIu32
		" trace_reclaimed=%" PRIu64 " trace_elapsed_ns=%" PRIu64 " trace_episodes=%" PRIu64
		" trace_task_ns=%" PRIu64 "\n", dp->pid,
		dp->task_episodes, dp->task_batches, dp->task_scanned, dp->task_reclaimed,
		dp->task_reclaim_ns, dp->task_lifetime_ns, dp->task_throttles,
		dp->task_throttled_ns, dp->trace_tasks, dp->trace_reclaimed, dp->trace_elapsed_ns,
		dp->trace_episodes, dp->trace_task_ns);
	return 0;
}

static void cleanup(void *priv)
{
	fclose(priv);
}

static const struct rr_policy_ops ops = {
	.abi_version = RR_POLICY_ABI_VERSION,
	.size = sizeof(struct rr_policy_ops),
	.name = "figures",
	.summary = "test: dump task figures",
	.init = init,
	.decide = decide,
	.cleanup = cleanup,
};

const struct rr_policy_ops *rr_policy_plugin_entry(void)
{
	return &ops;
}
