/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine: drive one policy over a decoded model and estimate,
 * per node, the stall time and the wasted scanning it would cause
 * (docs/model.md). Policies are reached only through policy.h.
 */
#ifndef RECLAIM_REPLAY_REPLAY_H
#define RECLAIM_REPLAY_REPLAY_H

#include <stdint.h>

#include "reclaim_replay/model.h"
#include "reclaim_replay/policy.h"
#include "reclaim_replay/stats.h"

/* Node state curves, built once per model and shared by every replay. */
struct rr_curves;

int rr_curves_build(const struct rr_model *m, struct rr_curves **out);
void rr_curves_free(struct rr_curves *c);
/* 1 when the node curves come from counter samples, 0 when reconstructed */
int rr_curves_sampled(const struct rr_curves *c);

struct rr_sleep_stats {
	uint64_t count;
	uint64_t sleep_ns;
	uint64_t woken;		/* ended by a wake condition before the timeout */
	uint64_t timed_out;
};

/* What one policy did on one node. */
struct rr_replay_node {
	int nid;
	struct rr_dist stall;		/* direct + memcg + node episodes */
	uint64_t stall_ns;
	struct rr_sleep_stats sleeps[RR_NR_REASONS];	/* tasks' throttles */
	struct rr_sleep_stats kswapd_sleeps[RR_NR_REASONS];
	uint64_t scanned, reclaimed, wasted;
	uint64_t batches, unproductive_batches;
	uint64_t retry_batches;		/* run while released before the recorded resume */
	uint64_t late_batches;		/* recorded batches run later and rescaled up */
	uint64_t late_extra_reclaimed;	/* pages those reclaimed beyond their recorded ones */
	uint64_t decisions_observed, decisions_latent;
};

/* Each observed throttle's replayed sleep, for the fidelity check. */
struct rr_replayed_throttle {
	uint32_t throttle;	/* index in model->throttles */
	uint64_t sleep_ns;	/* 0 when the policy did not sleep */
	uint64_t timeout_ns;
	uint64_t extra_ns;	/* rescheduling delay the policy added */
	uint8_t slept;
	uint8_t timed_out;
};

/* A policy's label: its name and settings ("parametric:writeback.timeout=50ms") */
#define RR_POLICY_LABEL_MAX 128

struct rr_replay_result {
	char policy[RR_POLICY_LABEL_MAX];
	int nr_nodes;
	struct rr_replay_node *nodes;
	struct rr_replayed_throttle *observed;	/* one per model throttle */
	uint32_t nr_observed;
	int sampled;		/* node curves from counter samples */
	uint32_t hz;
};

struct rr_policy_instance {
	const struct rr_policy_ops *ops;
	void *priv;
	char label[RR_POLICY_LABEL_MAX];	/* name, plus its settings */
};

/**
 * rr_replay - replay @m under @pol
 * @m:      the decoded model
 * @curves: from rr_curves_build(@m)
 * @pol:    an initialized policy
 * @out:    filled; release with rr_replay_result_release()
 *
 * Returns 0 or -errno (policy failure or out of memory).
 */
int rr_replay(const struct rr_model *m, const struct rr_curves *curves,
	      const struct rr_policy_instance *pol, struct rr_replay_result *out);

/*
 * rr_replay_pinned - predict each recorded throttle from the recorded state
 *
 * Like rr_replay(), but every task resumes at its recorded time after each
 * sleep, whatever the policy decided: no retries, no time shift. Each
 * observed throttle is then predicted from the state the recording had,
 * which is what the fidelity check measures (docs/model.md).
 */
int rr_replay_pinned(const struct rr_model *m, const struct rr_curves *curves,
		     const struct rr_policy_instance *pol, struct rr_replay_result *out);
void rr_replay_result_release(struct rr_replay_result *r);

/*
 * What a replay did, slice by slice, on each task's replayed clock: for
 * timeline export. The engine calls the observer as each slice closes, so
 * slices of one task arrive in order of their end; a throttle sleep lies
 * inside its episode.
 */
enum rr_span_kind {
	RR_SPAN_EPISODE,	/* ctx: the episode's RR_CTX_* */
	RR_SPAN_THROTTLE,	/* ctx: the RR_POLICY_REASON_* it is counted under */
	RR_SPAN_RETRY,		/* retry batches run while released before the recorded resume */
};
#define RR_SPAN_OPEN		0x01	/* episode open at a trace edge or cut by a loss */
#define RR_SPAN_TIMED_OUT	0x02	/* throttle: slept its whole timeout */
#define RR_SPAN_RECORDED	0x04	/* throttle: at an observed point (else latent) */

struct rr_replay_span {
	uint8_t kind;		/* enum rr_span_kind */
	uint8_t ctx;
	uint8_t flags;		/* RR_SPAN_* */
	int32_t nid;
	uint32_t task;		/* index in trace->tasks */
	uint32_t index;		/* episode or model throttle index, RR_NONE if none */
	uint64_t begin_ns, end_ns;	/* replayed, on the trace clock */
	uint64_t timeout_ns;	/* throttle: the policy's timeout */
	uint64_t batches;	/* retry: how many batches */
};

struct rr_replay_observer {
	/* return 0, or -errno to abort the replay */
	int (*span)(void *data, const struct rr_replay_span *s);
	void *data;
};

/* rr_replay() that also reports every slice to @obs (NULL: like rr_replay). */
int rr_replay_observed(const struct rr_model *m, const struct rr_curves *curves,
		       const struct rr_policy_instance *pol, const struct rr_replay_observer *obs,
		       struct rr_replay_result *out);

/* The trace's HZ: rr-meta, else inferred from throttle timeouts, else 250. */
uint32_t rr_model_hz(const struct rr_model *m, int *inferred);

/* Built-in policies. */
const struct rr_policy_ops *rr_policy_find(const char *name);
void rr_policy_list(void (*fn)(const struct rr_policy_ops *ops, void *data), void *data);

/*
 * rr_policy_open - find and initialize a policy
 * @name:     a built-in name
 * @settings: "key=value" strings (--set), may be NULL
 * Returns 0, or an RR_EXIT_* code after printing why.
 */
int rr_policy_open(const char *name, const char *const *settings, uint32_t nr_settings,
		   const struct rr_model *m, struct rr_policy_instance *out);
void rr_policy_close(struct rr_policy_instance *p);

/* Duration "50ms", "2j", "1.5s"...: 0 and *ns set, or -1. */
int rr_parse_duration(const char *s, uint32_t hz, uint64_t *ns);

#endif
