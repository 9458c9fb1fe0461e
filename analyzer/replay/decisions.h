/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision points: the moments kernel code would consider throttling.
 * Observed ones are the recorded throttles; latent ones are found in the
 * batches where some policy could throttle although the recorded kernel
 * did not. Built once per model and shared by every policy's replay.
 */
#ifndef RR_REPLAY_DECISIONS_H
#define RR_REPLAY_DECISIONS_H

#include <stdint.h>

#include "reclaim_replay/model.h"
#include "reclaim_replay/policy.h"

struct rr_dpoint {
	uint64_t start;		/* recorded sleep start (latent: the batch's end) */
	uint64_t end;		/* recorded resume (latent: == start) */
	uint32_t task;
	uint32_t throttle;	/* index in model->throttles, RR_NONE when latent */
	uint32_t batch;		/* the batch before it, RR_NONE if unknown */
	uint32_t episode;	/* RR_NONE outside an episode */
	int16_t nid;
	uint8_t reason;		/* RR_POLICY_REASON_* */
	uint8_t site;		/* enum rr_site */
	uint32_t flags;		/* RR_DP_* */
	uint64_t recorded_timeout_ns, recorded_delayed_ns;
	/*
	 * What a replay reads of the batch and the task at each ask, copied
	 * here once (the batch's shrink event is a cache miss away): the
	 * fields of the same names in struct rr_decision_point. priority -1
	 * and the rest 0 unless the batch ended in a shrink_inactive.
	 */
	int32_t priority;
	uint32_t pid;
	uint32_t batch_scanned, batch_reclaimed;
	uint32_t batch_dirty, batch_congested, batch_writeback, batch_immediate;
};

/* A task's timeline as the replay walks it. */
/* At equal times items run in this order: a sleep starts after the event
 * before it, which may be an episode's end. */
enum rr_item_kind {
	RR_ITEM_EPISODE_BEGIN,
	RR_ITEM_BATCH,
	RR_ITEM_EPISODE_END,
	RR_ITEM_DECISION,
};

struct rr_item {
	uint64_t ts;
	uint32_t index;		/* episode, batch or decision index */
	uint8_t kind;
};

struct rr_decisions {
	struct rr_dpoint *points;
	uint32_t nr_points;
	uint32_t nr_observed, nr_latent;
	struct rr_item *items;	/* grouped per task, each group in time order */
	uint32_t *task_off;	/* items of task k: items[task_off[k] .. task_off[k+1]) */
	uint32_t nr_tasks;
};

int rr_decisions_build(const struct rr_model *m, struct rr_decisions *d);
void rr_decisions_release(struct rr_decisions *d);

#endif
