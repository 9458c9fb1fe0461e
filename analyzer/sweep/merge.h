/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `merge REPORTS...`: the --json reports of per-trace runs (a fleet, one
 * trace per job) read back and aggregated as one run over every trace
 * would have been (docs/sweep.md, "Fleets").
 */
#ifndef RR_SWEEP_MERGE_H
#define RR_SWEEP_MERGE_H

#include <jansson.h>

#include "sweep/sweep.h"

/* A figure's spread over the traces (each trace's sum over its nodes). */
struct rr_merge_dist {
	uint64_t min, p50, p90, max;
	double mean;
};

struct rr_merge_policy {
	char label[64];
	struct rr_sweep_fig total;		/* every node of every trace */
	struct rr_sweep_fig *per_node;		/* [nr_nids], summed over traces */
	struct rr_sweep_fig *per_trace;		/* [nr_traces], summed over nodes */
	struct rr_merge_dist stall, p99, wasted;	/* over traces */
};

struct rr_merge_replay {
	int nr_traces;
	char **trace;			/* paths, in report then input order */
	int nr_nids;
	int nids[64];
	int nr_policies;
	struct rr_merge_policy *pol;	/* in the first report's order */
};

/*
 * Add one parsed report. @first: the first report (it fixes what the others
 * must match). Returns 0, or RR_EXIT_BAD_INPUT after saying why (naming @path).
 */
int rr_merge_replay_add(struct rr_merge_replay *m, int first, const char *path, json_t *doc);
/* The distributions over traces, once every report is in; 0 or -ENOMEM. */
int rr_merge_replay_finish(struct rr_merge_replay *m);
void rr_merge_replay_release(struct rr_merge_replay *m);

/*
 * A `sweep` report (or a merged one) into @d, in two passes: _add for every
 * report (@first, the first report's document, fixes the spec; the others
 * must match it) adds the traces; then rr_sweep_data_alloc(); then _fill for
 * every report in the same order, @trace counting the traces filled so far.
 * 0, or RR_EXIT_BAD_INPUT after saying why.
 */
int rr_merge_sweep_add(struct rr_sweep_data *d, json_t *first, const char *path, json_t *doc);
int rr_merge_sweep_fill(struct rr_sweep_data *d, int *trace, const char *path, json_t *doc);

/* The reports' results[0] object of the given scope, or NULL. */
json_t *rr_merge_result(json_t *doc, const char *scope);

#endif
