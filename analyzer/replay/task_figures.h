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

/*
 * rr_task_figures_fill - fill the task figures of @dp for point @p of @m
 *
 * Per-task prefix sums are built on a thread's first call for a model and
 * kept until that thread names another model or ends (each thread has its
 * own, so parallel replays need no lock). Out of memory leaves the figures
 * at 0, "unknown".
 */
void rr_task_figures_fill(const struct rr_model *m, const struct rr_dpoint *p,
			  struct rr_decision_point *dp);

#endif
