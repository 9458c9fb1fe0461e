// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine: a discrete-event simulation of every task's timeline
 * under one policy. Each task runs on its own clock (recorded time plus a
 * shift); a sleep the policy makes longer shifts the task's later events
 * later, a shorter one earlier. Node curves do not move (docs/model.md).
 * Tasks advance in order of their replayed time, so the simulated
 * WRITEBACK waiters of a node see each other's arrivals and departures.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int heap_push(struct heap *h, uint64_t key, uint32_t task, uint32_t version)
{
	size_t i;

	if (h->n == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 256;
		struct heap_entry *ne = realloc(h->e, ncap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		h->e = ne;
		h->cap = ncap;
	}
	i = h->n++;
	while (i) {
		size_t parent = (i - 1) / 2;

		if (h->e[parent].key < key || (h->e[parent].key == key && h->e[parent].task <= task))
			break;
		h->e[i] = h->e[parent];
		i = parent;
	}
	h->e[i] = (struct heap_entry){ key, task, version };
	return 0;
}

static struct heap_entry heap_pop(struct heap *h)
{
	struct heap_entry top = h->e[0], last = h->e[--h->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct heap_entry *best = &last;

		if (l < h->n && (h->e[l].key < best->key ||
				 (h->e[l].key == best->key && h->e[l].task < best->task))) {
			m = l;
			best = &h->e[l];
		}
		if (r < h->n && (h->e[r].key < best->key ||
				 (h->e[r].key == best->key && h->e[r].task < best->task)))
			m = r;
		if (m == i)
			break;
		h->e[i] = h->e[m];
		i = m;
	}
	if (h->n)
		h->e[i] = last;
	return top;
}

static uint64_t add_shift(uint64_t ts, int64_t shift)
{
	int64_t v = (int64_t)ts + shift;

	return v < 0 ? 0 : (uint64_t)v;
}

static struct rr_replay_node *node_of(struct engine *g, int nid)
{
	if (nid < 0 || nid >= g->out->nr_nodes)
		nid = 0;
	return &g->out->nodes[nid];
}

static void account_batch(struct engine *g, int nid, uint64_t scanned, uint64_t reclaimed)
{
	struct rr_replay_node *n = node_of(g, nid);

	n->scanned += scanned;
	n->reclaimed += reclaimed;
	n->batches++;
	/* as in stats: a batch that scanned nothing is no unproductive batch */
	if (scanned && reclaimed * 8 <= scanned)
		n->unproductive_batches++;
}

static void fill_point(struct engine *g, const struct rr_dpoint *p, uint64_t now,
		       struct rr_decision_point *dp)
{
	const struct rr_trace *t = g->t;
	int nid = p->nid >= 0 && p->nid < g->c->nr_nodes ? p->nid : 0;
	const struct rr_node_curves *nc = &g->c->node[nid];
	const struct rr_counter_sample *s = rr_curve_sample_at_hinted(nc, now, &g->hints[nid]);
	int64_t eff = rr_curve_efficiency_ppm_hinted(nc, now, &g->hints[nid]);

	memset(dp, 0, sizeof(*dp));
	dp->size = sizeof(*dp);
	dp->reason = p->reason;
	dp->site = p->site;
	dp->flags = p->flags;
	dp->nid = p->nid;
	dp->pid = p->task != RR_NO_TASK ? t->tasks[p->task].pid : 0;
	dp->now_ns = now;
	dp->hz = g->hz;
	dp->priority = -1;
	dp->recorded_timeout_ns = p->recorded_timeout_ns;
	dp->recorded_delayed_ns = p->recorded_delayed_ns;
	if (p->batch != RR_NONE) {
		const struct rr_event *sh = &t->events[g->m->batches[p->batch].shrink_event];

		if (sh->type == RR_EV_SHRINK_INACTIVE) {
			dp->priority = sh->aux;
			dp->batch_scanned = sh->v[RR_V_SI_SCANNED];
			dp->batch_reclaimed = sh->v[RR_V_SI_RECLAIMED];
			dp->batch_dirty = sh->v[RR_V_SI_DIRTY];
			dp->batch_congested = sh->v[RR_V_SI_CONGESTED];
			dp->batch_writeback = sh->v[RR_V_SI_WRITEBACK];
			dp->batch_immediate = sh->v[RR_V_SI_IMMEDIATE];
		}
	}
	if (p->episode != RR_NONE) {
		dp->episode_reclaimed = g->eps[p->episode].reclaimed;
		/* the first node of the zonelist is the node the task reclaims first */
		if (g->m->episodes[p->episode].nid == p->nid)
			dp->flags |= RR_DP_FIRST_NODE;
	} else {
		dp->flags |= RR_DP_FIRST_NODE;
	}
	if (s) {
		dp->flags |= RR_DP_NODE_SAMPLED;
		dp->node_isolated = s->value[RR_C_NR_ISOLATED_ANON] + s->value[RR_C_NR_ISOLATED_FILE];
		dp->node_inactive = s->value[RR_C_NR_INACTIVE_ANON] + s->value[RR_C_NR_INACTIVE_FILE];
		dp->node_write_pending = s->value[RR_C_NR_DIRTY] + s->value[RR_C_NR_WRITEBACK];
		dp->node_reclaimable = s->value[RR_C_NR_INACTIVE_FILE] + s->value[RR_C_NR_ACTIVE_FILE];
	}
	dp->node_efficiency_ppm = eff < 0 ? 0 : (uint32_t)eff;
	dp->device_inflight = rr_curve_inflight_at_hinted(g->c, now, &g->inflight_hint);
	if (p->nid >= 0 && p->nid < g->out->nr_nodes)
		dp->waiters[RR_POLICY_REASON_WRITEBACK] = (uint32_t)g->wbq[p->nid].n;
	rr_task_figures_fill(&g->c->figures[p - g->d.points], dp);
}

/* Wake time of a sleep whose wake does not depend on other waiters. */
static uint64_t independent_wake(struct engine *g, const struct rr_dpoint *p, uint32_t task,
				 const struct rr_verdict *v, uint64_t start, uint64_t deadline)
{
	int nid = p->nid >= 0 && p->nid < g->c->nr_nodes ? p->nid : 0;
	const struct rr_node_curves *nc = &g->c->node[nid];
	uint64_t w = UINT64_MAX;

	switch (v->wake) {
	case RR_WAKE_RECORDED:
		/* exactly the recorded resume, whatever the timeout: the identity */
		if (p->flags & RR_DP_OBSERVED)
			return g->tasks[task].sleep.resume_rec;
		break;
	case RR_WAKE_ISOLATED:
		w = rr_curve_next_isolation_pass(nc, start, task);
		break;
	case RR_WAKE_PROGRESS:
		w = rr_curve_next_progress(nc, start, task, v->wake_efficiency_ppm);
		break;
	case RR_WAKE_UNCONGESTED:
		w = rr_curve_uncongested_after(g->c, start, v->congestion_off);
		break;
	case RR_WAKE_WRITEBACK: {
		/* a waiter asked again inside a retry loop joins the queue as is */
		const struct wb_queue *q = &g->wbq[nid];
		uint64_t base = q->n ? q->start_written : rr_curve_written_at(nc, start);

		w = rr_curve_written_exceeds(nc, start, base + (uint64_t)v->pages_per_waiter *
					     (q->n + 1));
		break;
	}
	default:
		break;
	}
	return w < deadline ? w : deadline;
}

/*
 * The reason a sleep is counted under: what the policy says it is (a legacy
 * policy's congestion_wait), the recorded one when replaying the recording
 * (so `recorded` reports legacy waits as stats does), else the point's.
 */
static unsigned sleep_reason(const struct engine *g, const struct rr_dpoint *p,
			     const struct rr_verdict *v)
{
	if (v->counted_as && v->counted_as <= RR_NR_REASONS)
		return v->counted_as - 1;
	if (v->wake == RR_WAKE_RECORDED && p->throttle != RR_NONE &&
	    g->m->throttles[p->throttle].reason < RR_NR_REASONS)
		return g->m->throttles[p->throttle].reason;
	return p->reason;
}

static void count_sleep(struct engine *g, const struct rr_dpoint *p, const struct rr_verdict *v,
			uint64_t slept, int timed_out)
{
	struct rr_replay_node *n = node_of(g, p->nid);
	unsigned r = sleep_reason(g, p, v);
	struct rr_sleep_stats *s = (p->flags & RR_DP_KSWAPD) ? &n->kswapd_sleeps[r] :
		&n->sleeps[r];

	s->count++;
	s->sleep_ns += slept;
	if (timed_out)
		s->timed_out++;
	else
		s->woken++;
}

/* Tell the observer about one closed slice of task @task's replayed timeline. */
static int emit_span(struct engine *g, uint8_t kind, uint8_t ctx, uint8_t flags, int nid,
		     uint32_t task, uint32_t index, uint64_t begin, uint64_t end)
{
	struct rr_replay_span s = {
		.kind = kind, .ctx = ctx, .flags = flags, .nid = nid, .task = task,
		.index = index, .begin_ns = begin, .end_ns = end >= begin ? end : begin,
	};

	if (!g->obs || !g->obs->span)
		return 0;
	return g->obs->span(g->obs->data, &s);
}

static int emit_sleep(struct engine *g, const struct rr_dpoint *p, const struct rr_verdict *v,
		      uint64_t begin, uint64_t slept, int timed_out)
{
	if (!g->obs)
		return 0;
	struct rr_replay_span s = {
		.kind = RR_SPAN_THROTTLE, .ctx = (uint8_t)sleep_reason(g, p, v),
		.flags = (timed_out ? RR_SPAN_TIMED_OUT : 0) |
			 ((p->flags & RR_DP_OBSERVED) ? RR_SPAN_RECORDED : 0),
		.nid = p->nid, .task = p->task, .index = p->throttle,
		.begin_ns = begin, .end_ns = begin + slept, .timeout_ns = v->timeout_ns,
	};

	if (!g->obs || !g->obs->span)
		return 0;
	return g->obs->span(g->obs->data, &s);
}

static int emit_retries(struct engine *g, const struct rr_dpoint *p, uint64_t begin,
			uint64_t end, uint64_t batches)
{
	if (!g->obs)
		return 0;
	struct rr_replay_span s = {
		.kind = RR_SPAN_RETRY, .ctx = p->reason, .nid = p->nid, .task = p->task,
		.index = p->throttle, .begin_ns = begin, .end_ns = end, .batches = batches,
	};

	if (!g->obs || !g->obs->span || !batches)
		return 0;
	return g->obs->span(g->obs->data, &s);
}

static int ask_policy(struct engine *g, const struct rr_dpoint *p, uint64_t now, int retry,
		      struct rr_verdict *v)
{
	struct rr_decision_point dp;
	int ret;

	fill_point(g, p, now, &dp);
	if (retry)
		dp.flags |= RR_DP_RETRY;
	memset(v, 0, sizeof(*v));
	ret = g->pol->ops->decide(g->pol->priv, &dp, v);
	if (ret)
		return ret;
	if (v->sleep && p->reason > RR_POLICY_REASON_CONGESTED)
		v->sleep = 0;
	return 0;
}

/*
 * Until when a "no sleep" verdict given at @t to a retry of @p holds: the
 * first change of an input the verdict declared (struct rr_verdict.inputs).
 * @t itself when it cannot be reused. Other tasks do not move while one
 * task's retries run, so the waiters stay as they are.
 */
static uint64_t verdict_holds_until(const struct engine *g, const struct rr_dpoint *p,
				    const struct rr_verdict *v, uint64_t t, uint64_t retry_eff)
{
	int nid = p->nid >= 0 && p->nid < g->c->nr_nodes ? p->nid : 0;
	uint64_t until = UINT64_MAX, x;

	if (!(v->inputs & RR_IN_DECLARED) || (v->inputs & (RR_IN_NOW | RR_IN_EFFICIENCY)))
		return t;
	/* retries at zero efficiency leave the episode's figures as they are */
	if ((v->inputs & RR_IN_EPISODE) && retry_eff)
		return t;
	if (v->inputs & RR_IN_NODE_SAMPLE) {
		x = rr_curve_next_sample_after(&g->c->node[nid], t);
		until = x < until ? x : until;
	}
	if (v->inputs & RR_IN_INFLIGHT) {
		x = rr_curve_next_inflight_after(g->c, t);
		until = x < until ? x : until;
	}
	return until;
}

/* A batch the task runs again because it was released early, at the
 * efficiency of the batch that led to the throttle: the condition persists
 * until the recorded resume. */
static void synthetic_batch(struct engine *g, struct task_run *tr, int nid, uint64_t *t,
			    uint64_t eff_ppm)
{
	uint64_t scanned = tr->last_batch_scanned ? tr->last_batch_scanned : MIN_NEED_PAGES;
	uint64_t len = tr->last_batch_ns ? tr->last_batch_ns : DEFAULT_BATCH_NS;
	uint64_t reclaimed = scanned * eff_ppm / 1000000;

	account_batch(g, nid, scanned, reclaimed);
	if (tr->episode != RR_NONE)
		g->eps[tr->episode].reclaimed += reclaimed;
	*t += len;
}

/* @n synthetic_batch() calls at once (time is advanced by the caller). */
static void synthetic_batches(struct engine *g, struct task_run *tr, int nid, uint64_t n,
			      uint64_t eff_ppm)
{
	uint64_t scanned = tr->last_batch_scanned ? tr->last_batch_scanned : MIN_NEED_PAGES;
	uint64_t reclaimed = scanned * eff_ppm / 1000000;
	struct rr_replay_node *rn = node_of(g, nid);

	if (!n)
		return;
	rn->scanned += n * scanned;
	rn->reclaimed += n * reclaimed;
	rn->batches += n;
	if (reclaimed * 8 <= scanned)
		rn->unproductive_batches += n;
	if (tr->episode != RR_NONE)
		g->eps[tr->episode].reclaimed += n * reclaimed;
}

/*
 * The sleep of task @k ended at @w. Released before the recorded resume, it
 * goes back to reclaim while the condition persists: retry batches, asking
 * the policy again after each. Released later, its later events move later.
 */
static int finish_sleep(struct engine *g, uint32_t k, uint64_t w)
{
	struct task_run *tr = &g->tasks[k];
	struct sleep_ctx *sc = &tr->sleep;
	const struct rr_dpoint *p = &g->d.points[sc->point];
	uint64_t t = w + sc->extra_ns, c = sc->resume_rec;
	uint64_t retry_eff = 0, retry_begin, retry_batches = 0;
	uint32_t guard = 0;
	int timed_out, ret;

	if (p->batch != RR_NONE) {
		const struct rr_event *sh = &g->t->events[g->m->batches[p->batch].shrink_event];

		if (sh->type == RR_EV_SHRINK_INACTIVE && sh->v[RR_V_SI_SCANNED])
			retry_eff = (uint64_t)sh->v[RR_V_SI_RECLAIMED] * 1000000 /
				sh->v[RR_V_SI_SCANNED];
	}

	uint64_t slept = t - sc->start;

	/* the recorded sleep is counted as the kernel counted it */
	if (sc->verdict.sleep && sc->verdict.wake == RR_WAKE_RECORDED)
		slept = p->recorded_delayed_ns;
	timed_out = sc->verdict.wake == RR_WAKE_RECORDED ?
		p->recorded_delayed_ns >= p->recorded_timeout_ns : w >= sc->deadline;
	if (sc->verdict.sleep) {
		count_sleep(g, p, &sc->verdict, slept, timed_out);
		ret = emit_sleep(g, p, &sc->verdict, sc->start, slept, timed_out);
		if (ret)
			return ret;
	}
	if (g->out->observed && p->throttle != RR_NONE) {
		struct rr_replayed_throttle *o = &g->out->observed[p->throttle];

		o->slept = sc->verdict.sleep != 0;
		o->sleep_ns = sc->verdict.sleep ? slept : 0;
		o->timeout_ns = sc->verdict.timeout_ns;
		o->extra_ns = sc->verdict.extra_ns;
		o->timed_out = sc->verdict.sleep && w >= sc->deadline;
	}
	if (g->pinned)
		t = c;
	if (t < c) {
		/*
		 * Retries end at the recorded resume: a longer sleep leaves a
		 * subset of the same retries, which keeps the model monotone
		 * in the timeouts (docs/model.md, "Released early").
		 */
		uint64_t len = tr->last_batch_ns ? tr->last_batch_ns : DEFAULT_BATCH_NS;

		t += (c - t) % len;
	}
	retry_begin = t;
	while (t < c) {
		if (guard++ == MAX_RETRIES_PER_SLEEP) {
			t = c;	/* time passes even when we stop counting retries */
			break;
		}
		struct rr_verdict v;
		uint64_t deadline, w2;

		synthetic_batch(g, tr, p->nid, &t, retry_eff);
		node_of(g, p->nid)->retry_batches++;
		retry_batches++;
		if (t >= c)
			break;
		ret = ask_policy(g, p, t, 1, &v);
		if (ret)
			return ret;
		if (!v.sleep) {
			/*
			 * The same answer holds for every retry until a declared
			 * input changes: run those batches at once. Each ends len
			 * after the previous; the loop asks again at the first
			 * one ending at or after the horizon.
			 */
			uint64_t len = tr->last_batch_ns ? tr->last_batch_ns : DEFAULT_BATCH_NS;
			uint64_t h = verdict_holds_until(g, p, &v, t, retry_eff), n;

			if (h > c)
				h = c;
			n = h > t ? (h - t - 1) / len : 0;
			if (n > MAX_RETRIES_PER_SLEEP - guard)
				n = MAX_RETRIES_PER_SLEEP - guard;
			synthetic_batches(g, tr, p->nid, n, retry_eff);
			node_of(g, p->nid)->retry_batches += n;
			retry_batches += n;
			guard += (uint32_t)n;
			t += n * len;
			continue;
		}
		ret = emit_retries(g, p, retry_begin, t, retry_batches);
		if (ret)
			return ret;
		retry_batches = 0;
		/* the condition that caused the throttle clears at c: a sleep
		 * taken again meanwhile ends by then (keeps the model monotone) */
		deadline = t + v.timeout_ns;
		w2 = independent_wake(g, p, k, &v, t, deadline);
		if (w2 + v.extra_ns > c) {
			count_sleep(g, p, &v, c - t, 0);
			ret = emit_sleep(g, p, &v, t, c - t, 0);
			if (ret)
				return ret;
			t = c;
			break;
		}
		count_sleep(g, p, &v, w2 + v.extra_ns - t, w2 >= deadline);
		ret = emit_sleep(g, p, &v, t, w2 + v.extra_ns - t, w2 >= deadline);
		if (ret)
			return ret;
		t = w2 + v.extra_ns;
		t += (c - t) % (tr->last_batch_ns ? tr->last_batch_ns : DEFAULT_BATCH_NS);
		retry_begin = t;
	}
	ret = emit_retries(g, p, retry_begin, t, retry_batches);
	if (ret)
		return ret;
	/* the task's recorded continuation follows the recorded resume (or,
	 * after a latent point, the decision) and now starts at t */
	if (p->flags & RR_DP_OBSERVED)
		tr->shift = (int64_t)t - (int64_t)p->end;
	else
		tr->shift += (int64_t)t - (int64_t)sc->start;
	tr->state = TASK_RUNNING;
	return 0;
}

static int wbq_add(struct wb_queue *q, uint32_t k)
{
	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 8;
		uint32_t *nt = realloc(q->task, ncap * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		q->task = nt;
		q->cap = ncap;
	}
	q->task[q->n++] = k;
	return 0;
}

/* Re-time a node's WRITEBACK queue after an arrival or departure at @now. */
static int wbq_rekey(struct engine *g, int nid, uint64_t now)
{
	struct wb_queue *q = &g->wbq[nid];
	const struct rr_node_curves *nc = &g->c->node[nid];

	if (!q->n)
		return 0;
	q->wake_at = rr_curve_written_exceeds(nc, now, q->start_written +
					      (uint64_t)q->pages_per_waiter * q->n);
	for (size_t i = 0; i < q->n; i++) {
		struct task_run *tr = &g->tasks[q->task[i]];
		uint64_t key = q->wake_at < tr->sleep.deadline ? q->wake_at : tr->sleep.deadline;

		tr->version++;
		if (heap_push(&g->heap, key, q->task[i], tr->version))
			return -ENOMEM;
	}
	return 0;
}

/* A WRITEBACK waiter's heap entry fired at @now: all wake, or it timed out. */
static int wbq_fire(struct engine *g, uint32_t k, uint64_t now)
{
	const struct rr_dpoint *p = &g->d.points[g->tasks[k].sleep.point];
	int nid = p->nid >= 0 && p->nid < g->out->nr_nodes ? p->nid : 0;
	struct wb_queue *q = &g->wbq[nid];
	int ret;

	if (now >= q->wake_at) {
		/* wake_up() on the queue: every waiter runs again */
		size_t n = q->n;
		uint32_t *woken = malloc((n ? n : 1) * sizeof(*woken));

		if (!woken)
			return -ENOMEM;
		memcpy(woken, q->task, n * sizeof(*woken));
		q->n = 0;
		for (size_t i = 0; i < n; i++) {
			g->tasks[woken[i]].version++;
			ret = finish_sleep(g, woken[i], now);
			if (!ret && woken[i] != k)
				ret = heap_push(&g->heap, now, woken[i], g->tasks[woken[i]].version);
			if (ret) {
				free(woken);
				return ret;
			}
		}
		free(woken);
		return 0;
	}
	/* timed out: it leaves, the threshold for the others drops */
	for (size_t i = 0; i < q->n; i++) {
		if (q->task[i] == k) {
			q->task[i] = q->task[--q->n];
			break;
		}
	}
	g->tasks[k].version++;
	ret = finish_sleep(g, k, now);
	return ret ? ret : wbq_rekey(g, nid, now);
}

static int start_sleep(struct engine *g, uint32_t k, uint32_t point, uint64_t s)
{
	struct task_run *tr = &g->tasks[k];
	struct sleep_ctx *sc = &tr->sleep;
	const struct rr_dpoint *p = &g->d.points[point];
	int nid = p->nid >= 0 && p->nid < g->out->nr_nodes ? p->nid : 0;
	int ret;

	memset(sc, 0, sizeof(*sc));
	sc->point = point;
	sc->start = s;
	/* Node curves do not move, so the recorded condition clears at the
	 * recorded resume whatever the task's own clock says; a latent point
	 * has no recorded sleep: its condition is gone at once. */
	sc->resume_rec = (p->flags & RR_DP_OBSERVED) ? p->end : s;
	ret = ask_policy(g, p, s, 0, &sc->verdict);
	if (ret)
		return ret;
	if (!sc->verdict.sleep)
		return finish_sleep(g, k, s);
	sc->deadline = s + sc->verdict.timeout_ns;
	sc->extra_ns = sc->verdict.extra_ns;
	tr->state = TASK_SLEEPING;
	tr->version++;
	if (sc->verdict.wake == RR_WAKE_WRITEBACK) {
		struct wb_queue *q = &g->wbq[nid];

		if (!q->n)
			q->start_written = rr_curve_written_at(&g->c->node[nid], s);
		q->pages_per_waiter = sc->verdict.pages_per_waiter;
		if (wbq_add(q, k))
			return -ENOMEM;
		return wbq_rekey(g, nid, s);
	}
	return heap_push(&g->heap, independent_wake(g, p, k, &sc->verdict, s, sc->deadline),
			 k, tr->version);
}

static int record_stall(struct engine *g, int nid, uint64_t len)
{
	size_t n;

	if (nid < 0 || nid >= g->out->nr_nodes)
		nid = 0;
	n = (size_t)nid;
	if (g->nr_stall[n] == g->cap_stall[n]) {
		size_t ncap = g->cap_stall[n] ? g->cap_stall[n] * 2 : 256;
		uint64_t *p = realloc(g->stall_ns[n], ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->stall_ns[n] = p;
		g->cap_stall[n] = ncap;
	}
	g->stall_ns[n][g->nr_stall[n]++] = len;
	return 0;
}

static int is_stall_kind(uint8_t kind)
{
	return kind == RR_CTX_DIRECT || kind == RR_CTX_MEMCG || kind == RR_CTX_NODE;
}

static int episode_end(struct engine *g, struct task_run *tr, uint32_t e)
{
	const struct rr_episode *ep = &g->m->episodes[e];
	struct episode_run *er = &g->eps[e];
	uint64_t end = add_shift(ep->end, tr->shift);

	int ret;

	if (tr->episode == e)
		tr->episode = RR_NONE;
	ret = emit_span(g, RR_SPAN_EPISODE, ep->kind, er->open ? RR_SPAN_OPEN : 0, ep->nid,
			ep->task, e, er->begin, end);
	if (ret)
		return ret;
	if (er->open || !is_stall_kind(ep->kind))
		return 0;
	return record_stall(g, ep->nid, end > er->begin ? end - er->begin : 0);
}

/*
 * A recorded batch keeps its recorded outcome, unless it runs later than
 * recorded and the node reclaimed better meanwhile (late_batches.c). Ending
 * episodes early once their need was met made stall non-monotone in the
 * timeouts on real traces, so episodes keep their extent (docs/model.md,
 * "Deviations").
 */
static void batch_item(struct engine *g, struct task_run *tr, uint32_t b_index)
{
	const struct rr_batch *b = &g->m->batches[b_index];
	const struct rr_event *sh = &g->t->events[b->shrink_event];
	uint64_t reclaimed;

	/*
	 * A retry costs what one batch cost the task: from its previous
	 * batch's end to this one's (the reclaim loop around the batch
	 * included), at least isolate-to-shrink, at most MAX_BATCH_NS when
	 * the task did other things in between.
	 */
	{
		uint64_t work = b->isolate_event != RR_NONE ?
			sh->ts - g->t->events[b->isolate_event].ts : 0;
		uint64_t period = tr->last_shrink_ts && sh->ts > tr->last_shrink_ts ?
			sh->ts - tr->last_shrink_ts : work;

		if (period > MAX_BATCH_NS)
			period = work > MAX_BATCH_NS ? MAX_BATCH_NS : work;
		tr->last_batch_ns = period > MIN_BATCH_NS ? period : MIN_BATCH_NS;
		tr->last_shrink_ts = sh->ts;
	}
	if (sh->type != RR_EV_SHRINK_INACTIVE)
		return;
	tr->last_batch_scanned = sh->v[RR_V_SI_SCANNED];
	reclaimed = sh->v[RR_V_SI_RECLAIMED];
	if (tr->shift > 0 && !g->pinned) {
		int nid = b->nid >= 0 && b->nid < g->c->nr_nodes ? b->nid : 0;
		uint64_t r = rr_late_batch_reclaimed(&g->c->node[nid], sh->ts,
						     add_shift(sh->ts, tr->shift),
						     sh->v[RR_V_SI_SCANNED], reclaimed);

		if (r > reclaimed) {
			node_of(g, b->nid)->late_batches++;
			node_of(g, b->nid)->late_extra_reclaimed += r - reclaimed;
			reclaimed = r;
		}
	}
	account_batch(g, b->nid, sh->v[RR_V_SI_SCANNED], reclaimed);
	if (b->episode != RR_NONE)
		g->eps[b->episode].reclaimed += reclaimed;
}

/* Walk task @k's items until it sleeps or its next item lies after others'. */
static int run_task(struct engine *g, uint32_t k)
{
	struct task_run *tr = &g->tasks[k];

	while (tr->cursor < tr->end) {
		const struct rr_item *it = &g->d.items[tr->cursor];
		uint64_t at = add_shift(it->ts, tr->shift);

		/* yield to any task whose next step comes first */
		if (g->heap.n && g->heap.e[0].key < at)
			return heap_push(&g->heap, at, k, tr->version);
		tr->cursor++;
		switch (it->kind) {
		case RR_ITEM_EPISODE_BEGIN: {
			const struct rr_episode *ep = &g->m->episodes[it->index];
			struct episode_run *er = &g->eps[it->index];

			er->begin = at;
			er->open = (ep->flags & (RR_EPF_OPEN_AT_START | RR_EPF_OPEN_AT_END |
						 RR_EPF_CUT_BY_LOSS)) != 0;
			if (ep->kind != RR_CTX_SOFTLIMIT || tr->episode == RR_NONE)
				tr->episode = it->index;
			break;
		}
		case RR_ITEM_BATCH:
			batch_item(g, tr, it->index);
			break;
		case RR_ITEM_DECISION: {
			const struct rr_dpoint *p = &g->d.points[it->index];
			struct rr_replay_node *n = node_of(g, p->nid);

			if (p->flags & RR_DP_OBSERVED)
				n->decisions_observed++;
			else
				n->decisions_latent++;
			{
				int ret = start_sleep(g, k, it->index, at);

				if (ret)
					return ret;
			}
			if (tr->state == TASK_SLEEPING)
				return 0;
			break;
		}
		case RR_ITEM_EPISODE_END: {
			int ret = episode_end(g, tr, it->index);

			if (ret)
				return ret;
			break;
		}
		}
	}
	tr->state = TASK_DONE;
	return 0;
}

static int engine_init(struct engine *g, const struct rr_model *m, const struct rr_curves *c,
		       const struct rr_policy_instance *pol, struct rr_replay_result *out)
{
	size_t nn;

	memset(g, 0, sizeof(*g));
	g->m = m;
	g->t = m->trace;
	g->c = c;
	g->pol = pol;
	g->out = out;
	g->hz = rr_model_hz(m, NULL);
	g->dd = rr_curves_decisions(c);
	if (!g->dd)
		return -ENOMEM;
	g->d = *g->dd;
	memset(out, 0, sizeof(*out));
	snprintf(out->policy, sizeof(out->policy), "%s", pol->label);
	out->nr_nodes = c->nr_nodes;
	out->sampled = c->sampled;
	out->hz = g->hz;
	nn = (size_t)c->nr_nodes;
	out->nodes = calloc(nn, sizeof(*out->nodes));
	out->nr_observed = m->nr_throttles;
	out->observed = calloc((size_t)m->nr_throttles + 1, sizeof(*out->observed));
	g->tasks = calloc(g->t->nr_tasks + 1, sizeof(*g->tasks));
	g->eps = calloc((size_t)m->nr_episodes + 1, sizeof(*g->eps));
	g->wbq = calloc(nn, sizeof(*g->wbq));
	g->hints = calloc(nn, sizeof(*g->hints));
	g->stall_ns = calloc(nn, sizeof(*g->stall_ns));
	g->nr_stall = calloc(nn, sizeof(*g->nr_stall));
	g->cap_stall = calloc(nn, sizeof(*g->cap_stall));
	if (!out->nodes || !out->observed || !g->tasks || !g->eps || !g->wbq || !g->hints ||
	    !g->stall_ns ||
	    !g->nr_stall || !g->cap_stall)
		return -ENOMEM;
	for (size_t n = 0; n < nn; n++)
		out->nodes[n].nid = (int)n;
	for (uint32_t i = 0; i < m->nr_throttles; i++)
		out->observed[i].throttle = i;
	for (uint32_t k = 0; k < g->d.nr_tasks; k++) {
		g->tasks[k].cursor = g->d.task_off[k];
		g->tasks[k].end = g->d.task_off[k + 1];
		g->tasks[k].episode = RR_NONE;
	}
	return 0;
}

static void engine_release(struct engine *g)
{
	for (int n = 0; g->wbq && n < g->out->nr_nodes; n++)
		free(g->wbq[n].task);
	for (int n = 0; g->stall_ns && n < g->out->nr_nodes; n++)
		free(g->stall_ns[n]);
	free(g->wbq);
	free(g->hints);
	free(g->stall_ns);
	free(g->nr_stall);
	free(g->cap_stall);
	free(g->tasks);
	free(g->eps);
	free(g->heap.e);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(const uint64_t *v, size_t n, unsigned p)
{
	size_t rank = (n * p + 99) / 100;

	return n ? v[rank ? rank - 1 : 0] : 0;
}

static void finish_metrics(struct engine *g)
{
	for (int n = 0; n < g->out->nr_nodes; n++) {
		struct rr_replay_node *rn = &g->out->nodes[n];
		uint64_t *v = g->stall_ns[n];
		size_t cnt = g->nr_stall[n];

		if (cnt)
			qsort(v, cnt, sizeof(*v), cmp_u64);
		rn->stall.count = cnt;
		for (size_t i = 0; i < cnt; i++)
			rn->stall.total_ns += v[i];
		rn->stall.p50_ns = pct(v, cnt, 50);
		rn->stall.p90_ns = pct(v, cnt, 90);
		rn->stall.p99_ns = pct(v, cnt, 99);
		rn->stall.max_ns = cnt ? v[cnt - 1] : 0;
		rn->stall_ns = rn->stall.total_ns;
		rn->wasted = rn->scanned > rn->reclaimed ? rn->scanned - rn->reclaimed : 0;
	}
}

static int replay(const struct rr_model *m, const struct rr_curves *c,
		  const struct rr_policy_instance *pol, const struct rr_replay_observer *obs,
		  struct rr_replay_result *out, int pinned)
{
	struct engine g;
	int ret = engine_init(&g, m, c, pol, out);

	g.pinned = pinned;
	g.obs = obs;
	if (ret)
		goto out;
	for (uint32_t k = 0; k < g.d.nr_tasks; k++) {
		if (g.tasks[k].cursor < g.tasks[k].end &&
		    (ret = heap_push(&g.heap, g.d.items[g.tasks[k].cursor].ts, k, 0)))
			goto out;
	}
	while (g.heap.n) {
		struct heap_entry e = heap_pop(&g.heap);
		struct task_run *tr = &g.tasks[e.task];

		if (e.version != tr->version || tr->state == TASK_DONE)
			continue;
		if (tr->state == TASK_SLEEPING) {
			if (tr->sleep.verdict.wake == RR_WAKE_WRITEBACK)
				ret = wbq_fire(&g, e.task, e.key);
			else
				ret = finish_sleep(&g, e.task, e.key);
			if (ret)
				goto out;
		}
		ret = run_task(&g, e.task);
		if (ret)
			goto out;
	}
	finish_metrics(&g);
out:
	engine_release(&g);
	if (ret)
		rr_replay_result_release(out);
	return ret;
}

int rr_replay(const struct rr_model *m, const struct rr_curves *c,
	      const struct rr_policy_instance *pol, struct rr_replay_result *out)
{
	return replay(m, c, pol, NULL, out, 0);
}

int rr_replay_observed(const struct rr_model *m, const struct rr_curves *c,
		       const struct rr_policy_instance *pol, const struct rr_replay_observer *obs,
		       struct rr_replay_result *out)
{
	return replay(m, c, pol, obs, out, 0);
}

int rr_replay_pinned(const struct rr_model *m, const struct rr_curves *c,
		     const struct rr_policy_instance *pol, struct rr_replay_result *out)
{
	return replay(m, c, pol, NULL, out, 1);
}

void rr_replay_result_release(struct rr_replay_result *r)
{
	free(r->nodes);
	free(r->observed);
	r->nodes = NULL;
	r->observed = NULL;
}
