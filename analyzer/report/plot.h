/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `--plot FILE.svg` for replay and compare: per input, two grouped bar charts
 * (stall time and wasted scanning per node, one bar per policy) and, per
 * node, the cumulative stall over time with one line per policy. The bars
 * come from the same result structs as the table and the JSON; the curves
 * from the replay's episode slices (rr_replay_observed()).
 *
 *	p = rr_plot_open(f, "title", inputs, nr_inputs, nr_policies);
 *	for each input i:
 *		for each policy k: rr_plot_policy_begin(p, k); replay with
 *			observer { rr_plot_span, p };
 *		rr_plot_input(p, results, nr_policies, &inputs[i]);
 *	rr_plot_close(p);
 */
#ifndef RR_REPORT_PLOT_H
#define RR_REPORT_PLOT_H

#include <stdio.h>

#include "reclaim_replay/replay.h"
#include "reclaim_replay/report.h"

struct rr_plot;

/* NULL on out of memory. The inputs fix the document's height up front. */
struct rr_plot *rr_plot_open(FILE *f, const char *title, const struct rr_input *inputs,
			     int nr_inputs, int nr_policies);
/* The slices that follow belong to policy @k (0-based, as in the results). */
void rr_plot_policy_begin(struct rr_plot *p, int k);
/* An rr_replay_observer span callback; @data is the struct rr_plot. */
int rr_plot_span(void *data, const struct rr_replay_span *s);
/* Draw one input's block from @res[0 .. nr) and the slices collected. 0 or -ENOMEM. */
int rr_plot_input(struct rr_plot *p, const struct rr_replay_result *res, int nr,
		  const struct rr_input *in);
/* Close the document, free @p. 0, or -1 when a write failed. */
int rr_plot_close(struct rr_plot *p);

#endif
