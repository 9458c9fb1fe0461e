// SPDX-License-Identifier: GPL-2.0
/*
 * Build the model from the event array in one pass in time order: reclaim
 * episodes per task, isolate->shrink batches, throttle sleeps; then give
 * nodes to events that carry none, and index events per node and per task.
 * The attribution rules are documented in docs/model.md ("Node attribution").
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/memlimit.h"
#include "reclaim_replay/model.h"

/* What the pass remembers per task. */
struct task_state {
	uint32_t episode;	/* open direct/memcg/node episode */
	uint32_t softlimit;	/* open softlimit episode (nested in another context) */
	uint32_t kswapd;	/* open kswapd wake-to-sleep span */
	uint32_t isolate;	/* pending lru_isolate event */
	uint64_t prev_ts;
	uint64_t woken;		/* its latest sched_wakeup (by another task) */
	uint16_t prev_cpu;
	uint8_t seen;
};

/* pid -> index in trace->tasks, sorted by pid, for sched_wakeup's woken pid */
struct pid_task {
	uint32_t pid;
	uint32_t task;
};

struct builder {
	struct rr_model *m;
	struct rr_trace *t;
	struct task_state *ts;	/* per trace->tasks index */
	uint64_t *loss_end;	/* per cpu: ts of the latest loss notice */
	size_t cap_episodes, cap_batches, cap_throttles;
	struct pid_task *pids;	/* built at the first sched_wakeup */
};

long rr_task_index(const struct rr_trace *t, uint32_t pid)
{
	for (size_t i = 0; i < t->nr_tasks; i++)
		if (t->tasks[i].pid == pid)
			return (long)i;
	return -1;
}

const struct rr_event *rr_model_previous_of_task(const struct rr_model *m, uint32_t i)
{
	const struct rr_trace *t = m->trace;
	uint32_t task = t->events[i].task;
	uint32_t lo, hi;

	if (task == RR_NO_TASK)
		return NULL;
	lo = m->by_task.off[task];
	hi = m->by_task.off[task + 1];
	/* by_task lists the task's events in time order: find i, step back */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (m->by_task.idx[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > m->by_task.off[task] ? &t->events[m->by_task.idx[lo - 1]] : NULL;
}

const char *rr_context_name(enum rr_context ctx)
{
	static const char *const names[RR_NR_CONTEXTS] = {
		"direct", "memcg", "softlimit", "node", "kswapd", "other",
	};
	return ctx < RR_NR_CONTEXTS ? names[ctx] : "?";
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	while (ncap < need)
		ncap *= 2;
	if (rr_mem_charge(*cap * elem, ncap * elem))
		return -ENOMEM;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

static uint32_t new_episode(struct builder *b, const struct rr_event *ev, uint32_t ev_index,
			    enum rr_context kind, uint64_t begin)
{
	struct rr_model *m = b->m;
	struct rr_episode *ep;

	if (grow((void **)&m->episodes, &b->cap_episodes, m->nr_episodes + 1, sizeof(*ep)))
		return RR_NONE;
	ep = &m->episodes[m->nr_episodes];
	memset(ep, 0, sizeof(*ep));
	ep->begin = begin;
	ep->end = begin;
	ep->task = ev->task;
	ep->nid = RR_NID_NONE;
	ep->kind = (uint8_t)kind;
	ep->begin_event = ev_index;
	ep->end_event = RR_NONE;
	ep->first_batch = RR_NONE;
	return m->nr_episodes++;
}

static enum rr_context begin_kind(uint8_t type)
{
	switch (type) {
	case RR_EV_DIRECT_BEGIN: case RR_EV_DIRECT_END: return RR_CTX_DIRECT;
	case RR_EV_MEMCG_BEGIN: case RR_EV_MEMCG_END: return RR_CTX_MEMCG;
	case RR_EV_SOFTLIMIT_BEGIN: case RR_EV_SOFTLIMIT_END: return RR_CTX_SOFTLIMIT;
	case RR_EV_NODE_BEGIN: case RR_EV_NODE_END: return RR_CTX_NODE;
	default: return RR_CTX_OTHER;
	}
}

static enum rr_context context_of(const struct builder *b, const struct task_state *s,
				  const struct rr_task *task, uint32_t *episode)
{
	const struct rr_model *m = b->m;

	*episode = RR_NONE;
	if (s->softlimit != RR_NONE) {
		*episode = s->softlimit;
		return RR_CTX_SOFTLIMIT;
	}
	if (s->episode != RR_NONE) {
		*episode = s->episode;
		return (enum rr_context)m->episodes[s->episode].kind;
	}
	if (task && task->is_kswapd) {
		*episode = s->kswapd;
		return RR_CTX_KSWAPD;
	}
	return RR_CTX_OTHER;
}

static int add_batch(struct builder *b, struct task_state *s, const struct rr_task *task,
		     uint32_t isolate, uint32_t shrink, int16_t nid)
{
	struct rr_model *m = b->m;
	struct rr_batch *bat;
	uint32_t episode;

	if (grow((void **)&m->batches, &b->cap_batches, m->nr_batches + 1, sizeof(*bat)))
		return -ENOMEM;
	bat = &m->batches[m->nr_batches++];
	memset(bat, 0, sizeof(*bat));
	bat->isolate_event = isolate;
	bat->shrink_event = shrink;
	bat->nid = nid;
	bat->context = (uint8_t)context_of(b, s, task, &episode);
	bat->episode = episode;
	if (shrink != RR_NONE && b->t->events[shrink].type == RR_EV_SHRINK_ACTIVE)
		bat->flags |= RR_BATF_ACTIVE;
	if (isolate != RR_NONE && nid != RR_NID_NONE)
		b->t->events[isolate].nid = nid;
	return 0;
}

/*
 * Close a task's open episodes and pending batch because a loss may have
 * eaten their ends: they must not be paired with later events. The pending
 * isolate becomes a batch without shrink, flagged RR_BATF_LOSS and counted.
 */
static int cut_by_loss(struct builder *b, struct task_state *s, const struct rr_task *task)
{
	struct rr_model *m = b->m;
	uint32_t *slots[] = { &s->episode, &s->softlimit, &s->kswapd };

	/* first, while its episode is still open: the batch keeps its context */
	if (s->isolate != RR_NONE) {
		if (add_batch(b, s, task, s->isolate, RR_NONE, RR_NID_NONE))
			return -ENOMEM;
		m->batches[m->nr_batches - 1].flags |= RR_BATF_LOSS;
		m->isolates_cut_by_loss++;
		s->isolate = RR_NONE;
		m->pairs_refused_across_loss++;
	}
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		if (*slots[i] == RR_NONE)
			continue;
		m->episodes[*slots[i]].flags |= RR_EPF_CUT_BY_LOSS;
		m->episodes[*slots[i]].end = s->prev_ts;
		*slots[i] = RR_NONE;
		m->pairs_refused_across_loss++;
	}
	return 0;
}

static int cmp_pid_task(const void *a, const void *b)
{
	const struct pid_task *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static uint32_t task_of_pid(const struct builder *b, uint32_t pid)
{
	size_t lo = 0, hi = b->t->nr_tasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->pids[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->t->nr_tasks && b->pids[lo].pid == pid ? b->pids[lo].task : RR_NO_TASK;
}

/*
 * sched_wakeup: remember when the woken task was woken; its next throttle
 * event (it runs again) takes it. The event stays the waker's: it is
 * not the woken task's activity, and not the waker's reclaim either, so
 * it changes neither task's episodes.
 */
static int note_wakeup(struct builder *b, const struct rr_event *ev)
{
	uint32_t k;

	if (!b->pids) {
		b->pids = malloc((b->t->nr_tasks ? b->t->nr_tasks : 1) * sizeof(*b->pids));
		if (!b->pids)
			return -ENOMEM;
		for (size_t i = 0; i < b->t->nr_tasks; i++)
			b->pids[i] = (struct pid_task){ b->t->tasks[i].pid, (uint32_t)i };
		qsort(b->pids, b->t->nr_tasks, sizeof(*b->pids), cmp_pid_task);
	}
	k = task_of_pid(b, ev->v[RR_V_SW_PID]);
	if (k != RR_NO_TASK)
		b->ts[k].woken = ev->ts;
	return 0;
}

/* @before: the task's previous event, 0 if this is its first */
static int on_throttle(struct builder *b, struct task_state *s, const struct rr_task *task,
		       const struct rr_event *ev, uint32_t i, uint64_t before)
{
	struct rr_model *m = b->m;
	struct rr_throttle *th;
	uint32_t delayed = ev->v[RR_V_THR_DELAYED];
	uint64_t delayed_ns;

	/*
	 * reclaim_throttle() reports jiffies_to_usecs(timeout - remaining): it
	 * never sleeps past its timeout. More is a damaged record (2^31 from a
	 * flipped sign bit); counting it in full would swamp every total.
	 */
	if (ev->type == RR_EV_THROTTLED && delayed > ev->v[RR_V_THR_TIMEOUT]) {
		m->throttles_delay_clamped++;
		m->throttles_delay_clamped_us += delayed - ev->v[RR_V_THR_TIMEOUT];
		delayed = ev->v[RR_V_THR_TIMEOUT];
	}
	delayed_ns = (uint64_t)delayed * 1000;

	if (grow((void **)&m->throttles, &b->cap_throttles, m->nr_throttles + 1, sizeof(*th)))
		return -ENOMEM;
	th = &m->throttles[m->nr_throttles++];
	memset(th, 0, sizeof(*th));
	th->end = ev->ts;
	th->start = ev->ts > delayed_ns ? ev->ts - delayed_ns : 0;
	th->task = ev->task;
	th->event = i;
	/* woken after the task last ran: the wake of this sleep */
	if (s->woken > before && s->woken <= ev->ts)
		th->woken = s->woken;
	th->usec_timeout = ev->v[RR_V_THR_TIMEOUT];
	th->usec_delayed = delayed;
	th->nid = ev->nid;
	if (ev->type == RR_EV_THROTTLED)
		th->reason = ev->aux < RR_REASON_LEGACY_CONGESTION_WAIT ? (uint8_t)ev->aux : UINT8_MAX;
	else if (ev->type == RR_EV_CONGESTION_WAIT)
		th->reason = RR_REASON_LEGACY_CONGESTION_WAIT;
	else
		th->reason = RR_REASON_LEGACY_WAIT_IFF_CONGESTED;
	th->context = (uint8_t)context_of(b, s, task, &th->episode);
	if (th->reason == UINT8_MAX) {
		/*
		 * Reason bits that are not one known reason: stats and replay
		 * leave it out, so the episode's throttle time does too (the
		 * per-task throttle ms stays the sum of the reason tables).
		 */
		m->throttles_unknown_reason++;
		m->throttles_unknown_reason_us += th->usec_delayed;
		return 0;
	}
	if (th->episode != RR_NONE) {
		m->episodes[th->episode].throttle_ns += delayed_ns;
		m->episodes[th->episode].nr_throttles++;
	}
	return 0;
}

/*
 * @prev_ts: the task's event before @ev. An open episode of another kind
 * (its own end and this end's begin were lost) is kept as open, not
 * silently dropped, and counted.
 */
static void end_episode(struct builder *b, uint32_t *slot, const struct rr_event *ev, uint32_t i,
			enum rr_context kind, uint64_t prev_ts)
{
	struct rr_model *m = b->m;
	struct rr_episode *ep;

	if (*slot != RR_NONE && m->episodes[*slot].kind != kind) {
		m->episodes[*slot].flags |= RR_EPF_OPEN_AT_END;
		m->episodes[*slot].end = prev_ts;
		m->episodes_end_mismatch++;
		*slot = RR_NONE;
	}
	if (*slot != RR_NONE) {
		ep = &m->episodes[*slot];
	} else {
		/* An end whose begin predates the trace (or was cut by a loss):
		 * an episode open at the start, kept out of the durations. */
		uint32_t e = new_episode(b, ev, RR_NONE, kind, m->first_ts);

		if (e == RR_NONE)
			return;
		ep = &m->episodes[e];
		ep->flags |= RR_EPF_OPEN_AT_START;
	}
	ep->end = ev->ts;
	ep->end_event = i;
	if (kind != RR_CTX_KSWAPD)
		ep->nr_reclaimed_end = ev->v[RR_V_NR_RECLAIMED_END];
	*slot = RR_NONE;
}

static int step(struct builder *b, uint32_t i)
{
	struct rr_trace *t = b->t;
	struct rr_model *m = b->m;
	struct rr_event *ev = &t->events[i];
	uint32_t ti;
	struct task_state *s;
	const struct rr_task *task;
	uint64_t prev_ts, before;

	if (ev->type == RR_EV_SCHED_WAKEUP)
		return note_wakeup(b, ev);
	if (ev->type == RR_EV_LOST) {
		if (ev->cpu < b->m->nr_cpus)
			b->loss_end[ev->cpu] = ev->ts;
		return 0;
	}
	if (ev->task == RR_NO_TASK)
		return 0;
	ti = ev->task;
	s = &b->ts[ti];
	task = &t->tasks[ti];
	if (s->seen && (b->loss_end[s->prev_cpu] > s->prev_ts ||
			b->loss_end[ev->cpu] > s->prev_ts) && cut_by_loss(b, s, task))
		return -ENOMEM;

	if (task->is_kswapd && !s->seen && ev->type != RR_EV_KSWAPD_WAKE &&
	    ev->type != RR_EV_KSWAPD_SLEEP && ev->type != RR_EV_COUNTERS &&
	    ev->type != RR_EV_MARKER && ev->type != RR_EV_META) {
		/* kswapd already busy when the recording started */
		s->kswapd = new_episode(b, ev, RR_NONE, RR_CTX_KSWAPD, m->first_ts);
		if (s->kswapd == RR_NONE)
			return -ENOMEM;
		m->episodes[s->kswapd].flags |= RR_EPF_OPEN_AT_START;
		m->episodes[s->kswapd].nid = task->kswapd_nid;
	} else if (task->is_kswapd && !s->seen && ev->type == RR_EV_KSWAPD_SLEEP) {
		/* it was busy from before the trace started until this sleep */
		s->kswapd = new_episode(b, ev, RR_NONE, RR_CTX_KSWAPD, m->first_ts);
		if (s->kswapd == RR_NONE)
			return -ENOMEM;
		m->episodes[s->kswapd].flags |= RR_EPF_OPEN_AT_START;
		m->episodes[s->kswapd].nid = task->kswapd_nid != RR_NID_NONE ?
			task->kswapd_nid : ev->nid;
	}
	before = s->seen ? s->prev_ts : 0;
	prev_ts = s->seen ? s->prev_ts : ev->ts;
	s->seen = 1;
	s->prev_ts = ev->ts;
	s->prev_cpu = ev->cpu;

	switch (ev->type) {
	case RR_EV_DIRECT_BEGIN:
	case RR_EV_MEMCG_BEGIN:
	case RR_EV_NODE_BEGIN:
		if (s->episode != RR_NONE) {
			/* the previous end was never seen */
			m->episodes[s->episode].flags |= RR_EPF_OPEN_AT_END;
			m->episodes[s->episode].end = prev_ts;
		}
		s->episode = new_episode(b, ev, i, begin_kind(ev->type), ev->ts);
		if (s->episode == RR_NONE)
			return -ENOMEM;
		m->episodes[s->episode].order = (uint16_t)ev->v[RR_V_ORDER];
		m->episodes[s->episode].gfp = ev->v[RR_V_GFP];
		if (ev->type == RR_EV_NODE_BEGIN)
			m->episodes[s->episode].nid = ev->nid;
		break;
	case RR_EV_SOFTLIMIT_BEGIN:
		s->softlimit = new_episode(b, ev, i, RR_CTX_SOFTLIMIT, ev->ts);
		if (s->softlimit == RR_NONE)
			return -ENOMEM;
		break;
	case RR_EV_DIRECT_END:
	case RR_EV_MEMCG_END:
	case RR_EV_NODE_END:
		end_episode(b, &s->episode, ev, i, begin_kind(ev->type), prev_ts);
		break;
	case RR_EV_SOFTLIMIT_END:
		end_episode(b, &s->softlimit, ev, i, RR_CTX_SOFTLIMIT, prev_ts);
		break;
	case RR_EV_KSWAPD_WAKE:
		if (task->is_kswapd && s->kswapd == RR_NONE) {
			s->kswapd = new_episode(b, ev, i, RR_CTX_KSWAPD, ev->ts);
			if (s->kswapd == RR_NONE)
				return -ENOMEM;
			m->episodes[s->kswapd].nid = task->kswapd_nid != RR_NID_NONE ?
				task->kswapd_nid : ev->nid;
		}
		break;
	case RR_EV_KSWAPD_SLEEP:
		if (task->is_kswapd && s->kswapd != RR_NONE)
			end_episode(b, &s->kswapd, ev, i, RR_CTX_KSWAPD, prev_ts);
		break;
	case RR_EV_LRU_ISOLATE:
		if (s->isolate != RR_NONE) {
			m->isolates_without_shrink++;
			if (add_batch(b, s, task, s->isolate, RR_NONE, RR_NID_NONE))
				return -ENOMEM;
		}
		s->isolate = i;
		break;
	case RR_EV_SHRINK_INACTIVE:
	case RR_EV_SHRINK_ACTIVE:
		if (s->isolate == RR_NONE)
			m->batches_without_isolate++;
		if (add_batch(b, s, task, s->isolate, i, ev->nid))
			return -ENOMEM;
		s->isolate = RR_NONE;
		break;
	case RR_EV_THROTTLED:
	case RR_EV_CONGESTION_WAIT:
	case RR_EV_WAIT_IFF_CONGESTED:
		if (on_throttle(b, s, task, ev, i, before))
			return -ENOMEM;
		break;
	default:
		break;
	}
	return 0;
}

/* Close what the trace left open at its end. */
static int finish_open(struct builder *b)
{
	struct rr_model *m = b->m;

	for (size_t ti = 0; ti < b->t->nr_tasks; ti++) {
		struct task_state *s = &b->ts[ti];
		uint32_t *slots[] = { &s->episode, &s->softlimit, &s->kswapd };

		for (size_t k = 0; k < 3; k++) {
			if (*slots[k] == RR_NONE)
				continue;
			m->episodes[*slots[k]].flags |= RR_EPF_OPEN_AT_END;
			m->episodes[*slots[k]].end = m->last_ts;
		}
		if (s->isolate != RR_NONE) {
			m->isolates_without_shrink++;
			if (add_batch(b, s, &b->t->tasks[ti], s->isolate, RR_NONE, RR_NID_NONE))
				return -ENOMEM;
		}
	}
	return 0;
}

/* always inlined: each caller's key function then inlines into both loops */
static inline __attribute__((always_inline)) int
build_csr(struct rr_index *ix, uint32_t nr_keys, uint32_t n,
	  uint32_t (*key_of)(const void *ctx, uint32_t item), const void *ctx)
{
	ix->nr_keys = nr_keys;
	if (rr_mem_charge_new(((size_t)nr_keys + 1) * sizeof(*ix->off) +
			      (size_t)(n ? n : 1) * sizeof(*ix->idx)))
		return -ENOMEM;
	ix->off = calloc((size_t)nr_keys + 1, sizeof(*ix->off));
	ix->idx = malloc((size_t)(n ? n : 1) * sizeof(*ix->idx));
	if (!ix->off || !ix->idx)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = key_of(ctx, i);

		if (k < nr_keys)
			ix->off[k + 1]++;
	}
	for (uint32_t k = 0; k < nr_keys; k++)
		ix->off[k + 1] += ix->off[k];
	{
		uint32_t *fill = malloc((size_t)nr_keys * sizeof(*fill) + 1);

		if (!fill)
			return -ENOMEM;
		memcpy(fill, ix->off, (size_t)nr_keys * sizeof(*fill));
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = key_of(ctx, i);

			if (k < nr_keys)
				ix->idx[fill[k]++] = i;
		}
		free(fill);
	}
	return 0;
}

static uint32_t node_key(const void *ctx, uint32_t i)
{
	const struct rr_trace *t = ctx;
	int16_t nid = t->events[i].nid;

	return nid == RR_NID_NONE ? (uint32_t)t->nr_nodes : (uint32_t)nid;
}

static uint32_t task_key(const void *ctx, uint32_t i)
{
	const struct rr_trace *t = ctx;
	uint32_t ti = t->events[i].task;

	return ti == RR_NO_TASK ? (uint32_t)t->nr_tasks : ti;
}

/* Indexes of 4 MiB or more are written whole right away (rr_mem_populate). */
static void populate(void *p, size_t bytes)
{
	if (bytes >= (4u << 20))
		(void)rr_mem_populate(p, bytes);
}

static int index_alloc(struct rr_index *ix, uint32_t nr_keys, uint32_t n)
{
	ix->nr_keys = nr_keys;
	if (rr_mem_charge_new(((size_t)nr_keys + 1) * sizeof(*ix->off) +
			      (size_t)(n ? n : 1) * sizeof(*ix->idx)))
		return -ENOMEM;
	ix->off = calloc((size_t)nr_keys + 1, sizeof(*ix->off));
	ix->idx = malloc((size_t)(n ? n : 1) * sizeof(*ix->idx));
	if (ix->idx)
		populate(ix->idx, (size_t)(n ? n : 1) * sizeof(*ix->idx));
	return ix->off && ix->idx ? 0 : -ENOMEM;
}

/*
 * One CSR index over the events (build_csr()'s result) whose key is a
 * field the model never writes, or has finished writing: one counting and
 * one filling pass over the event array, which is large and memory-bound.
 */
static inline __attribute__((always_inline)) int
event_index_fill(struct rr_index *ix, const struct rr_trace *t,
		 uint32_t (*key_of)(const void *ctx, uint32_t item))
{
	uint32_t n = (uint32_t)t->nr_events, *fill;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = key_of(t, i);

		if (k < ix->nr_keys)
			ix->off[k + 1]++;
	}
	for (uint32_t k = 0; k < ix->nr_keys; k++)
		ix->off[k + 1] += ix->off[k];
	fill = malloc((size_t)ix->nr_keys * sizeof(*fill));
	if (!fill)
		return -ENOMEM;
	memcpy(fill, ix->off, (size_t)ix->nr_keys * sizeof(*fill));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = key_of(t, i);

		if (k < ix->nr_keys)
			ix->idx[fill[k]++] = i;
	}
	free(fill);
	return 0;
}

/*
 * by_task on a thread of its own, while the model's main pass runs: the
 * task of an event is never written by the model (only its node is, a
 * different field), so the index is the same whenever it is built.
 */
struct task_index_job {
	struct rr_index *ix;
	const struct rr_trace *t;
	pthread_t thread;
	int started;
	int ret;
};

static void *task_index_thread(void *arg)
{
	struct task_index_job *j = arg;

	j->ret = event_index_fill(j->ix, j->t, task_key);
	return NULL;
}

/* Allocated (and charged to --max-memory) here, on the calling thread. */
static int task_index_start(struct task_index_job *j, struct rr_model *m,
			    const struct rr_trace *t)
{
	j->ix = &m->by_task;
	j->t = t;
	if (index_alloc(j->ix, (uint32_t)t->nr_tasks + 1, (uint32_t)t->nr_events))
		return -ENOMEM;
	/* small traces are not worth a thread; no thread: built at the join */
	j->started = t->nr_events >= (1u << 16) &&
		     !pthread_create(&j->thread, NULL, task_index_thread, j);
	return 0;
}

static int task_index_join(struct task_index_job *j)
{
	int ret;

	if (!j->ix)
		return 0;
	if (j->started) {
		pthread_join(j->thread, NULL);
		ret = j->ret;
	} else {
		ret = event_index_fill(j->ix, j->t, task_key);
	}
	j->ix = NULL;
	j->started = 0;
	return ret;
}

static uint32_t episode_key(const void *ctx, uint32_t i)
{
	const struct rr_model *m = ctx;

	return m->batches[i].episode;
}

/*
 * kswapdN runs on node N's cpus: learn cpu -> node from where it ran.
 * The votes are counted in the model's main pass over the events
 * (cpu_node_vote), which is where the array is read anyway; cpu_node is
 * only used after it (attribute_episodes).
 */
static uint32_t *cpu_node_votes(struct rr_model *m)
{
	const struct rr_trace *t = m->trace;

	m->nr_cpus = t->nr_cpus > 0 ? t->nr_cpus : 1;
	m->cpu_node = malloc((size_t)m->nr_cpus * sizeof(*m->cpu_node));
	if (!m->cpu_node)
		return NULL;
	return calloc((size_t)m->nr_cpus * (size_t)t->nr_nodes, sizeof(uint32_t));
}

static inline void cpu_node_vote(const struct rr_model *m, uint32_t *votes,
				 const struct rr_event *ev)
{
	const struct rr_trace *t = m->trace;
	uint32_t ti = ev->task;
	int nodes = t->nr_nodes;

	if (ev->cpu >= m->nr_cpus || ti == RR_NO_TASK)
		return;
	if (t->tasks[ti].is_kswapd && t->tasks[ti].kswapd_nid < nodes)
		votes[(size_t)ev->cpu * (size_t)nodes + (size_t)t->tasks[ti].kswapd_nid]++;
}

static void learn_cpu_nodes(struct rr_model *m, const uint32_t *votes)
{
	int nodes = m->trace->nr_nodes;

	for (int c = 0; c < m->nr_cpus; c++) {
		uint32_t best = 0;

		m->cpu_node[c] = RR_NID_NONE;
		for (int n = 0; n < nodes; n++) {
			if (votes[(size_t)c * (size_t)nodes + (size_t)n] > best) {
				best = votes[(size_t)c * (size_t)nodes + (size_t)n];
				m->cpu_node[c] = (int16_t)n;
			}
		}
	}
}

/* An episode's node is the node where its batches scanned most pages. */
static int attribute_episodes(struct rr_model *m, struct rr_trace *t)
{
	uint64_t scanned[RR_MAX_NODES];
	int16_t *throttle_nid = malloc(((size_t)m->nr_episodes + 1) * sizeof(*throttle_nid));

	if (!throttle_nid)
		return -ENOMEM;
	for (uint32_t e = 0; e < m->nr_episodes; e++)
		throttle_nid[e] = RR_NID_NONE;
	for (uint32_t k = 0; k < m->nr_throttles; k++) {
		const struct rr_throttle *th = &m->throttles[k];

		if (th->episode != RR_NONE && throttle_nid[th->episode] == RR_NID_NONE)
			throttle_nid[th->episode] = th->nid;
	}

	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		struct rr_episode *ep = &m->episodes[e];
		uint32_t lo = m->batches_by_episode.off[e], hi = m->batches_by_episode.off[e + 1];
		int best = -1;

		ep->first_batch = hi > lo ? m->batches_by_episode.idx[lo] : RR_NONE;
		ep->nr_batches = hi - lo;
		if (ep->nid != RR_NID_NONE)
			goto write_back;
		memset(scanned, 0, sizeof(scanned));
		for (uint32_t k = lo; k < hi; k++) {
			const struct rr_batch *bat = &m->batches[m->batches_by_episode.idx[k]];

			if (bat->nid != RR_NID_NONE && bat->shrink_event != RR_NONE)
				scanned[bat->nid] += (uint64_t)t->events[bat->shrink_event].v[0] + 1;
		}
		for (int n = 0; n < t->nr_nodes && n < RR_MAX_NODES; n++)
			if (scanned[n] && (best < 0 || scanned[n] > scanned[best]))
				best = n;
		if (best >= 0) {
			ep->nid = (int16_t)best;
			goto write_back;
		}
		/* No batch: a throttle inside it names the node. */
		if (throttle_nid[e] != RR_NID_NONE) {
			ep->nid = throttle_nid[e];
			goto write_back;
		}
		{
			uint32_t ev_i = ep->begin_event != RR_NONE ? ep->begin_event : ep->end_event;
			int cpu = ev_i != RR_NONE ? t->events[ev_i].cpu : -1;

			if (cpu >= 0 && cpu < m->nr_cpus && m->cpu_node[cpu] != RR_NID_NONE) {
				ep->nid = m->cpu_node[cpu];
				ep->flags |= RR_EPF_NID_FROM_CPU;
				m->episodes_nid_from_cpu++;
			} else {
				ep->nid = 0;
				ep->flags |= RR_EPF_NID_UNKNOWN;
				m->episodes_nid_unknown++;
			}
		}
write_back:
		if (ep->begin_event != RR_NONE)
			t->events[ep->begin_event].nid = ep->nid;
		if (ep->end_event != RR_NONE)
			t->events[ep->end_event].nid = ep->nid;
		if (ep->flags & RR_EPF_CUT_BY_LOSS)
			m->episodes_cut_by_loss++;
	}
	/* Legacy waits carry no nid: they take their episode's node. */
	for (uint32_t k = 0; k < m->nr_throttles; k++) {
		struct rr_throttle *th = &m->throttles[k];

		if (th->nid != RR_NID_NONE)
			continue;
		if (th->episode != RR_NONE)
			th->nid = m->episodes[th->episode].nid;
		else {
			int cpu = t->events[th->event].cpu;

			if (cpu < m->nr_cpus && m->cpu_node[cpu] != RR_NID_NONE) {
				th->nid = m->cpu_node[cpu];
			} else {
				/* counted and warned about (report/warnings.c) */
				th->nid = 0;
				m->throttles_nid_unknown++;
			}
		}
		t->events[th->event].nid = th->nid;
	}
	free(throttle_nid);
	return 0;
}

int rr_model_build(struct rr_trace *t, struct rr_model **out)
{
	struct task_index_job tj = { 0 };
	struct builder b = { 0 };
	struct rr_model *m;
	uint32_t *votes = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->trace = t;
	m->first_ts = t->first_record_ts;
	m->last_ts = t->last_record_ts;
	if (t->nr_events && t->events[0].ts < m->first_ts)
		m->first_ts = t->events[0].ts;
	if (t->nr_events && t->events[t->nr_events - 1].ts > m->last_ts)
		m->last_ts = t->events[t->nr_events - 1].ts;
	votes = cpu_node_votes(m);
	if (!votes)
		goto fail;
	b.m = m;
	b.t = t;
	b.ts = calloc(t->nr_tasks ? t->nr_tasks : 1, sizeof(*b.ts));
	b.loss_end = calloc((size_t)m->nr_cpus, sizeof(*b.loss_end));
	if (!b.ts || !b.loss_end)
		goto fail;
	for (size_t i = 0; i < t->nr_tasks; i++) {
		b.ts[i].episode = b.ts[i].softlimit = b.ts[i].kswapd = RR_NONE;
		b.ts[i].isolate = RR_NONE;
	}
	if (task_index_start(&tj, m, t))
		goto fail;
	for (size_t i = 0; i < t->nr_events; i++) {
		/*
		 * writeback_written's nr_pages is a budget: negative when
		 * overshot, LONG_MAX for background work; its clamps are normal.
		 */
		if ((t->events[i].flags & RR_EVF_CLAMPED) && t->events[i].type != RR_EV_WB_WRITTEN)
			m->events_clamped++;
		cpu_node_vote(m, votes, &t->events[i]);
		if (step(&b, (uint32_t)i))
			goto fail;
	}
	learn_cpu_nodes(m, votes);
	if (finish_open(&b))
		goto fail;
	if (build_csr(&m->batches_by_episode, m->nr_episodes, m->nr_batches, episode_key, m))
		goto fail;
	if (attribute_episodes(m, t))
		goto fail;
	/* by_node: after attribute_episodes(), the last writer of ev->nid */
	if (index_alloc(&m->by_node, (uint32_t)t->nr_nodes + 1, (uint32_t)t->nr_events) ||
	    event_index_fill(&m->by_node, t, node_key))
		goto fail;
	if (task_index_join(&tj))
		goto fail;
	ret = 0;
	*out = m;
fail:
	if (tj.started)		/* a failure before the join: the thread reads the trace */
		pthread_join(tj.thread, NULL);
	free(votes);
	free(b.ts);
	free(b.loss_end);
	free(b.pids);
	if (ret)
		rr_model_free(m);
	return ret;
}

static void free_index(struct rr_index *ix)
{
	free(ix->off);
	free(ix->idx);
}

void rr_model_free(struct rr_model *m)
{
	if (!m)
		return;
	free(m->episodes);
	free(m->batches);
	free(m->throttles);
	free_index(&m->by_node);
	free_index(&m->by_task);
	free_index(&m->batches_by_episode);
	free(m->cpu_node);
	free(m);
}
