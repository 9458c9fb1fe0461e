// SPDX-License-Identifier: GPL-2.0
/*
 * Task figures for decision points: per task, the recorded episodes,
 * batches and throttles as one time-ordered list of running totals, so a
 * point's figures are one binary search away (the engine asks at every
 * decision and every retry). Recorded, not replayed: the figures describe
 * the workload and must not depend on the policy being replayed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "task_figures.h"
#include "reclaim_replay/event.h"

/* At equal times: an episode begins before its batches, ends after them. */
enum { TF_EP_BEGIN, TF_BATCH, TF_THROTTLE, TF_EP_END };

struct tf_point {
	uint64_t ts;
	uint8_t kind;
	uint64_t d1, d2;	/* this entry's own values, before the sums */
	/* running totals after this entry */
	uint64_t scanned, reclaimed, closed_ns, open_begin, throttled_ns;
	uint32_t episodes, batches, throttles, depth;
};

/* One model's running totals, from which each point's figures are read. */
struct tf_tables {
	struct tf_point *pts;	/* task k: pts[off[k] .. off[k+1]) */
	uint32_t *off;
	uint64_t *first_seen, *last_seen;	/* per task; UINT64_MAX, 0: no event */
	uint32_t nr_tasks;
	/* trace-wide, sorted by time, each with the running sum of a value */
	uint64_t *rec_ts, *rec_sum;	/* non-kswapd batch ends: pages reclaimed */
	size_t nr_rec;
	uint64_t *ep_ts, *ep_sum;	/* non-kswapd episode begins: how many */
	size_t nr_eps;
	uint64_t *starts, *first_sum;	/* a task's first episode: its first event */
	uint64_t *ends, *last_sum;	/* the same tasks' last events */
	size_t nr_starts;
};

static int cmp_point(const void *a, const void *b)
{
	const struct tf_point *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

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

/* Each task's entries, grouped per task (counting sort), then time order. */
static int build_points(struct tf_tables *c, const struct rr_model *m)
{
	uint32_t nt = c->nr_tasks, *fill;
	size_t total;

	c->off = calloc((size_t)nt + 1, sizeof(*c->off));
	fill = calloc((size_t)nt + 1, sizeof(*fill));
	if (!c->off || !fill) {
		free(fill);
		return -1;
	}
	for (uint32_t e = 0; e < m->nr_episodes; e++)
		if (counts_episode(&m->episodes[e], nt))
			c->off[m->episodes[e].task + 1] += 2;
	for (uint32_t b = 0; b < m->nr_batches; b++) {
		const struct rr_event *sh = batch_shrink(m, b, nt);

		if (sh)
			c->off[sh->task + 1]++;
	}
	for (uint32_t i = 0; i < m->nr_throttles; i++)
		if (m->throttles[i].task < nt)
			c->off[m->throttles[i].task + 1]++;
	for (uint32_t k = 0; k < nt; k++)
		c->off[k + 1] += c->off[k];
	total = c->off[nt];
	c->pts = calloc(total + 1, sizeof(*c->pts));
	if (!c->pts) {
		free(fill);
		return -1;
	}
	memcpy(fill, c->off, ((size_t)nt + 1) * sizeof(*fill));
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];

		if (!counts_episode(ep, nt))
			continue;
		c->pts[fill[ep->task]++] = (struct tf_point){ .ts = ep->begin,
							       .kind = TF_EP_BEGIN };
		c->pts[fill[ep->task]++] = (struct tf_point){
			.ts = ep->end > ep->begin ? ep->end : ep->begin, .kind = TF_EP_END };
	}
	for (uint32_t b = 0; b < m->nr_batches; b++) {
		const struct rr_event *sh = batch_shrink(m, b, nt);

		if (sh)
			c->pts[fill[sh->task]++] = (struct tf_point){
				.ts = sh->ts, .kind = TF_BATCH, .d1 = sh->v[RR_V_SI_SCANNED],
				.d2 = sh->v[RR_V_SI_RECLAIMED] };
	}
	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		const struct rr_throttle *th = &m->throttles[i];

		if (th->task < nt)
			c->pts[fill[th->task]++] = (struct tf_point){ .ts = th->end,
				.kind = TF_THROTTLE, .d1 = th->end - th->start };
	}
	free(fill);
	for (uint32_t k = 0; k < nt; k++) {
		struct tf_point *p = &c->pts[c->off[k]], prev = { 0 };
		size_t n = c->off[k + 1] - c->off[k];

		qsort(p, n, sizeof(*p), cmp_point);
		for (size_t i = 0; i < n; i++) {
			struct tf_point cur = p[i];

			memcpy(&cur.scanned, &prev.scanned,
			       sizeof(cur) - offsetof(struct tf_point, scanned));
			switch (cur.kind) {
			case TF_EP_BEGIN:
				cur.episodes++;
				if (!cur.depth++)
					cur.open_begin = cur.ts;
				break;
			case TF_EP_END:
				if (cur.depth && !--cur.depth)
					cur.closed_ns += cur.ts - cur.open_begin;
				break;
			case TF_BATCH:
				cur.batches++;
				cur.scanned += cur.d1;
				cur.reclaimed += cur.d2;
				break;
			case TF_THROTTLE:
				cur.throttles++;
				cur.throttled_ns += cur.d1;
				break;
			}
			p[i] = prev = cur;
		}
	}
	return 0;
}

/* (key, value) pairs sorted by key, then the running sums of the values. */
struct kv {
	uint64_t key, value;
};

static void sort_sum(struct kv *v, size_t n, uint64_t *keys, uint64_t *sums)
{
	/* key is the first member: cmp_u64 orders the pairs */
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		keys[i] = v[i].key;
		sums[i] = (i ? sums[i - 1] : 0) + v[i].value;
	}
}

/*
 * Trace-wide figures over the tasks that take part: non-kswapd tasks from
 * the moment their first episode begins. Pages reclaimed, episodes begun,
 * and their time in the trace (first to last event) so far, which is
 * sum(min(q, last)) - sum(first) over the tasks begun by q, from two sorted
 * arrays: tasks that ended by q add last, the others q.
 */
static int build_trace_wide(struct tf_tables *c, const struct rr_model *m)
{
	const struct rr_trace *t = m->trace;
	uint32_t nt = c->nr_tasks;
	size_t nb = (size_t)m->nr_batches + 1, ne = (size_t)m->nr_episodes + 1;
	struct kv *rec = calloc(nb, sizeof(*rec)), *eps = calloc(ne, sizeof(*eps));
	struct kv *st = calloc((size_t)nt + 1, sizeof(*st)), *end = calloc((size_t)nt + 1,
									      sizeof(*end));
	size_t n = 0, e = 0, k2 = 0;
	int ret = -1;

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
		uint64_t first = c->first_seen[k], last = c->last_seen[k];

		if (t->tasks[k].is_kswapd)
			continue;
		for (uint32_t i = c->off[k]; i < c->off[k + 1]; i++) {
			if (c->pts[i].kind != TF_EP_BEGIN)
				continue;
			/* begun at pts[i].ts; in the trace from first to last */
			first = first < c->pts[i].ts ? first : c->pts[i].ts;
			last = last > c->pts[i].ts ? last : c->pts[i].ts;
			st[k2] = (struct kv){ c->pts[i].ts, first };
			end[k2++] = (struct kv){ last, last };
			break;
		}
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
	return ret;
}

/* Each task's first and last event in the trace (UINT64_MAX, 0: none). */
static int build_seen(struct tf_tables *c, const struct rr_model *m)
{
	const struct rr_trace *t = m->trace;

	c->first_seen = malloc(((size_t)c->nr_tasks + 1) * sizeof(*c->first_seen));
	c->last_seen = calloc((size_t)c->nr_tasks + 1, sizeof(*c->last_seen));
	if (!c->first_seen || !c->last_seen)
		return -1;
	for (uint32_t k = 0; k < c->nr_tasks; k++) {
		c->first_seen[k] = UINT64_MAX;
		if (k >= m->by_task.nr_keys)
			continue;
		for (uint32_t i = m->by_task.off[k]; i < m->by_task.off[k + 1]; i++) {
			uint64_t ts = t->events[m->by_task.idx[i]].ts;

			if (ts < c->first_seen[k])
				c->first_seen[k] = ts;
			if (ts > c->last_seen[k])
				c->last_seen[k] = ts;
		}
	}
	return 0;
}

static void tables_release(struct tf_tables *c)
{
	free(c->pts);
	free(c->off);
	free(c->first_seen);
	free(c->last_seen);
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

static int tables_build(struct tf_tables *c, const struct rr_model *m)
{
	memset(c, 0, sizeof(*c));
	c->nr_tasks = (uint32_t)m->trace->nr_tasks;
	if (build_seen(c, m) || build_points(c, m) || build_trace_wide(c, m)) {
		tables_release(c);
		return -ENOMEM;
	}
	return 0;
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

/* The figures of point @p, from the running totals. */
static void point_figures(const struct tf_tables *c, const struct rr_model *m,
			  const struct rr_dpoint *p, struct rr_task_figures *dp)
{
	uint64_t q = p->start;
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
	if (p->task >= c->nr_tasks)
		return;
	if (c->first_seen[p->task] <= q)
		dp->task_lifetime_ns = q - c->first_seen[p->task];
	{
		const struct tf_point *pts = &c->pts[c->off[p->task]];
		size_t lo = 0, hi = c->off[p->task + 1] - c->off[p->task];
		const struct tf_point *at;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pts[mid].ts <= q)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return;
		at = &pts[lo - 1];
		dp->task_episodes = at->episodes;
		dp->task_batches = at->batches;
		dp->task_scanned = at->scanned;
		dp->task_reclaimed = at->reclaimed;
		dp->task_reclaim_ns = at->closed_ns + (at->depth ? q - at->open_begin : 0);
		dp->task_throttles = at->throttles;
		dp->task_throttled_ns = at->throttled_ns;
	}
}

int rr_task_figures_build(const struct rr_model *m, const struct rr_decisions *d,
			  struct rr_task_figures **out)
{
	struct tf_tables c;
	struct rr_task_figures *fig;

	*out = NULL;
	fig = calloc((size_t)d->nr_points + 1, sizeof(*fig));
	if (!fig || tables_build(&c, m)) {
		free(fig);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < d->nr_points; i++)
		point_figures(&c, m, &d->points[i], &fig[i]);
	tables_release(&c);
	*out = fig;
	return 0;
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
