/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `compare` results: per node, the replayed figures of several policies side
 * by side, with the difference of each to the first (the baseline), per
 * trace and summed over traces. The JSON and the table come from the same
 * figures (docs/report-schema.md, "compare").
 */
#ifndef RR_REPORT_COMPARE_H
#define RR_REPORT_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "reclaim_replay/replay.h"
#include "reclaim_replay/report.h"

/* A policy as the command line named it; the label comes from the result. */
struct rr_compare_policy {
	const char *name;
	const char *const *settings;
	uint32_t nr_settings;
};

/* One policy's figures on one node, or summed over nodes. */
struct rr_compare_fig {
	uint64_t stall_ns;
	uint64_t p99_ns;	/* totals: the largest per-node p99 */
	uint64_t episodes;	/* completed stall episodes */
	uint64_t sleep_ns, sleeps;	/* tasks' throttle sleeps, every reason */
	uint64_t scanned, reclaimed, wasted;
};

/* Sums over every node of every trace, one entry per policy. */
struct rr_compare_totals {
	int nr_policies;
	struct rr_compare_fig *fig;
	char (*label)[RR_POLICY_LABEL_MAX];
	int nr_inputs, nr_nodes;
};

/* Table options: the width to stay within, and colour. */
struct rr_compare_layout {
	int width;
	int color;
};

#define RR_COMPARE_DEFAULT_WIDTH 100
#define RR_COMPARE_MIN_WIDTH 52	/* the label column and two policy columns */

void rr_compare_fig_from_node(struct rr_compare_fig *f, const struct rr_replay_node *n);

int rr_compare_totals_init(struct rr_compare_totals *t, int nr_policies);
/* Add every node of one trace's results (@r[0 .. nr_policies)). */
void rr_compare_totals_add(struct rr_compare_totals *t, const struct rr_replay_result *r);
void rr_compare_totals_release(struct rr_compare_totals *t);

json_t *rr_compare_trace_json(const struct rr_replay_result *r, int nr,
			      const struct rr_compare_policy *pol, const struct rr_input *in,
			      int input);
json_t *rr_compare_totals_json(const struct rr_compare_totals *t,
			       const struct rr_compare_policy *pol);

void rr_compare_print_trace(FILE *out, const struct rr_replay_result *r, int nr,
			    const struct rr_compare_policy *pol, const struct rr_input *in,
			    const struct rr_compare_layout *lay);
void rr_compare_print_totals(FILE *out, const struct rr_compare_totals *t,
			     const struct rr_compare_policy *pol,
			     const struct rr_compare_layout *lay);
/* Warnings wrapped to the layout's width, so the whole output stays within it. */
void rr_compare_print_warnings(FILE *out, const struct rr_warnings *w,
			       const struct rr_compare_layout *lay);

#endif
