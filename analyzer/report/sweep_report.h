/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writers of `sweep` and `merge`: they render what analyzer/sweep computed
 * (struct rr_sweep_analysis, struct rr_merge_replay) and compute nothing
 * themselves (docs/sweep.md, docs/report-schema.md "sweep" and "merge").
 */
#ifndef RR_REPORT_SWEEP_H
#define RR_REPORT_SWEEP_H

#include <stdio.h>

#include "sweep/merge.h"
#include "sweep/sweep.h"

#define RR_SWEEP_TABLE_WIDTH 100

/* results[0] of a sweep report; @input0 is the index of d->trace[0] in inputs[]. */
json_t *rr_sweep_json(const struct rr_sweep_data *d, const struct rr_sweep_analysis *a);
/* @all: every point, else the Pareto front, mainline and the recommendation. */
void rr_sweep_print_table(FILE *out, const struct rr_sweep_data *d,
			  const struct rr_sweep_analysis *a, int all, int color);
/* One row per point and scope (totals, node, trace); 0 or -1 on a write error. */
int rr_sweep_write_csv(FILE *out, const struct rr_sweep_data *d,
		       const struct rr_sweep_analysis *a);
/* The trade-off plot; 0, or -1 (errno set) when it could not be written. */
int rr_sweep_write_svg(const char *path, const struct rr_sweep_data *d,
		       const struct rr_sweep_analysis *a);

/* merge of replay reports */
json_t *rr_merge_replay_json(const struct rr_merge_replay *m);
void rr_merge_replay_print(FILE *out, const struct rr_merge_replay *m, int color);

#endif
