/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine's own state, shared by its two halves: engine.c (the
 * event loop over every task's timeline, episodes, batches, the figures)
 * and engine_sleep.c (decision points, policy verdicts, sleeps and their
 * wakes, retries). Not a public header: policies see only policy.h.
 */
#ifndef RR_REPLAY_ENGINE_H
#define RR_REPLAY_ENGINE_H

#include <stdint.h>
#include <stdlib.h>

#include "curves.h"
#include "decisions.h"
#include "reclaim_replay/replay.h"

#define MIN_NEED_PAGES 32		/* SWAP_CLUSTER_MAX */
#define DEFAULT_BATCH_NS 100000ULL	/* a retry's length when the task has no batch yet */
#define MAX_RETRIES_PER_SLEEP 100000
#define MIN_BATCH_NS 10000ULL		/* a reclaim batch takes at least 10 us */
#define MAX_BATCH_NS 10000000ULL

struct heap_entry {
	uint64_t key;
	uint32_t task;
	uint32_t version;
};

struct heap {
	struct heap_entry *e;
	size_t n, cap;
};

enum task_state { TASK_RUNNING, TASK_SLEEPING, TASK_DONE };

struct sleep_ctx {
	uint32_t point;		/* decision point index */
	uint64_t start;		/* replayed sleep start */
	uint64_t resume_rec;	/* when the recorded sleep ended (c): the condition
				 * that caused it held until then, on the trace clock */
	uint64_t deadline;	/* start + timeout */
	uint64_t extra_ns;
	struct rr_verdict verdict;
	uint32_t retries;	/* sleeping again inside a retry loop */
};

struct task_run {
	uint32_t cursor, end;	/* items[cursor..end) still to walk */
	int64_t shift;
	uint32_t version;
	uint8_t state;
	uint32_t episode;	/* open episode, RR_NONE if none */
	uint64_t last_batch_ns;	/* period and size of the task's last batch */
	uint64_t last_shrink_ts;	/* recorded end of the task's last batch */
	uint32_t last_batch_scanned;
	struct sleep_ctx sleep;
};

struct episode_run {
	uint64_t begin;		/* replayed */
	uint64_t reclaimed;	/* so far, retries included */
	uint8_t open;		/* open or cut: not a completed episode */
};

struct wb_queue {
	uint32_t *task;
	size_t n, cap;
	uint64_t start_written;
	uint64_t wake_at;
	uint32_t pages_per_waiter;
};

struct engine {
	const struct rr_model *m;
	const struct rr_trace *t;
	const struct rr_curves *c;
	const struct rr_policy_instance *pol;
	const struct rr_decisions *dd;	/* built once per model, with the curves */
	struct rr_decisions d;		/* a shallow copy of *dd */
	struct task_run *tasks;
	struct episode_run *eps;
	struct wb_queue *wbq;
	struct heap heap;
	struct rr_replay_result *out;
	uint32_t hz;
	int pinned;		/* tasks resume at their recorded times */
	const struct rr_replay_observer *obs;	/* timeline export, or NULL */
	struct rr_curve_hints *hints;	/* per node: where the last lookups landed */
	size_t inflight_hint;
	uint64_t **stall_ns;	/* per node: completed stall episode lengths */
	size_t *nr_stall, *cap_stall;
	int error;
};


/* The engine's min-heap of task wake-ups, keyed by replayed time. */
int rr_heap_push(struct heap *h, uint64_t key, uint32_t task, uint32_t version);
struct heap_entry rr_heap_pop(struct heap *h);

static inline uint64_t add_shift(uint64_t ts, int64_t shift)
{
	int64_t v = (int64_t)ts + shift;

	return v < 0 ? 0 : (uint64_t)v;
}

static inline struct rr_replay_node *node_of(struct engine *g, int nid)
{
	if (nid < 0 || nid >= g->out->nr_nodes)
		nid = 0;
	return &g->out->nodes[nid];
}

static inline void account_batch(struct engine *g, int nid, uint64_t scanned, uint64_t reclaimed)
{
	struct rr_replay_node *n = node_of(g, nid);

	n->scanned += scanned;
	n->reclaimed += reclaimed;
	n->batches++;
	/* as in stats: a batch that scanned nothing is no unproductive batch */
	if (scanned && reclaimed * 8 <= scanned)
		n->unproductive_batches++;
}


/* engine_sleep.c */
int rr_engine_start_sleep(struct engine *g, uint32_t k, uint32_t point, uint64_t s);
int rr_engine_finish_sleep(struct engine *g, uint32_t k, uint64_t w);
int rr_engine_wbq_fire(struct engine *g, uint32_t k, uint64_t now);
int rr_engine_emit_span(struct engine *g, uint8_t kind, uint8_t ctx, uint8_t flags, int nid,
			uint32_t task, uint32_t index, uint64_t begin, uint64_t end);

#endif
