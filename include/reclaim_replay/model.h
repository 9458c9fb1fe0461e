/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyzed model of one recording: reclaim episodes, batches, throttle
 * sleeps and per-node / per-task indexes over the event array, built once
 * and then read by stats and by every replay.
 */
#ifndef RECLAIM_REPLAY_MODEL_H
#define RECLAIM_REPLAY_MODEL_H

#include <stdint.h>
#include "reclaim_replay/event.h"

#define RR_NONE UINT32_MAX

/* Who was reclaiming: the context of a batch or throttle. */
enum rr_context {
	RR_CTX_DIRECT,
	RR_CTX_MEMCG,
	RR_CTX_SOFTLIMIT,
	RR_CTX_NODE,
	RR_CTX_KSWAPD,
	RR_CTX_OTHER,		/* kdamond, proactive reclaim, compaction... */
	RR_NR_CONTEXTS
};

/* Episode kinds use the context numbering; "other" has no episodes. */
#define RR_NR_EPISODE_KINDS RR_CTX_OTHER

#define RR_EPF_OPEN_AT_START	0x01	/* ended without a begin in the trace */
#define RR_EPF_OPEN_AT_END	0x02	/* began, the trace ended first */
#define RR_EPF_CUT_BY_LOSS	0x04	/* events were lost on its cpu meanwhile */
#define RR_EPF_NID_FROM_CPU	0x08	/* no batch: node taken from the cpu's node */
#define RR_EPF_NID_UNKNOWN	0x10	/* no batch and no cpu->node map: node 0 */

struct rr_episode {
	uint64_t begin, end;	/* ns; end of an open episode: last event */
	uint32_t task;		/* index in rr_trace.tasks */
	int16_t nid;		/* node of its batches (most pages scanned) */
	uint8_t kind;		/* enum rr_context */
	uint8_t flags;		/* RR_EPF_* */
	uint32_t begin_event, end_event;	/* indexes in rr_trace.events or RR_NONE */
	uint32_t first_batch, nr_batches;	/* batches are contiguous per episode? no: see below */
	uint64_t nr_reclaimed_end;	/* from the *_end event */
	uint64_t throttle_ns;	/* throttle sleeps inside it */
	uint32_t nr_throttles;
	uint16_t order;
	uint32_t gfp;
};

/* An lru_isolate closed by the same task's next shrink_inactive/active. */
struct rr_batch {
	uint32_t isolate_event;	/* RR_NONE when the isolate was not seen */
	uint32_t shrink_event;	/* RR_NONE when the trace ended or a loss cut it */
	uint32_t episode;	/* RR_NONE outside an episode (kswapd spans are episodes) */
	int16_t nid;
	uint8_t context;
	uint8_t flags;		/* RR_BATF_* */
};
#define RR_BATF_ACTIVE		0x01	/* closed by shrink_active */
#define RR_BATF_LOSS		0x02	/* a loss after the isolate: its shrink may be lost */

struct rr_throttle {
	uint64_t start, end;	/* [ts - usec_delayed, ts] */
	/*
	 * The task's last sched_wakeup after its previous event and by @end,
	 * or 0: the recording has no wakeup for this sleep. @end - @woken is
	 * how long the woken task waited for a cpu (docs/model.md, section 5).
	 */
	uint64_t woken;
	uint32_t task;
	uint32_t event;
	uint32_t episode;	/* RR_NONE when outside any episode */
	uint32_t usec_timeout, usec_delayed;
	int16_t nid;
	uint8_t reason;		/* enum rr_throttle_reason, UINT8_MAX when unknown */
	uint8_t context;
};

/* CSR index: items of key k are idx[off[k] .. off[k+1]). */
struct rr_index {
	uint32_t *off;
	uint32_t *idx;
	uint32_t nr_keys;
};

struct rr_model {
	const struct rr_trace *trace;

	struct rr_episode *episodes;
	uint32_t nr_episodes;
	struct rr_batch *batches;
	uint32_t nr_batches;
	struct rr_throttle *throttles;
	uint32_t nr_throttles;

	struct rr_index by_node;	/* events per node (after attribution) */
	struct rr_index by_task;	/* events per task: key = index in trace->tasks */
	struct rr_index batches_by_episode;

	int16_t *cpu_node;		/* cpu -> node learnt from node-local events, or -1 */
	int nr_cpus;
	uint64_t first_ts, last_ts;

	/* Attribution bookkeeping, reported so users see what was inferred. */
	uint64_t batches_without_isolate;
	uint64_t isolates_without_shrink;
	uint64_t episodes_nid_from_cpu;
	uint64_t episodes_nid_unknown;
	uint64_t episodes_cut_by_loss;
	uint64_t pairs_refused_across_loss;
	uint64_t isolates_cut_by_loss;		/* batches with RR_BATF_LOSS */
	uint64_t episodes_end_mismatch;		/* open episode ended by another kind's *_end */
	uint64_t throttles_nid_unknown;		/* legacy wait, no episode, no cpu map: node 0 */
	uint64_t throttles_unknown_reason;	/* reason bits not one known reason */
	uint64_t throttles_unknown_reason_us;	/* their usec_delayed */
	/* Hostile values, made defined and reported (docs/robustness.md). */
	uint64_t throttles_delay_clamped;	/* mm_vmscan_throttled slept past its timeout */
	uint64_t throttles_delay_clamped_us;	/* the usec_delayed those clamps removed */
	uint64_t events_clamped;		/* events with a field out of range (RR_EVF_CLAMPED) */
};

/**
 * rr_model_build - analyze a decoded trace
 * @trace: decoded recording; must outlive the model
 * @out:   new model, free with rr_model_free()
 *
 * Attributes nodes to events without one (isolate batches from their
 * closing shrink event, reclaim begin/end from the episode's batches) by
 * writing ev->nid in the trace's own array. Returns 0 or -ENOMEM.
 */
int rr_model_build(struct rr_trace *trace, struct rr_model **out);
void rr_model_free(struct rr_model *model);

/* The event of the same task before event @i (by_task), or NULL. */
const struct rr_event *rr_model_previous_of_task(const struct rr_model *m, uint32_t i);

/* Index of @pid in trace->tasks, or -1 (a linear search: not for hot paths). */
long rr_task_index(const struct rr_trace *trace, uint32_t pid);

const char *rr_context_name(enum rr_context ctx);

#endif
