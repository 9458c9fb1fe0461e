// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine's decisions and sleeps: fill a decision point from the
 * node curves, ask the policy, sleep until the wake condition or the
 * timeout (WRITEBACK waiters share a queue per node), and, for a task
 * released before the recorded resume, run its retry batches
 * (docs/model.md, section 5).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

/*
 * Only the changing figures the policy reads are looked up (g->reads); the
 * others stay 0. A built-in never reads them, a plugin gets them all.
 */
static void fill_point(struct engine *g, const struct rr_dpoint *p, uint64_t now,
		       struct rr_decision_point *dp)
{
	int nid = node_index(g, p->nid);
	const struct rr_node_curves *nc = &g->c->node[nid];

	memset(dp, 0, sizeof(*dp));
	dp->size = sizeof(*dp);
	dp->reason = p->reason;
	dp->site = p->site;
	dp->flags = p->flags;
	dp->nid = p->nid;
	dp->pid = p->pid;
	dp->now_ns = now;
	dp->hz = g->hz;
	dp->priority = p->priority;
	dp->recorded_timeout_ns = p->recorded_timeout_ns;
	dp->recorded_delayed_ns = p->recorded_delayed_ns;
	dp->batch_scanned = p->batch_scanned;
	dp->batch_reclaimed = p->batch_reclaimed;
	dp->batch_dirty = p->batch_dirty;
	dp->batch_congested = p->batch_congested;
	dp->batch_writeback = p->batch_writeback;
	dp->batch_immediate = p->batch_immediate;
	if (p->episode != RR_NONE) {
		dp->episode_reclaimed = g->eps[p->episode].reclaimed;
		/* the first node of the zonelist is the node the task reclaims first */
		if (g->m->episodes[p->episode].nid == p->nid)
			dp->flags |= RR_DP_FIRST_NODE;
	} else {
		dp->flags |= RR_DP_FIRST_NODE;
	}
	if (g->reads & RR_IN_NODE_SAMPLE) {
		const struct rr_counter_sample *s = rr_curve_sample_at_hinted(nc, now,
									      &g->hints[nid]);

		if (s) {
			dp->flags |= RR_DP_NODE_SAMPLED;
			dp->node_isolated = s->value[RR_C_NR_ISOLATED_ANON] +
				s->value[RR_C_NR_ISOLATED_FILE];
			dp->node_inactive = s->value[RR_C_NR_INACTIVE_ANON] +
				s->value[RR_C_NR_INACTIVE_FILE];
			dp->node_write_pending = s->value[RR_C_NR_DIRTY] +
				s->value[RR_C_NR_WRITEBACK];
			dp->node_reclaimable = s->value[RR_C_NR_INACTIVE_FILE] +
				s->value[RR_C_NR_ACTIVE_FILE];
		}
	}
	if (g->reads & RR_IN_EFFICIENCY) {
		int64_t eff = rr_curve_efficiency_ppm_hinted(nc, now, &g->hints[nid]);

		dp->node_efficiency_ppm = eff < 0 ? 0 : (uint32_t)eff;
	}
	if (g->reads & RR_IN_INFLIGHT)
		dp->device_inflight = rr_curve_inflight_at_hinted(g->c, now, &g->inflight_hint);
	if ((unsigned)p->nid < (unsigned)g->nr_nodes)
		dp->waiters[RR_POLICY_REASON_WRITEBACK] = (uint32_t)g->wbq[p->nid].n;
	if (g->reads & RR_READS_TASK_FIGURES)
		rr_task_figures_fill(&g->c->figures[p - g->d.points], dp);
}

/* Wake time of a sleep whose wake does not depend on other waiters. */
static uint64_t independent_wake(struct engine *g, const struct rr_dpoint *p, uint32_t task,
				 const struct rr_verdict *v, uint64_t start, uint64_t deadline)
{
	int nid = node_index(g, p->nid);
	const struct rr_node_curves *nc = &g->c->node[nid];
	uint64_t w = UINT64_MAX;

	switch (v->wake) {
	case RR_WAKE_RECORDED:
		/* exactly the recorded resume, whatever the timeout: the identity */
		if (p->flags & RR_DP_OBSERVED)
			return sleep_of(g, &g->tasks[task])->resume_rec;
		break;
	case RR_WAKE_ISOLATED:
		w = rr_curve_next_isolation_pass_hinted(nc, start, task, &g->hints[nid]);
		break;
	case RR_WAKE_PROGRESS:
		w = rr_curve_next_progress_hinted(nc, start, task, v->wake_efficiency_ppm,
						  &g->hints[nid]);
		break;
	case RR_WAKE_UNCONGESTED:
		w = rr_curve_uncongested_after(g->c, start, v->congestion_off);
		break;
	case RR_WAKE_WRITEBACK: {
		/* a waiter asked again inside a retry loop joins the queue as is */
		const struct wb_queue *q = &g->wbq[nid];

		w = rr_curve_written_exceeds_by_hinted(nc, start,
						       q->n ? &q->start_written : NULL,
						       (uint64_t)v->pages_per_waiter * (q->n + 1),
						       &g->hints[nid].written);
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

/*
 * How long a woken task waits for a cpu before it runs again. Pinned (the
 * fidelity replay of `validate`), a sleep the recording has a sched_wakeup
 * for waits what the recording measured (that wakeup to the resume):
 * usec_delayed runs until the task runs, so the predicted sleep must too.
 * Elsewhere the policy's own rescheduling delay: a free replay that waits
 * as recorded leaves a task woken a little late later at every following
 * sleep, in fuller WRITEBACK queues, and drifts (docs/model.md, section 5,
 * "Cpu wait"). The recorded policy resumes at the recorded time, which
 * holds that wait.
 */
static uint64_t cpu_wait(const struct engine *g, const struct rr_dpoint *p,
			 const struct rr_verdict *v)
{
	if (g->pinned && v->wake != RR_WAKE_RECORDED && p->throttle != RR_NONE) {
		const struct rr_throttle *th = &g->m->throttles[p->throttle];

		if (th->woken)
			return th->end - th->woken;
	}
	return v->extra_ns;
}

/*
 * The sleep as its tracepoint reports it, for a task off the cpu @len ns:
 * mm_vmscan_throttled's usec_delayed is timeout - remaining, so it stops at
 * the timeout however long the task then waited for a cpu; the legacy
 * congestion_wait events count that wait too (reference, sections 1.3, 4).
 */
static uint64_t counted_sleep(const struct engine *g, const struct rr_dpoint *p,
			      const struct rr_verdict *v, uint64_t len)
{
	if (len > v->timeout_ns && sleep_reason(g, p, v) < RR_REASON_LEGACY_CONGESTION_WAIT)
		return v->timeout_ns;
	return len;
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
int rr_engine_emit_span(struct engine *g, uint8_t kind, uint8_t ctx, uint8_t flags, int nid,
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
static uint64_t verdict_holds_until(struct engine *g, const struct rr_dpoint *p,
				    const struct rr_verdict *v, uint64_t t, uint64_t retry_eff)
{
	int nid = node_index(g, p->nid);
	uint64_t until = UINT64_MAX, x;

	if (!(v->inputs & RR_IN_DECLARED) || (v->inputs & (RR_IN_NOW | RR_IN_EFFICIENCY)))
		return t;
	/* retries at zero efficiency leave the episode's figures as they are */
	if ((v->inputs & RR_IN_EPISODE) && retry_eff)
		return t;
	if (v->inputs & RR_IN_NODE_SAMPLE) {
		x = rr_curve_next_sample_after_hinted(&g->c->node[nid], t, &g->hints[nid]);
		until = x < until ? x : until;
	}
	if (v->inputs & RR_IN_INFLIGHT) {
		x = rr_curve_next_inflight_after_hinted(g->c, t, &g->inflight_hint);
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
int rr_engine_finish_sleep(struct engine *g, uint32_t k, uint64_t w)
{
	struct task_run *tr = &g->tasks[k];
	struct sleep_ctx *sc = sleep_of(g, tr);
	const struct rr_dpoint *p = &g->d.points[sc->point];
	uint64_t t = w + sc->extra_ns, c = sc->resume_rec;
	uint64_t retry_eff = 0, retry_begin, retry_batches = 0;
	uint32_t guard = 0;
	int timed_out, ret;
	struct rr_verdict v;
	uint64_t v_until = 0;	/* v holds for retries before then */

	/* the batch's fields are 0 unless it ended in a shrink_inactive */
	if (p->batch_scanned)
		retry_eff = (uint64_t)p->batch_reclaimed * 1000000 / p->batch_scanned;

	uint64_t slept = counted_sleep(g, p, &sc->verdict, t - sc->start);

	/* the recorded sleep is counted as the kernel counted it */
	if (sc->verdict.sleep && sc->verdict.wake == RR_WAKE_RECORDED)
		slept = p->recorded_delayed_ns;
	timed_out = sc->verdict.wake == RR_WAKE_RECORDED ?
		p->recorded_delayed_ns >= p->recorded_timeout_ns : w >= sc->deadline;
	if (sc->verdict.sleep) {
		count_sleep(g, p, &sc->verdict, slept, timed_out);
		/* the slice lasts until the task runs again */
		ret = emit_sleep(g, p, &sc->verdict, sc->start, sc->verdict.wake ==
				 RR_WAKE_RECORDED ? slept : t - sc->start, timed_out);
		if (ret)
			return ret;
	}
	if (g->out->observed && p->throttle != RR_NONE) {
		struct rr_replayed_throttle *o = &g->out->observed[p->throttle];
		uint64_t woke = w < sc->deadline ? w : sc->deadline;

		o->slept = sc->verdict.sleep != 0;
		o->sleep_ns = sc->verdict.sleep ? slept : 0;
		o->timeout_ns = sc->verdict.timeout_ns;
		/* the part of the counted sleep after the wake */
		o->extra_ns = sc->verdict.sleep && sc->verdict.wake != RR_WAKE_RECORDED &&
			slept > woke - sc->start ? slept - (woke - sc->start) : 0;
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
		uint64_t deadline, w2, wait;

		synthetic_batch(g, tr, p->nid, &t, retry_eff);
		node_of(g, p->nid)->retry_batches++;
		retry_batches++;
		if (t >= c)
			break;
		/*
		 * A built-in's sleep verdict is a function of the point's
		 * fields: until a declared input changes it is the one given
		 * at the previous retry, so it is not asked for again.
		 */
		if (t >= v_until) {
			ret = ask_policy(g, p, t, 1, &v);
			if (ret)
				return ret;
			v_until = v.sleep && (g->reads & RR_READS_BUILTIN) ?
				verdict_holds_until(g, p, &v, t, retry_eff) : 0;
		}
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
		wait = v.extra_ns;	/* never pinned here: pinned tasks resume at c */
		if (w2 + wait > c) {
			count_sleep(g, p, &v, counted_sleep(g, p, &v, c - t), 0);
			ret = emit_sleep(g, p, &v, t, c - t, 0);
			if (ret)
				return ret;
			t = c;
			break;
		}
		count_sleep(g, p, &v, counted_sleep(g, p, &v, w2 + wait - t), w2 >= deadline);
		ret = emit_sleep(g, p, &v, t, w2 + wait - t, w2 >= deadline);
		if (ret)
			return ret;
		t = w2 + wait;
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
	g->free_sleeps[g->nr_free++] = tr->sleep;	/* the sleep is over */
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
	q->wake_at = rr_curve_written_exceeds_hinted(nc, now, q->start_written +
						     (uint64_t)q->pages_per_waiter * q->n,
						     &g->hints[nid].written);
	for (size_t i = 0; i < q->n; i++) {
		struct task_run *tr = &g->tasks[q->task[i]];
		uint64_t deadline = sleep_of(g, tr)->deadline;
		uint64_t key = q->wake_at < deadline ? q->wake_at : deadline;

		tr->version++;
		if (rr_heap_push(&g->heap, key, q->task[i], tr->version))
			return -ENOMEM;
	}
	return 0;
}

/* A WRITEBACK waiter's heap entry fired at @now: all wake, or it timed out. */
int rr_engine_wbq_fire(struct engine *g, uint32_t k, uint64_t now)
{
	const struct rr_dpoint *p = &g->d.points[sleep_of(g, &g->tasks[k])->point];
	int nid = node_index(g, p->nid);
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
			ret = rr_engine_finish_sleep(g, woken[i], now);
			if (!ret && woken[i] != k)
				ret = rr_heap_push(&g->heap, now, woken[i], g->tasks[woken[i]].version);
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
	ret = rr_engine_finish_sleep(g, k, now);
	return ret ? ret : wbq_rekey(g, nid, now);
}

/* A free sleep context for task @tr; may move the others. */
static int take_sleep_slot(struct engine *g, struct task_run *tr)
{
	if (!g->nr_free) {
		uint32_t ncap = g->nr_sleeps ? 2 * g->nr_sleeps : 64;
		struct sleep_ctx *ns = realloc(g->sleeps, ncap * sizeof(*ns));
		uint32_t *nf;

		if (!ns)
			return -ENOMEM;
		g->sleeps = ns;
		nf = realloc(g->free_sleeps, ncap * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		g->free_sleeps = nf;
		/* the new slots, the lowest taken first */
		for (uint32_t i = ncap; i > g->nr_sleeps; i--)
			g->free_sleeps[g->nr_free++] = i - 1;
		g->nr_sleeps = ncap;
	}
	tr->sleep = g->free_sleeps[--g->nr_free];
	return 0;
}

int rr_engine_start_sleep(struct engine *g, uint32_t k, uint32_t point, uint64_t s)
{
	struct task_run *tr = &g->tasks[k];
	struct sleep_ctx *sc;
	const struct rr_dpoint *p = &g->d.points[point];
	int nid = node_index(g, p->nid);
	int ret;

	if (take_sleep_slot(g, tr))
		return -ENOMEM;
	sc = sleep_of(g, tr);
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
		return rr_engine_finish_sleep(g, k, s);
	sc->deadline = s + sc->verdict.timeout_ns;
	sc->extra_ns = cpu_wait(g, p, &sc->verdict);
	tr->state = TASK_SLEEPING;
	tr->version++;
	if (sc->verdict.wake == RR_WAKE_WRITEBACK) {
		struct wb_queue *q = &g->wbq[nid];

		if (!q->n)
			q->start_written = rr_curve_written_at_hinted(&g->c->node[nid], s,
								      &g->hints[nid].written);
		q->pages_per_waiter = sc->verdict.pages_per_waiter;
		if (wbq_add(q, k))
			return -ENOMEM;
		return wbq_rekey(g, nid, s);
	}
	return rr_heap_push(&g->heap, independent_wake(g, p, k, &sc->verdict, s, sc->deadline),
			 k, tr->version);
}

