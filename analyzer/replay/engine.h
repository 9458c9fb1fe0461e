/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay engine's own state, shared by its two halves: engine.c (the
 * event loop over every task's timeline, episodes, batches, the figures)
 * and engine_sleep.c (decision points, policy verdicts, sleeps and their
 * wakes, retries). Not a public header: policies see only policy.h.
 */
#ifndef RR_REPLAY_ENGINE_H
#define RR_REPLAY_ENGINE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "curves.h"
#include "decisions.h"
#include "policies.h"
#include "reclaim_replay/replay.h"

#define MIN_NEED_PAGES 32		/* SWAP_CLUSTER_MAX */
#define DEFAULT_BATCH_NS 100000ULL	/* a retry's length when the task has no batch yet */
#define MAX_RETRIES_PER_SLEEP 100000
#define MIN_BATCH_NS 10000ULL		/* a reclaim batch takes at least 10 us */
#define MAX_BATCH_NS 10000000ULL

/*
 * Laid out so that, read as one little-endian 128-bit number, an entry
 * orders by (key, task, version): see heap_entry_before().
 */
struct heap_entry {
	uint32_t version;
	uint32_t task;
	uint64_t key;
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
	uint32_t sleep;		/* while it sleeps: its slot in engine.sleeps */
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
	uint32_t reads;		/* rr_policy_reads() of the policy */
	const struct rr_decisions *dd;	/* built once per model, with the curves */
	struct rr_decisions d;		/* a shallow copy of *dd */
	struct task_run *tasks;
	struct episode_run *eps;
	struct wb_queue *wbq;
	/*
	 * Sleep contexts, one per task between rr_engine_start_sleep() and
	 * the end of its rr_engine_finish_sleep(): a few hundred at a time,
	 * where a context in each task_run made the 130 000 tasks of a large
	 * trace 20 MB to zero and walk at every replay. Free slots are listed.
	 */
	struct sleep_ctx *sleeps;
	uint32_t *free_sleeps;
	uint32_t nr_sleeps, nr_free;
	struct heap heap;
	/* run_task() yielded: this entry goes in as the top comes out */
	struct heap_entry yield;
	int yielded;
	struct rr_replay_result *out;
	/* out->nodes and their number (that of the curves too), read at every
	 * batch and decision: kept here, one load away instead of two */
	struct rr_replay_node *nodes;
	int nr_nodes;
	uint32_t hz;
	int pinned;		/* tasks resume at their recorded times */
	/* RR_REPLAY_YIELD_EACH_ITEM=1: yield before every item, not only before
	 * decisions (run_task()); the figures must not change (t0400) */
	int yield_each_item;
	const struct rr_replay_observer *obs;	/* timeline export, or NULL */
	struct rr_curve_hints *hints;	/* per node: where the last lookups landed */
	size_t inflight_hint;
	uint64_t **stall_ns;	/* per node: completed stall episode lengths */
	size_t *nr_stall, *cap_stall;
	int error;
};


/*
 * The engine's min-heap of task wake-ups, keyed by replayed time, ties by
 * task. Entries left behind by a re-timed WRITEBACK waiter stay in it until
 * popped and are skipped by their version, so two entries may share key and
 * task; the heap's shape decides only which of those comes out first. That
 * cannot matter: the stale one is skipped whenever it comes out, and a task
 * never yields to a stale entry (live_entry_before() in engine.c drops
 * those it finds on top), so the replay depends only on the order of
 * (key, task) of live entries. (A 4-ary heap was tried
 * on 6 Dec: 10 % more instructions and no faster than this binary one.)
 *
 * HEAP_PAD slots past the entries are always allocated (rr_heap_push()
 * grows early), so a sift-down can put a sentinel after the last entry and
 * take the smaller child without checking that the right one exists.
 */
#define HEAP_PAD 1
int rr_heap_grow(struct heap *h);

/*
 * a comes out before b: (key, task) in order, then the version, which only
 * breaks ties between a stale entry and a live one of the same task (the
 * engine skips the stale one whenever it comes out). One 128-bit compare,
 * a compare and a subtract with borrow, instead of two compares and their
 * combination: the child choice of every sift-down level.
 */
static inline int heap_entry_before(const struct heap_entry *a, const struct heap_entry *b)
{
	unsigned __int128 ra, rb;

	_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
		       sizeof(struct heap_entry) == sizeof(ra), "heap_entry as a 128-bit number");
	memcpy(&ra, a, sizeof(ra));
	memcpy(&rb, b, sizeof(rb));
	return ra < rb;
}

static inline int rr_heap_push(struct heap *h, uint64_t key, uint32_t task, uint32_t version)
{
	struct heap_entry in = { .key = key, .task = task, .version = version }, *e;
	size_t i;

	if (h->n + HEAP_PAD >= h->cap && rr_heap_grow(h))
		return -ENOMEM;
	e = h->e;
	i = h->n++;
	while (i) {
		size_t parent = (i - 1) / 2;

		if (!heap_entry_before(&in, &e[parent]))
			break;
		e[i] = e[parent];
		i = parent;
	}
	e[i] = in;
	return 0;
}

/*
 * Put @in where the hole at the root sinks to: the hole moves down to the
 * smaller child (the left one on a tie) while that child comes before @in.
 * The child is chosen without a branch, which a comparison of random wake
 * times mispredicts half the time. The heap holds @n entries; the sentinel
 * in the slot after them comes after every real entry, so a missing right
 * child is never chosen.
 */
static inline void heap_sift_down(struct heap_entry *e, size_t n, struct heap_entry in)
{
	size_t i = 0;

	e[n] = (struct heap_entry){ .key = UINT64_MAX, .task = UINT32_MAX, .version = UINT32_MAX };
	for (;;) {
		size_t l = 2 * i + 1, c;

		if (l >= n)
			break;
		c = l + (size_t)heap_entry_before(&e[l + 1], &e[l]);
		if (!heap_entry_before(&e[c], &in))
			break;
		e[i] = e[c];
		i = c;
	}
	e[i] = in;
}

static inline struct heap_entry rr_heap_pop(struct heap *h)
{
	struct heap_entry *e = h->e, top = e[0], last = e[--h->n];

	if (h->n)
		heap_sift_down(e, h->n, last);
	return top;
}

/*
 * Pop the top and push @in in one sift-down from the root, for a task that
 * yields to an earlier top (run_task()): @in comes after the top, so this
 * pops what rr_heap_pop() would after rr_heap_push(@in) and leaves the same
 * entries, without the push's sift-up and the pop's sift-down of the last
 * entry. The heap must not be empty.
 */
static inline struct heap_entry rr_heap_replace_top(struct heap *h, struct heap_entry in)
{
	struct heap_entry top = h->e[0];

	heap_sift_down(h->e, h->n, in);
	return top;
}

/* The context of a sleeping task (valid until rr_engine_start_sleep() runs again). */
static inline struct sleep_ctx *sleep_of(const struct engine *g, const struct task_run *tr)
{
	return &g->sleeps[tr->sleep];
}

static inline uint64_t add_shift(uint64_t ts, int64_t shift)
{
	int64_t v = (int64_t)ts + shift;

	return v < 0 ? 0 : (uint64_t)v;
}

/* @nid as an index of the replay's nodes: an unknown or foreign node counts as node 0 */
static inline int node_index(const struct engine *g, int nid)
{
	return (unsigned)nid < (unsigned)g->nr_nodes ? nid : 0;
}

static inline struct rr_replay_node *node_of(struct engine *g, int nid)
{
	return &g->nodes[node_index(g, nid)];
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
