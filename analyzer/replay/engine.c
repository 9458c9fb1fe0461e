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

#include "engine.h"
#include "select_u64.h"

int rr_heap_grow(struct heap *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 256;
	struct heap_entry *ne = realloc(h->e, ncap * sizeof(*ne));

	if (!ne)
		return -ENOMEM;
	h->e = ne;
	h->cap = ncap;
	return 0;
}


static int record_stall(struct engine *g, int nid, uint64_t len)
{
	size_t n;

	n = (size_t)node_index(g, nid);
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
	ret = rr_engine_emit_span(g, RR_SPAN_EPISODE, ep->kind, er->open ? RR_SPAN_OPEN : 0, ep->nid,
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
static void batch_item(struct engine *g, struct task_run *tr, uint32_t b_index, uint64_t sh_ts)
{
	const struct rr_batch_brief *b = &g->c->briefs[b_index];	/* sh_ts: its shrink's */
	uint64_t reclaimed;

	/*
	 * A retry costs what one batch cost the task: from its previous
	 * batch's end to this one's (the reclaim loop around the batch
	 * included), at least isolate-to-shrink, at most MAX_BATCH_NS when
	 * the task did other things in between.
	 */
	{
		uint64_t work = b->work_ns;
		uint64_t period = tr->last_shrink_ts && sh_ts > tr->last_shrink_ts ?
			sh_ts - tr->last_shrink_ts : work;

		if (period > MAX_BATCH_NS)
			period = work > MAX_BATCH_NS ? MAX_BATCH_NS : work;
		tr->last_batch_ns = period > MIN_BATCH_NS ? period : MIN_BATCH_NS;
		tr->last_shrink_ts = sh_ts;
	}
	if (!b->inactive)
		return;
	tr->last_batch_scanned = b->scanned;
	reclaimed = b->reclaimed;
	/* (a batch that reclaimed nothing or all it scanned keeps its outcome) */
	if (tr->shift > 0 && !g->pinned && reclaimed && reclaimed < b->scanned) {
		int nid = node_index(g, b->nid);
		uint64_t r;

		/* the recorded time's place among the node's batches is known */
		r = rr_late_batch_reclaimed_brief(&g->c->node[nid], b, sh_ts,
						  add_shift(sh_ts, tr->shift), &g->hints[nid]);

		if (r > reclaimed) {
			node_of(g, b->nid)->late_batches++;
			node_of(g, b->nid)->late_extra_reclaimed += r - reclaimed;
			reclaimed = r;
		}
	}
	account_batch(g, b->nid, b->scanned, reclaimed);
	if (b->episode != RR_NONE)
		g->eps[b->episode].reclaimed += reclaimed;
}

/*
 * A task that yields runs again only after others have: load what its next
 * item will read meanwhile. On traces of hundreds of tasks each resumption
 * otherwise starts with cache misses on the batch, point or episode, which
 * were most of a replay's time (docs/performance.md). A hint only.
 */
#define PREFETCH_AHEAD 2	/* items: a task often runs several in a row */

static inline void prefetch_item(const struct engine *g, const struct rr_item *it)
{
	switch (it->kind) {
	case RR_ITEM_BATCH:
		__builtin_prefetch(&g->c->briefs[it->index]);
		break;
	case RR_ITEM_DECISION:
		__builtin_prefetch(&g->d.points[it->index]);
		__builtin_prefetch((const char *)&g->d.points[it->index] +
				   sizeof(struct rr_dpoint) - 1);
		__builtin_prefetch(&g->c->figures[it->index]);
		__builtin_prefetch((const char *)&g->c->figures[it->index] +
				   sizeof(struct rr_task_figures) - 1);
		break;
	default:
		__builtin_prefetch(&g->m->episodes[it->index]);
		__builtin_prefetch(&g->eps[it->index], 1);
		break;
	}
}

/*
 * A heap entry left behind by a re-timed WRITEBACK waiter (older version),
 * or of a task that has finished: skipped when it comes out.
 */
static inline int entry_is_stale(const struct engine *g, const struct heap_entry *e)
{
	const struct task_run *tr = &g->tasks[e->task];

	return e->version != tr->version || tr->state == TASK_DONE;
}

/*
 * Does heap entry @e come before task @k's step at @at? Steps are taken in
 * (time, task) order, whichever task happens to be running, so that the
 * order of the steps that meet other tasks does not depend on how far a
 * task ran ahead through steps that meet nobody (run_task()).
 */
static inline int entry_comes_first(const struct heap_entry *e, uint64_t at, uint32_t k)
{
	return e->key < at || (e->key == at && e->task < k);
}

/*
 * The top of the heap comes before task @k's step at @at: is there a live
 * entry that does? Stale entries found on top are dropped first, so that a
 * task never yields to one: otherwise whether it yielded would depend on
 * where the heap happened to keep a stale entry that ties with a live one,
 * i.e. on the heap's shape rather than on the trace. Called only when the
 * caller has seen the top come first, which keeps the common path to one
 * comparison.
 */
static int live_entry_before(struct engine *g, uint64_t at, uint32_t k)
{
	do {
		if (!entry_is_stale(g, &g->heap.e[0]))
			return 1;
		(void)rr_heap_pop(&g->heap);
	} while (g->heap.n && entry_comes_first(&g->heap.e[0], at, k));
	return 0;
}

/*
 * Walk task @k's items until it sleeps or its next decision lies after
 * others' steps. Only a decision meets other tasks (the WRITEBACK waiters it
 * counts, the queue it joins, the wakes it takes part in); episodes and
 * batches change only the task's own state and sums whose order does not
 * matter, so the task runs through them without yielding. Yielding before
 * every item cost a heap operation and a cold resume per item, twice as
 * many as there are decisions (docs/performance.md, eighth round).
 */
static int run_task(struct engine *g, uint32_t k)
{
	struct task_run *tr = &g->tasks[k];

	while (tr->cursor < tr->end) {
		const struct rr_item *it = &g->d.items[tr->cursor];
		uint64_t at = add_shift(it->ts, tr->shift);

		if (tr->cursor + PREFETCH_AHEAD < tr->end)
			prefetch_item(g, it + PREFETCH_AHEAD);

		/* yield to any task whose next step comes first */
		if ((it->kind == RR_ITEM_DECISION || g->yield_each_item) && g->heap.n &&
		    entry_comes_first(&g->heap.e[0], at, k) && live_entry_before(g, at, k)) {
			prefetch_item(g, it);
			g->yield = (struct heap_entry){ .key = at, .task = k, .version = tr->version };
			g->yielded = 1;
			return 0;
		}
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
			batch_item(g, tr, it->index, it->ts);
			break;
		case RR_ITEM_DECISION: {
			const struct rr_dpoint *p = &g->d.points[it->index];
			struct rr_replay_node *n = node_of(g, p->nid);

			if (p->flags & RR_DP_OBSERVED)
				n->decisions_observed++;
			else
				n->decisions_latent++;
			{
				int ret = rr_engine_start_sleep(g, k, it->index, at);

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
	g->reads = rr_policy_reads(pol->ops);
	g->out = out;
	g->hz = c->hz;
	{
		const char *env = getenv("RR_REPLAY_YIELD_EACH_ITEM");

		g->yield_each_item = env && !strcmp(env, "1");
	}
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
	g->nodes = out->nodes;
	g->nr_nodes = out->nr_nodes;
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
	free(g->sleeps);
	free(g->free_sleeps);
	free(g->eps);
	free(g->heap.e);
}

static void finish_metrics(struct engine *g)
{
	for (int n = 0; n < g->out->nr_nodes; n++) {
		struct rr_replay_node *rn = &g->out->nodes[n];
		uint64_t *v = g->stall_ns[n];
		size_t cnt = g->nr_stall[n];

		static const unsigned pct[3] = { 50, 90, 99 };
		size_t rank[3];
		uint64_t at[3], max = 0;

		/* rr_percentile_u64()'s ranks, without sorting the lengths */
		for (int i = 0; i < 3; i++) {
			size_t r = (cnt * pct[i] + 99) / 100;

			rank[i] = r ? r - 1 : 0;
		}
		rn->stall.count = cnt;
		for (size_t i = 0; i < cnt; i++) {
			rn->stall.total_ns += v[i];
			max = v[i] > max ? v[i] : max;
		}
		rr_select_ranks_u64(v, cnt, rank, 3, at);
		rn->stall.p50_ns = at[0];
		rn->stall.p90_ns = at[1];
		rn->stall.p99_ns = at[2];
		rn->stall.max_ns = max;
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
		    (ret = rr_heap_push(&g.heap, g.d.items[g.tasks[k].cursor].ts, k, 0)))
			goto out;
	}
	while (g.heap.n) {
		struct heap_entry e;
		struct task_run *tr;

		if (g.yielded) {
			g.yielded = 0;
			e = rr_heap_replace_top(&g.heap, g.yield);
		} else {
			e = rr_heap_pop(&g.heap);
		}
		tr = &g.tasks[e.task];

		if (entry_is_stale(&g, &e))
			continue;
		if (tr->state == TASK_SLEEPING) {
			if (sleep_of(&g, tr)->verdict.wake == RR_WAKE_WRITEBACK)
				ret = rr_engine_wbq_fire(&g, e.task, e.key);
			else
				ret = rr_engine_finish_sleep(&g, e.task, e.key);
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
