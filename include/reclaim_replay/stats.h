/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `reclaim-replay stats` reports: per-node figures of what reclaim did
 * in a recording, computed from the model. Both the table and the JSON
 * writer render this one struct.
 */
#ifndef RECLAIM_REPLAY_STATS_H
#define RECLAIM_REPLAY_STATS_H

#include <stdint.h>
#include "reclaim_replay/model.h"

/* Distribution of durations (ns) over completed items. */
struct rr_dist {
	uint64_t count;		/* completed (begin and end seen) */
	uint64_t total_ns;
	uint64_t p50_ns, p90_ns, p99_ns, max_ns;
};

struct rr_episode_stats {
	uint64_t begun;		/* begin events seen */
	uint64_t open;		/* begin or end outside the trace */
	uint64_t cut_by_loss;	/* not paired: a loss may have cut it */
	struct rr_dist dur;	/* completed episodes */
};

struct rr_reason_stats {
	uint64_t count;
	uint64_t delayed_us;	/* sum of usec_delayed */
	uint64_t timeout_us_sum;
	uint64_t woken_early;	/* usec_delayed < usec_timeout */
	uint64_t timed_out;	/* usec_delayed >= usec_timeout */
	uint32_t timeout_us_min, timeout_us_max;
	uint32_t delayed_us_max;
};

/*
 * Efficiency at or below 1/8 is the kernel's own "no progress" line; a batch
 * that scanned 0 pages is not counted unproductive.
 */
#define RR_UNPRODUCTIVE_NUM 1
#define RR_UNPRODUCTIVE_DEN 8

struct rr_node_stats {
	int nid;
	struct rr_episode_stats episodes[RR_NR_EPISODE_KINDS];
	uint64_t stall_ns;		/* completed direct + memcg + node episodes */
	uint64_t kswapd_active_ns;	/* wake-to-sleep spans, open ones to the trace edge */

	uint64_t scanned, reclaimed;	/* shrink_inactive sums */
	uint64_t wasted;		/* scanned - reclaimed */
	uint64_t batches, unproductive_batches;
	uint64_t scanned_by_ctx[RR_NR_CONTEXTS], reclaimed_by_ctx[RR_NR_CONTEXTS];
	uint64_t active_taken;		/* shrink_active nr_taken */

	/* Tasks' throttles (user stall) and kswapd's own, apart. */
	struct rr_reason_stats throttles[RR_NR_REASONS];
	struct rr_reason_stats kswapd_throttles[RR_NR_REASONS];

	uint64_t isolated_peak_anon, isolated_peak_file;	/* from open batches */
	uint64_t sampled_isolated_max_anon, sampled_isolated_max_file;
	uint64_t samples;
	uint64_t pages_written_by_reclaim;	/* write_folio / writepage events */
};

struct rr_task_stall {
	uint32_t pid;
	char comm[16];
	uint64_t stall_ns;
	uint64_t throttle_ns;
	uint64_t episodes;
	int16_t nid;		/* node where most of its stall happened */
};

#define RR_TOP_TASKS 10

struct rr_stats {
	int nr_nodes;
	struct rr_node_stats *nodes;
	struct rr_task_stall top[RR_TOP_TASKS];
	int nr_top;

	uint64_t block_write_sectors, block_read_sectors;	/* completions */
	uint64_t block_write_requests, block_read_requests;
	uint64_t writeback_pages_written;	/* writeback_pages_written.pages */
	uint64_t compaction_migrate_scanned, compaction_free_scanned;
	uint64_t compaction_isolated, compaction_migrated, compaction_failed;
	uint64_t reclaim_pages_scanned, reclaim_pages_reclaimed;	/* mm_vmscan_reclaim_pages */
	uint64_t duration_ns;
	uint64_t lost_events;		/* sum of known counts */
	uint64_t loss_notices;
};

int rr_stats_compute(const struct rr_model *model, struct rr_stats *out);
void rr_stats_release(struct rr_stats *stats);

#endif
