/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The throttle-policy interface: the ONLY header a policy (built-in, or a
 * plugin loaded with --policy ./x.so: docs/plugins.md) includes. A policy
 * sees a decision point, a moment where kernel code would consider
 * throttling, and answers "no sleep" or "sleep with this timeout and this
 * wake condition". The replay engine, not the policy, evaluates wake
 * conditions against the node curves and the simulated set of waiters.
 *
 * Only <stdint.h> types; structs carry their size and fields are only
 * appended, so a plugin built against an older header keeps working.
 * RR_POLICY_ABI_VERSION changes only if a field ever changes meaning.
 */
#ifndef RECLAIM_REPLAY_POLICY_H
#define RECLAIM_REPLAY_POLICY_H

#include <stdint.h>

#define RR_POLICY_ABI_VERSION 1

/* Throttle reasons, numbered as the kernel's enum vmscan_throttle_state. */
#define RR_POLICY_REASON_WRITEBACK	0
#define RR_POLICY_REASON_ISOLATED	1
#define RR_POLICY_REASON_NOPROGRESS	2
#define RR_POLICY_REASON_CONGESTED	3
/* Only for struct rr_verdict.counted_as: the legacy waits of kernels <= 5.15 */
#define RR_POLICY_REASON_CONGESTION_WAIT	4
#define RR_POLICY_REASON_WAIT_IFF_CONGESTED	5

/* Where the kernel code would consider throttling (reference 1.2, 2.4). */
enum rr_site {
	RR_SITE_SHRINK_NODE_KSWAPD,	/* kswapd pass with nr_immediate > 0 */
	RR_SITE_SHRINK_NODE_DIRECT,	/* non-kswapd pass, dirty == congested > 0 */
	RR_SITE_TOO_MANY_ISOLATED,	/* shrink_inactive_list isolation check */
	RR_SITE_NO_PROGRESS,		/* consider_reclaim_throttle / should_reclaim_retry */
	RR_SITE_MEMCG_WRITEBACK,	/* cgroup v1 reclaim waiting for dirty folios */
	RR_SITE_COMPACTION_ISOLATED,	/* isolate_migratepages_block */
	RR_SITE_DO_WRITEPAGES,		/* a writer's ->writepages returned -ENOMEM */
	RR_SITE_UNKNOWN,
};

/* struct rr_decision_point.flags */
#define RR_DP_OBSERVED		0x0001	/* the recorded kernel slept here */
#define RR_DP_KSWAPD		0x0002
#define RR_DP_KTHREAD		0x0004	/* a kernel thread other than kswapd */
#define RR_DP_CGROUP		0x0008	/* memcg (limit) reclaim */
#define RR_DP_RETRY		0x0010	/* asked again after a retry batch */
#define RR_DP_NODE_SAMPLED	0x0020	/* node figures come from counter samples */
#define RR_DP_FIRST_NODE	0x0040	/* the first node of the zonelist (task's own node) */
#define RR_DP_LEGACY_EVENT	0x0080	/* recorded as writeback_congestion_wait or
					 * writeback_wait_iff_congested (kernel <= 5.15) */

struct rr_decision_point {
	uint32_t size;			/* sizeof(struct rr_decision_point) of the engine */
	uint32_t reason;		/* RR_POLICY_REASON_* the site would use */
	uint32_t site;			/* enum rr_site */
	uint32_t flags;			/* RR_DP_* */
	int32_t nid;
	uint32_t pid;
	uint64_t now_ns;		/* on the trace clock */
	uint32_t hz;			/* the recording's HZ */
	int32_t priority;		/* reclaim priority of the pass, -1 if unknown */

	/* At observed points: what the recorded kernel did. */
	uint64_t recorded_timeout_ns;
	uint64_t recorded_delayed_ns;

	/* The batch that led here and the task's episode so far. */
	uint32_t batch_scanned, batch_reclaimed;
	uint32_t batch_dirty, batch_congested, batch_writeback, batch_immediate;
	uint64_t episode_scanned, episode_reclaimed;

	/* Node state at now_ns: sampled, or reconstructed (0 = unknown). */
	uint64_t node_isolated, node_inactive;
	uint64_t node_write_pending, node_reclaimable;
	uint32_t node_efficiency_ppm;	/* reclaimed/scanned recently, parts per million */
	uint32_t waiters[4];		/* simulated waiters per reason on the node */
	uint64_t device_inflight;	/* block requests in flight, all devices */

	/*
	 * Appended in ABI v1 (present when size > offsetof(..., task_episodes)):
	 * the task's own reclaim demand as the recording shows it up to this
	 * point's recorded time. Recorded figures: the same under every
	 * policy and at every retry of one point. 0 = none or unknown.
	 */
	uint32_t task_episodes;		/* reclaim episodes begun, this one included */
	uint32_t task_batches;		/* shrink_inactive batches ended */
	uint64_t task_scanned, task_reclaimed;	/* pages, over those batches */
	uint64_t task_reclaim_ns;	/* time inside its episodes (the open one so far) */
	uint64_t task_lifetime_ns;	/* from the task's first event in the trace */
	uint32_t task_throttles;	/* recorded throttle sleeps ended */
	uint32_t trace_tasks;		/* non-kswapd tasks that began an episode so far */
	uint64_t task_throttled_ns;	/* their recorded length */
	uint64_t trace_reclaimed;	/* pages reclaimed by those tasks so far */
	uint64_t trace_elapsed_ns;	/* from the trace's first event */
	uint64_t trace_episodes;	/* episodes those tasks began so far */
	uint64_t trace_task_ns;		/* their lifetimes (to their last event), summed */
};

/* How a sleep ends early; the engine evaluates it. */
enum rr_wake {
	RR_WAKE_TIMEOUT_ONLY,	/* sleeps the whole timeout */
	RR_WAKE_WRITEBACK,	/* pages written since the first waiter > pages_per_waiter x waiters */
	RR_WAKE_ISOLATED,	/* another reclaimer on the node passes the isolation check */
	RR_WAKE_PROGRESS,	/* a direct reclaimer on the node reaches wake_efficiency */
	RR_WAKE_UNCONGESTED,	/* legacy: device in-flight requests fall below a threshold */
	RR_WAKE_RECORDED,	/* exactly the recorded wake (the `recorded` policy) */
};

struct rr_verdict {
	uint32_t sleep;			/* 0: no sleep; the rest is ignored */
	uint32_t wake;			/* enum rr_wake */
	uint64_t timeout_ns;
	uint64_t extra_ns;		/* added after the wake (rescheduling delay) */
	uint32_t pages_per_waiter;	/* RR_WAKE_WRITEBACK */
	uint32_t wake_efficiency_ppm;	/* RR_WAKE_PROGRESS */
	uint32_t congestion_on, congestion_off;	/* RR_WAKE_UNCONGESTED: in-flight thresholds */
	uint32_t counted_as;		/* 0: under the point's reason; else RR_POLICY_REASON_* + 1 */
	/*
	 * Optional (appended in ABI 1): the changing fields of the point this
	 * verdict read, as RR_IN_* bits with RR_IN_DECLARED set. A task released
	 * early retries every few microseconds; with a declaration the engine
	 * reuses a "no sleep" verdict at the retries of the same point until
	 * one of the declared inputs changes instead of asking again, which
	 * gives the same figures much faster. 0 (the default): ask every time.
	 * The point's other fields (reason, site, flags but RR_DP_NODE_SAMPLED,
	 * nid, pid, hz, priority, recorded_*, batch_*) are the same at every
	 * retry and need no declaration.
	 */
	uint32_t inputs;
};

/* struct rr_verdict.inputs */
#define RR_IN_DECLARED		0x01	/* the bits below are complete */
#define RR_IN_NOW		0x02	/* now_ns */
#define RR_IN_EPISODE		0x04	/* episode_scanned, episode_reclaimed */
#define RR_IN_NODE_SAMPLE	0x08	/* node_isolated .. node_reclaimable, RR_DP_NODE_SAMPLED */
#define RR_IN_EFFICIENCY	0x10	/* node_efficiency_ppm */
#define RR_IN_WAITERS		0x20	/* waiters[] */
#define RR_IN_INFLIGHT		0x40	/* device_inflight */

struct rr_policy_env {
	uint32_t size;
	uint32_t hz;
	uint32_t nr_nodes;
	uint32_t flags;			/* RR_ENV_* */
	const char *const *settings;	/* "key=value" from --set, in order */
	uint32_t nr_settings;
};
#define RR_ENV_LEGACY_TRACE	0x1	/* recorded by a kernel with congestion_wait events */

struct rr_policy_ops {
	uint32_t abi_version;		/* RR_POLICY_ABI_VERSION */
	uint32_t size;			/* sizeof(struct rr_policy_ops) */
	const char *name;
	const char *summary;
	/* optional: parse settings; keep private state in *priv. 0 or -errno. */
	int (*init)(const struct rr_policy_env *env, void **priv);
	/* required: fill @out for @dp. Return 0, or -errno to abort the replay. */
	int (*decide)(void *priv, const struct rr_decision_point *dp, struct rr_verdict *out);
	/* optional: free *priv */
	void (*cleanup)(void *priv);

	/*
	 * Appended in ABI v1; read only when size covers them (a plugin built
	 * against an older header has a smaller size and none of them). The
	 * loader refuses a size larger than its own, and struct rr_verdict,
	 * which the plugin writes, has no size: so whenever rr_verdict grows,
	 * this struct must grow too.
	 */
	const char *help;			/* optional: a paragraph for `policies` */
	const struct rr_policy_option *options;	/* optional: ends with a NULL key */
};

/* One --set option of a policy, for `reclaim-replay policies`. */
struct rr_policy_option {
	const char *key;	/* "writeback.timeout"; NULL ends the array */
	const char *type;	/* "duration", "ratio", "count" or a free hint ("0|1") */
	const char *def;	/* default value as text, or NULL */
	const char *help;	/* one line */
};

/*
 * A plugin is a shared object that exports this function
 * (RR_POLICY_PLUGIN_ENTRY); the loader calls it once after dlopen and
 * checks abi_version and size of what it returns (docs/plugins.md).
 */
#define RR_POLICY_PLUGIN_ENTRY "rr_policy_plugin_entry"
const struct rr_policy_ops *rr_policy_plugin_entry(void);

#endif
