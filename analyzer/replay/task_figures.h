/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task figures of a decision point (struct rr_decision_point,
 * task_* and trace_* fields): each task's reclaim demand as the recording
 * shows it up to the point's recorded time, for policies that weigh tasks
 * by how much they allocate (plugins/alloc_rate.c).
 */
#ifndef RR_REPLAY_TASK_FIGURES_H
#define RR_REPLAY_TASK_FIGURES_H

#include "decisions.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/policy.h"

/* A decision point's task figures: the fields of the same names in
 * struct rr_decision_point. They depend on the point's recorded time only. */
struct rr_task_figures {
	uint32_t task_episodes, task_batches, task_throttles, trace_tasks;
	uint64_t task_scanned, task_reclaimed, task_reclaim_ns, task_lifetime_ns;
	uint64_t task_throttled_ns, trace_reclaimed, trace_elapsed_ns, trace_episodes;
	uint64_t trace_task_ns;
};

/*
 * rr_task_figures_build - the figures of every decision point of @d
 * @out: one per point, in @d's order; free() it
 *
 * Built once per model with the curves (rr_curves_build) and read by every
 * replay, so concurrent replays share them. Returns 0 or -ENOMEM.
 */
int rr_task_figures_build(const struct rr_model *m, const struct rr_decisions *d,
			  struct rr_task_figures **out);
/* Copy @f into the task and trace figures of @dp. */
void rr_task_figures_fill(const struct rr_task_figures *f, struct rr_decision_point *dp);

#endif
