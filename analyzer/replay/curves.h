/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Node state curves (exogenous: replaying a policy does not move them),
 * built from every actor in the trace: written pages W(t), reclaim
 * efficiency E(t), the moments other reclaimers pass the isolation check
 * or make progress, block-device requests in flight, and sampled counters.
 */
#ifndef RR_REPLAY_CURVES_H
#define RR_REPLAY_CURVES_H

#include <stdint.h>

#include "decisions.h"
#include "task_figures.h"
#include "reclaim_replay/replay.h"

struct rr_point {
	uint64_t ts;
	uint64_t v;
	uint8_t ramp;	/* rises linearly from the previous point (no finer timing) */
};

/* A moment another task could wake a waiter, and which task it was. */
struct rr_wake_source {
	uint64_t ts;
	uint32_t task;
	uint32_t scanned, reclaimed;	/* for progress: the batch's outcome */
};

struct rr_node_curves {
	struct rr_point *written;	/* cumulative pages written back */
	size_t nr_written;
	int written_monotone;	/* no point below the one before (a sample may go down) */

	struct rr_wake_source *isolation_pass;	/* too_many_isolated() came out false */
	size_t nr_isolation_pass;
	struct rr_wake_source *direct_batches;	/* progress wake candidates */
	size_t nr_direct_batches;

	struct rr_point *cum_scanned, *cum_reclaimed;	/* per shrink_inactive on the node */
	size_t nr_cum;

	const struct rr_counter_sample **samples;	/* this node's samples, by time */
	size_t nr_samples;

	uint32_t *eff_tree;	/* max segment tree of the efficiency at each cum point */
	/*
	 * The same leaves for O(1) span maxima (late batches): in blocks of
	 * RR_EFF_BLOCK leaves, the max from each leaf's block start to it
	 * (eff_pre) and from it to its block end (eff_suf), and a sparse
	 * table of block maxima: eff_sparse[k * eff_blocks + j] is the max of
	 * blocks j .. j + 2^k - 1.
	 */
	uint32_t *eff_pre, *eff_suf, *eff_sparse;
	size_t eff_blocks;
	uint32_t *progress_tree;	/* max segment tree of direct batches' efficiency */
	size_t progress_size;		/* its leaves (a power of two) */
};

/*
 * What a replay reads of each model batch, in one place: walking a batch
 * otherwise loads the batch, its shrink event and its isolate event, three
 * cache misses apart in the event array (docs/performance.md).
 */
struct rr_batch_brief {
	/* isolate to shrink, 0 without an isolate; saturated at UINT32_MAX,
	 * which changes nothing: the engine uses min(work, MAX_BATCH_NS) */
	uint32_t work_ns;
	uint32_t scanned, reclaimed;	/* the shrink_inactive's; 0 otherwise */
	uint32_t episode;	/* the batch's */
	/* inactive: the first cumulative point of node nid (0 when nid is out
	 * of range) after the shrink, where a late batch's span begins */
	uint32_t cum_after;
	/* rec_on_point: the shrink is the node's cumulative point cum_after - 1;
	 * then rec_eff_ppm is the efficiency there (its leaf in eff_tree) and
	 * better_at the first point from cum_after on whose efficiency exceeds
	 * it (nr_cum if none): a late batch replayed before that point's time
	 * keeps its outcome without a search (late_batches.c) */
	uint32_t rec_eff_ppm;
	uint32_t better_at;
	int16_t nid;		/* the batch's, as recorded */
	uint8_t inactive;	/* closed by mm_vmscan_lru_shrink_inactive */
	uint8_t rec_on_point;
};

struct rr_curves {
	int nr_nodes;
	struct rr_node_curves *node;
	struct rr_point *inflight;	/* block requests in flight after each issue/complete */
	size_t nr_inflight;
	int sampled;
	int page_size;
	uint32_t hz;	/* rr_model_hz() of the model, which walks every throttle */
	/* The model's decision points and task timelines: they depend on the
	 * model only, so they are built here once and shared by every replay. */
	struct rr_decisions decisions;
	int have_decisions;
	/* each decision point's task figures (task_figures.c), same order */
	struct rr_task_figures *figures;
	/* one per model batch (same index); filled for batches with a shrink */
	struct rr_batch_brief *briefs;
};

/* The decision points of the model the curves were built from. */
const struct rr_decisions *rr_curves_decisions(const struct rr_curves *c);

uint64_t rr_curve_written_at(const struct rr_node_curves *n, uint64_t t);
/* First time >= @from when W(t) > @target; UINT64_MAX when never. */
uint64_t rr_curve_written_exceeds(const struct rr_node_curves *n, uint64_t from, uint64_t target);
/* The same, the search of @t or @from starting at *@hint (see below). */
uint64_t rr_curve_written_at_hinted(const struct rr_node_curves *n, uint64_t t, size_t *hint);
uint64_t rr_curve_written_exceeds_hinted(const struct rr_node_curves *n, uint64_t from,
					 uint64_t target, size_t *hint);
/* The same for the target *@base + @pages, or W(@from) + @pages when @base is
 * NULL: one search of @from for both. */
uint64_t rr_curve_written_exceeds_by_hinted(const struct rr_node_curves *n, uint64_t from,
					    const uint64_t *base, uint64_t pages, size_t *hint);
/* Index of the first of @n points (in time order) with ts > @t, searched from
 * *@hint, the answer of the caller's previous lookup, which it updates. */
size_t rr_points_first_after(const struct rr_point *p, size_t n, uint64_t t, size_t *hint);
/* First isolation-check pass on the node after @from by a task other than @task. */
uint64_t rr_curve_next_isolation_pass(const struct rr_node_curves *n, uint64_t from, uint32_t task);
/* First direct-reclaim batch after @from by another task with efficiency > @ppm. */
uint64_t rr_curve_next_progress(const struct rr_node_curves *n, uint64_t from, uint32_t task,
				uint32_t ppm);
/* Reclaimed / scanned on the node around @t, in ppm; -1 when nothing was scanned. */
int64_t rr_curve_efficiency_ppm(const struct rr_node_curves *n, uint64_t t);
/* Block requests in flight at @t, and the first completion after @from that
 * leaves fewer than @below in flight (UINT64_MAX: never). */
uint64_t rr_curve_inflight_at(const struct rr_curves *c, uint64_t t);
uint64_t rr_curve_uncongested_after(const struct rr_curves *c, uint64_t from, uint64_t below);
/* When the node's sample, or the in-flight count, next changes after @t
 * (UINT64_MAX: never): how long a verdict that read them stays valid. */
uint64_t rr_curve_next_sample_after(const struct rr_node_curves *n, uint64_t t);
uint64_t rr_curve_next_inflight_after(const struct rr_curves *c, uint64_t t);
/* The node's latest counter sample at or before @t, or NULL. */
const struct rr_counter_sample *rr_curve_sample_at(const struct rr_node_curves *n, uint64_t t);

/* late_batches.c: the best efficiency over a span, and a late batch's outcome */
int rr_curve_build_best_efficiency(struct rr_node_curves *n);
uint32_t rr_curve_best_efficiency_ppm(const struct rr_node_curves *n, uint64_t from, uint64_t to);
int rr_curve_build_progress_index(struct rr_node_curves *n);
/* Index of the first direct batch at or after @start above @ppm, else nr_direct_batches. */
size_t rr_curve_next_batch_above(const struct rr_node_curves *n, size_t start, uint32_t ppm);

/*
 * The same lookups for a caller that asks in nearly increasing time (a
 * replay): each starts where the previous one on the same node ended.
 * One struct per node per caller, zeroed at first; the curves stay const,
 * so concurrent replays each keep their own.
 */
#define RR_EFFICIENCY_WINDOWS 4	/* 100, 200, 400, 800 ms (curves.c) */
struct rr_curve_hints {
	size_t cum_hi, cum_lo[RR_EFFICIENCY_WINDOWS], sample;	/* one per efficiency window */
	size_t written;			/* W(t) lookups (WRITEBACK waiters) */
	size_t late_from, late_to;	/* late batches: recorded and replayed time */
	size_t isolation, direct;	/* ISOLATED and progress wakes */
};
int64_t rr_curve_efficiency_ppm_hinted(const struct rr_node_curves *n, uint64_t t,
				       struct rr_curve_hints *h);
const struct rr_counter_sample *rr_curve_sample_at_hinted(const struct rr_node_curves *n,
							  uint64_t t, struct rr_curve_hints *h);
uint64_t rr_curve_inflight_at_hinted(const struct rr_curves *c, uint64_t t, size_t *hint);
uint64_t rr_curve_next_isolation_pass_hinted(const struct rr_node_curves *n, uint64_t from,
					     uint32_t task, struct rr_curve_hints *h);
uint64_t rr_curve_next_progress_hinted(const struct rr_node_curves *n, uint64_t from,
				       uint32_t task, uint32_t ppm, struct rr_curve_hints *h);
uint64_t rr_curve_next_sample_after_hinted(const struct rr_node_curves *n, uint64_t t,
					   struct rr_curve_hints *h);
uint64_t rr_curve_next_inflight_after_hinted(const struct rr_curves *c, uint64_t t, size_t *hint);

/* late_batches.c: the reclaimed pages of a batch recorded at @recorded_ts that
 * runs at @replayed_ts; @h: the caller's hints for this node, or NULL */
uint64_t rr_late_batch_reclaimed(const struct rr_node_curves *n, uint64_t recorded_ts,
				 uint64_t replayed_ts, uint64_t scanned, uint64_t reclaimed,
				 struct rr_curve_hints *h);
/* The same when the caller knows, with hints @h, the index of the node's first
 * cumulative point after @recorded_ts (struct rr_batch_brief.cum_after);
 * SIZE_MAX: search it */
uint64_t rr_late_batch_reclaimed_from(const struct rr_node_curves *n, uint64_t recorded_ts,
				      uint64_t replayed_ts, uint64_t scanned, uint64_t reclaimed,
				      struct rr_curve_hints *h, size_t rec_after);
/* The same for the batch of brief @b (recorded at @recorded_ts, its shrink):
 * the brief's precomputed fields spare most searches. */
uint64_t rr_late_batch_reclaimed_brief(const struct rr_node_curves *n,
				       const struct rr_batch_brief *b, uint64_t recorded_ts,
				       uint64_t replayed_ts, struct rr_curve_hints *h);
/* For each cumulative point i of @n, the first j > i whose efficiency leaf
 * exceeds i's (nr_cum if none); malloc()ed, NULL on failure or no points. */
uint32_t *rr_curve_next_better_points(const struct rr_node_curves *n);

#endif
