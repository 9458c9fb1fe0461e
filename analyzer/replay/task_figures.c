// SPDX-License-Identifier: GPL-2.0
/*
 * Task figures for decision points: per task, the recorded episodes,
 * batches and throttles as one time-ordered list of running totals, so a
 * point's figures are one binary search away (the engine asks at every
 * decision and every retry). Recorded, not replayed: the figures describe
 * the workload and must not depend on the policy being replayed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "task_figures.h"
#include "reclaim_replay/event.h"

/* At equal times: an episode begins before its batches, ends after them. */
enum { TF_EP_BEGIN, TF_BATCH, TF_THROTTLE, TF_EP_END, TF_NR_KINDS };

/*
 * The recorded entries of every task, one list per kind (episode begins,
 * batches, throttles, episode ends): list @kind of task k is
 * ent[kind][off[kind][k] .. off[kind][k + 1]), in time order. A point's
 * figures are the running totals over the entries at or before its time,
 * so they are read by sweeping each task's entries in (time, kind) order
 * while walking its points in time order. No table of running totals is
 * kept (it took 88 bytes per entry and a sort per task, most of
 * rr_curves_build), and each entry carries what the sweep adds, so the
 * sweep reads its lists in order and never the events.
 */
struct tf_entry {
	uint64_t ts;
	uint64_t value;	/* batch: scanned << 32 | reclaimed; throttle: ns slept */
};

struct tf_lists {
	uint32_t *off[TF_NR_KINDS];
	struct tf_entry *ent[TF_NR_KINDS];
	uint32_t nr_tasks;
};

/* A task's totals after the entries swept so far. */
struct tf_state {
	uint64_t scanned, reclaimed, closed_ns, open_begin, throttled_ns;
	uint32_t episodes, batches, throttles, depth;
};

/* Trace-wide figures, each array sorted by time with the running sum of a value. */
struct tf_trace {
	uint64_t *rec_ts, *rec_sum;	/* non-kswapd batch ends: pages reclaimed */
	size_t nr_rec;
	uint64_t *ep_ts, *ep_sum;	/* non-kswapd episode begins: how many */
	size_t nr_eps;
	uint64_t *starts, *first_sum;	/* a task's first episode: its first event */
	uint64_t *ends, *last_sum;	/* the same tasks' last events */
	size_t nr_starts;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int counts_episode(const struct rr_episode *ep, uint32_t nr_tasks)
{
	/* soft-limit reclaim runs inside another episode: not demand of its own */
	return ep->task < nr_tasks && ep->kind != RR_CTX_SOFTLIMIT;
}

static const struct rr_event *batch_shrink(const struct rr_model *m, uint32_t b,
					   uint32_t nr_tasks)
{
	const struct rr_event *sh;

	if (m->batches[b].shrink_event == RR_NONE)
		return NULL;
	sh = &m->trace->events[m->batches[b].shrink_event];
	return sh->type == RR_EV_SHRINK_INACTIVE && sh->task < nr_tasks ? sh : NULL;
}

static uint32_t nr_entries(const struct rr_model *m, int kind)
{
	return kind == TF_BATCH ? m->nr_batches :
	       kind == TF_THROTTLE ? m->nr_throttles : m->nr_episodes;
}

/* Entry @i of @kind: its task (nr_tasks when it does not count) and values. */
static uint32_t entry_of(const struct rr_model *m, int kind, uint32_t i, uint32_t nt,
			 struct tf_entry *out)
{
	const struct rr_episode *ep;
	const struct rr_throttle *th;
	const struct rr_event *sh;

	switch (kind) {
	case TF_EP_BEGIN:
	case TF_EP_END:
		ep = &m->episodes[i];
		out->ts = kind == TF_EP_BEGIN || ep->end <= ep->begin ? ep->begin : ep->end;
		out->value = 0;
		return counts_episode(ep, nt) ? ep->task : nt;
	case TF_BATCH:
		sh = batch_shrink(m, i, nt);
		if (!sh)
			return nt;
		out->ts = sh->ts;
		out->value = (uint64_t)sh->v[RR_V_SI_SCANNED] << 32 | sh->v[RR_V_SI_RECLAIMED];
		return sh->task;
	default:
		th = &m->throttles[i];
		out->ts = th->end;
		out->value = th->end - th->start;
		return th->task < nt ? th->task : nt;
	}
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tf_entry *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * Puts one task's list in time order. The model lists entries in the order
 * it closes them, which is time order for batches, throttles and begins;
 * ends of nested episodes may come out of order. The order of entries at
 * equal times does not change a total, so the sort need not be stable.
 */
static void sort_list(struct tf_entry *v, size_t n)
{
	size_t i = 1;

	while (i < n && v[i - 1].ts <= v[i].ts)
		i++;
	if (i < n)
		qsort(v, n, sizeof(*v), cmp_entry);
}

static void lists_release(struct tf_lists *l)
{
	for (int k = 0; k < TF_NR_KINDS; k++) {
		free(l->off[k]);
		free(l->ent[k]);
	}
	memset(l, 0, sizeof(*l));
}

/*
 * Groups 0..n-1 by @key (a counting sort, stable): the items of key k are
 * order[off[k] .. off[k + 1]); a key >= nr_keys is left out. @off holds
 * nr_keys + 1 entries, @order n.
 */
static int group_by_key(const uint32_t *key, uint32_t n, uint32_t nr_keys, uint32_t *off,
			uint32_t *order)
{
	uint32_t *fill = calloc((size_t)nr_keys + 1, sizeof(*fill));

	if (!fill)
		return -1;
	memset(off, 0, ((size_t)nr_keys + 1) * sizeof(*off));
	for (uint32_t i = 0; i < n; i++)
		if (key[i] < nr_keys)
			off[key[i] + 1]++;
	for (uint32_t k = 0; k < nr_keys; k++)
		off[k + 1] += off[k];
	memcpy(fill, off, (size_t)nr_keys * sizeof(*fill));
	for (uint32_t i = 0; i < n; i++)
		if (key[i] < nr_keys)
			order[fill[key[i]]++] = i;
	free(fill);
	return 0;
}

/* Each kind's entries grouped per task, each group in time order. */
static int lists_build(struct tf_lists *l, const struct rr_model *m)
{
	uint32_t nt = (uint32_t)m->trace->nr_tasks;

	memset(l, 0, sizeof(*l));
	l->nr_tasks = nt;
	for (int kind = 0; kind < TF_NR_KINDS; kind++) {
		uint32_t n = nr_entries(m, kind);
		uint32_t *task = malloc(((size_t)n + 1) * sizeof(*task));
		uint32_t *order = malloc(((size_t)n + 1) * sizeof(*order));
		struct tf_entry *tmp = malloc(((size_t)n + 1) * sizeof(*tmp));
		int bad;

		l->off[kind] = calloc((size_t)nt + 1, sizeof(*l->off[kind]));
		l->ent[kind] = malloc(((size_t)n + 1) * sizeof(*l->ent[kind]));
		bad = !task || !order || !tmp || !l->off[kind] || !l->ent[kind];
		/* one pass over the model in its order, then the grouping */
		for (uint32_t i = 0; !bad && i < n; i++)
			task[i] = entry_of(m, kind, i, nt, &tmp[i]);
		bad = bad || group_by_key(task, n, nt, l->off[kind], order);
		for (uint32_t i = 0; !bad && i < l->off[kind][nt]; i++)
			l->ent[kind][i] = tmp[order[i]];
		free(task);
		free(order);
		free(tmp);
		if (bad) {
			lists_release(l);
			return -1;
		}
		for (uint32_t k = 0; k < nt; k++)
			sort_list(&l->ent[kind][l->off[kind][k]], l->off[kind][k + 1] - l->off[kind][k]);
	}
	return 0;
}

/* (key, value) pairs sorted by key, then the running sums of the values. */
struct kv {
	uint64_t key, value;
};

static void sort_sum(struct kv *v, size_t n, uint64_t *keys, uint64_t *sums)
{
	size_t i = 1;

	/* they mostly come in time order already */
	while (i < n && v[i - 1].key <= v[i].key)
		i++;
	/* key is the first member: cmp_u64 orders the pairs */
	if (i < n)
		qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++) {
		keys[i] = v[i].key;
		sums[i] = (i ? sums[i - 1] : 0) + v[i].value;
	}
}

static void trace_release(struct tf_trace *c)
{
	free(c->rec_ts);
	free(c->rec_sum);
	free(c->ep_ts);
	free(c->ep_sum);
	free(c->starts);
	free(c->first_sum);
	free(c->ends);
	free(c->last_sum);
	memset(c, 0, sizeof(*c));
}

/* Task @k's first and last event in the trace: UINT64_MAX and 0 when none. */
static void task_seen(const struct rr_model *m, uint32_t k, uint64_t *first, uint64_t *last)
{
	const struct rr_index *ix = &m->by_task;

	*first = UINT64_MAX;
	*last = 0;
	/* events are in time order, and so is each task's list of them */
	if (k < ix->nr_keys && ix->off[k] < ix->off[k + 1]) {
		*first = m->trace->events[ix->idx[ix->off[k]]].ts;
		*last = m->trace->events[ix->idx[ix->off[k + 1] - 1]].ts;
	}
}

/*
 * Trace-wide figures over the tasks that take part: non-kswapd tasks from
 * the moment their first episode begins. Pages reclaimed, episodes begun,
 * and their time in the trace (first to last event) so far, which is
 * sum(min(q, last)) - sum(first) over the tasks begun by q, from two sorted
 * arrays: tasks that ended by q add last, the others q.
 */
static int trace_build(struct tf_trace *c, const struct tf_lists *l, const struct rr_model *m)
{
	const struct rr_trace *t = m->trace;
	uint32_t nt = l->nr_tasks;
	size_t nb = (size_t)m->nr_batches + 1, ne = (size_t)m->nr_episodes + 1;
	struct kv *rec = calloc(nb, sizeof(*rec)), *eps = calloc(ne, sizeof(*eps));
	struct kv *st = calloc((size_t)nt + 1, sizeof(*st)), *end = calloc((size_t)nt + 1,
									      sizeof(*end));
	size_t n = 0, e = 0, k2 = 0;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->rec_ts = calloc(nb, sizeof(*c->rec_ts));
	c->rec_sum = calloc(nb, sizeof(*c->rec_sum));
	c->ep_ts = calloc(ne, sizeof(*c->ep_ts));
	c->ep_sum = calloc(ne, sizeof(*c->ep_sum));
	c->starts = calloc((size_t)nt + 1, sizeof(*c->starts));
	c->first_sum = calloc((size_t)nt + 1, sizeof(*c->first_sum));
	c->ends = calloc((size_t)nt + 1, sizeof(*c->ends));
	c->last_sum = calloc((size_t)nt + 1, sizeof(*c->last_sum));
	if (!rec || !eps || !st || !end || !c->rec_ts || !c->rec_sum || !c->ep_ts ||
	    !c->ep_sum || !c->starts || !c->first_sum || !c->ends || !c->last_sum)
		goto out;
	for (uint32_t b = 0; b < m->nr_batches; b++) {
		const struct rr_event *sh = batch_shrink(m, b, nt);

		if (sh && !t->tasks[sh->task].is_kswapd)
			rec[n++] = (struct kv){ sh->ts, sh->v[RR_V_SI_RECLAIMED] };
	}
	for (uint32_t i = 0; i < m->nr_episodes; i++) {
		const struct rr_episode *ep = &m->episodes[i];

		if (counts_episode(ep, nt) && !t->tasks[ep->task].is_kswapd)
			eps[e++] = (struct kv){ ep->begin, 1 };
	}
	for (uint32_t k = 0; k < nt; k++) {
		uint64_t first, last, begin;

		if (t->tasks[k].is_kswapd || l->off[TF_EP_BEGIN][k] == l->off[TF_EP_BEGIN][k + 1])
			continue;
		/* begun at its first episode; in the trace from first to last */
		task_seen(m, k, &first, &last);
		begin = l->ent[TF_EP_BEGIN][l->off[TF_EP_BEGIN][k]].ts;
		first = first < begin ? first : begin;
		last = last > begin ? last : begin;
		st[k2] = (struct kv){ begin, first };
		end[k2++] = (struct kv){ last, last };
	}
	sort_sum(rec, n, c->rec_ts, c->rec_sum);
	sort_sum(eps, e, c->ep_ts, c->ep_sum);
	sort_sum(st, k2, c->starts, c->first_sum);
	sort_sum(end, k2, c->ends, c->last_sum);
	c->nr_rec = n;
	c->nr_eps = e;
	c->nr_starts = k2;
	ret = 0;
out:
	free(rec);
	free(eps);
	free(st);
	free(end);
	if (ret)
		trace_release(c);
	return ret;
}

/* How many of the sorted @v[0..n) are <= @x. */
static size_t upto(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The trace-wide figures at time @q. */
static void trace_figures(const struct tf_trace *c, const struct rr_model *m, uint64_t q,
			  struct rr_task_figures *dp)
{
	size_t n;

	if (q >= m->first_ts)
		dp->trace_elapsed_ns = q - m->first_ts;
	n = upto(c->rec_ts, c->nr_rec, q);
	dp->trace_reclaimed = n ? c->rec_sum[n - 1] : 0;
	n = upto(c->ep_ts, c->nr_eps, q);
	dp->trace_episodes = n ? c->ep_sum[n - 1] : 0;
	n = upto(c->starts, c->nr_starts, q);
	dp->trace_tasks = (uint32_t)n;
	if (n) {
		/* every task that ended by q had begun by q: ended <= n */
		size_t ended = upto(c->ends, c->nr_starts, q);
		uint64_t last = (ended ? c->last_sum[ended - 1] : 0) + q * (n - ended);

		dp->trace_task_ns = last - c->first_sum[n - 1];
	}
}

static void apply(struct tf_state *s, int kind, const struct tf_entry *e)
{
	switch (kind) {
	case TF_EP_BEGIN:
		s->episodes++;
		if (!s->depth++)
			s->open_begin = e->ts;
		break;
	case TF_EP_END:
		if (s->depth && !--s->depth)
			s->closed_ns += e->ts - s->open_begin;
		break;
	case TF_BATCH:
		s->batches++;
		s->scanned += e->value >> 32;
		s->reclaimed += e->value & UINT32_MAX;
		break;
	default:
		s->throttles++;
		s->throttled_ns += e->value;
		break;
	}
}

/* A task's sweep: where it is in each of its lists, and its totals so far. */
struct tf_sweep {
	const struct tf_lists *l;
	uint32_t at[TF_NR_KINDS], stop[TF_NR_KINDS];
	uint64_t head[TF_NR_KINDS];	/* time of each list's next entry, UINT64_MAX: none */
	struct tf_state s;
};

static void sweep_head(struct tf_sweep *w, int k)
{
	w->head[k] = w->at[k] < w->stop[k] ? w->l->ent[k][w->at[k]].ts : UINT64_MAX;
}

static void sweep_start(struct tf_sweep *w, const struct tf_lists *l, uint32_t task)
{
	memset(w, 0, sizeof(*w));
	w->l = l;
	for (int k = 0; k < TF_NR_KINDS; k++) {
		w->at[k] = l->off[k][task];
		w->stop[k] = l->off[k][task + 1];
		sweep_head(w, k);
	}
}

/* Applies every entry at or before @q, in (time, kind) order. */
static void sweep_to(struct tf_sweep *w, uint64_t q)
{
	for (;;) {
		int best = -1;

		/* kinds in order: a tie goes to the earlier kind */
		for (int k = 0; k < TF_NR_KINDS; k++)
			if (w->head[k] <= q && (best < 0 || w->head[k] < w->head[best]))
				best = k;
		if (best < 0)
			return;
		apply(&w->s, best, &w->l->ent[best][w->at[best]++]);
		sweep_head(w, best);
	}
}

static void task_part(const struct tf_state *s, uint64_t q, uint64_t first_seen,
		      struct rr_task_figures *dp)
{
	if (first_seen <= q)
		dp->task_lifetime_ns = q - first_seen;
	dp->task_episodes = s->episodes;
	dp->task_batches = s->batches;
	dp->task_scanned = s->scanned;
	dp->task_reclaimed = s->reclaimed;
	dp->task_reclaim_ns = s->closed_ns + (s->depth ? q - s->open_begin : 0);
	dp->task_throttles = s->throttles;
	dp->task_throttled_ns = s->throttled_ns;
}

static int cmp_point_index(const void *a, const void *b, void *points)
{
	const struct rr_dpoint *p = points;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (p[x].start != p[y].start)
		return p[x].start < p[y].start ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Each task's points in time order, then its entries swept along them. */
static int task_figures(const struct tf_lists *l, const struct rr_model *m,
			const struct rr_decisions *d, struct rr_task_figures *fig)
{
	uint32_t nt = l->nr_tasks, np = d->nr_points;
	uint32_t *off = calloc((size_t)nt + 1, sizeof(*off));
	uint32_t *task = malloc(((size_t)np + 1) * sizeof(*task));
	uint32_t *order = malloc(((size_t)np + 1) * sizeof(*order));

	if (off && task && order)
		for (uint32_t i = 0; i < np; i++)
			task[i] = d->points[i].task;
	if (!off || !task || !order || group_by_key(task, np, nt, off, order)) {
		free(off);
		free(task);
		free(order);
		return -1;
	}
	free(task);
	for (uint32_t k = 0; k < nt; k++) {
		uint32_t n = off[k + 1] - off[k], *v = &order[off[k]];
		uint64_t first, last;
		struct tf_sweep w;
		uint32_t i = 1;

		if (!n)
			continue;
		while (i < n && d->points[v[i - 1]].start <= d->points[v[i]].start)
			i++;
		if (i < n)
			qsort_r(v, n, sizeof(*v), cmp_point_index, d->points);
		task_seen(m, k, &first, &last);
		sweep_start(&w, l, k);
		for (i = 0; i < n; i++) {
			uint64_t q = d->points[v[i]].start;

			sweep_to(&w, q);
			task_part(&w.s, q, first, &fig[v[i]]);
		}
	}
	free(off);
	free(order);
	return 0;
}

int rr_task_figures_build(const struct rr_model *m, const struct rr_decisions *d,
			  struct rr_task_figures **out)
{
	struct tf_lists l;
	struct tf_trace c;
	struct rr_task_figures *fig;
	int ret = -ENOMEM;

	*out = NULL;
	fig = calloc((size_t)d->nr_points + 1, sizeof(*fig));
	if (!fig || lists_build(&l, m)) {
		free(fig);
		return -ENOMEM;
	}
	if (trace_build(&c, &l, m))
		goto out;
	for (uint32_t i = 0; i < d->nr_points; i++)
		trace_figures(&c, m, d->points[i].start, &fig[i]);
	trace_release(&c);
	if (task_figures(&l, m, d, fig))
		goto out;
	*out = fig;
	fig = NULL;
	ret = 0;
out:
	free(fig);
	lists_release(&l);
	return ret;
}

void rr_task_figures_fill(const struct rr_task_figures *f, struct rr_decision_point *dp)
{
	dp->task_episodes = f->task_episodes;
	dp->task_batches = f->task_batches;
	dp->task_scanned = f->task_scanned;
	dp->task_reclaimed = f->task_reclaimed;
	dp->task_reclaim_ns = f->task_reclaim_ns;
	dp->task_lifetime_ns = f->task_lifetime_ns;
	dp->task_throttles = f->task_throttles;
	dp->trace_tasks = f->trace_tasks;
	dp->task_throttled_ns = f->task_throttled_ns;
	dp->trace_reclaimed = f->trace_reclaimed;
	dp->trace_elapsed_ns = f->trace_elapsed_ns;
	dp->trace_episodes = f->trace_episodes;
	dp->trace_task_ns = f->trace_task_ns;
}
