// SPDX-License-Identifier: GPL-2.0
/*
 * Build the node state curves once per model; every replay reads them.
 * W(t), pages whose writeback ended (what acct_reclaim_writeback() counts):
 * with counter samples, each node's sampled nr_written gives the amounts,
 * and the block write completions between two samples give the moments
 * (samples come every few ms, completions to the microsecond); without
 * samples, the machine's completed block writes, the same for every node
 * (no event says which node a written page belonged to).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "curves.h"
#include "vec.h"

#define EFFICIENCY_WINDOW_NS 100000000ULL	/* 100 ms of batches */
#define EFFICIENCY_MAX_WINDOW_NS 1000000000ULL

static int add_point_ramp(struct vec *v, uint64_t ts, uint64_t val, int ramp)
{
	struct rr_point *p = vec_push(v, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->ts = ts;
	p->v = val;
	p->ramp = (uint8_t)ramp;
	return 0;
}

static int add_point(struct vec *v, uint64_t ts, uint64_t val)
{
	return add_point_ramp(v, ts, val, 0);
}

static int add_source(struct vec *v, uint64_t ts, uint32_t task, uint32_t sc, uint32_t rc)
{
	struct rr_wake_source *w = vec_push(v, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->ts = ts;
	w->task = task;
	w->scanned = sc;
	w->reclaimed = rc;
	return 0;
}

static int cmp_source(const void *a, const void *b)
{
	const struct rr_wake_source *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * Sources in time order, stably (equal times keep their order, as qsort's
 * merge sort kept it). Direct batches come sorted (one pass); isolations,
 * listed by their batch's shrink, are nearly sorted (an insertion sort);
 * a list far from order, after 16 moves per source, goes to qsort.
 */
static void sort_sources(struct rr_wake_source *v, size_t n)
{
	size_t moves = 0, limit = 16 * n;

	for (size_t i = 1; i < n; i++) {
		struct rr_wake_source x = v[i];
		size_t j = i;

		if (v[i - 1].ts <= x.ts)
			continue;
		/* x passes only later sources: equal times keep their order */
		while (j > 0 && v[j - 1].ts > x.ts && moves < limit) {
			v[j] = v[j - 1];
			j--;
			moves++;
		}
		v[j] = x;
		if (moves >= limit) {
			qsort(v, n, sizeof(*v), cmp_source);
			return;
		}
	}
}

/* Per-node scratch while building. */
struct node_build {
	struct vec written, iso, direct, cum_s, cum_r, samples, sampled_written;
	uint64_t sum_s, sum_r;
};

static int is_inactive_lru(uint16_t lru)
{
	return lru == RR_LRU_INACTIVE_ANON || lru == RR_LRU_INACTIVE_FILE;
}

/*
 * Who wakes ISOLATED waiters: reclaim's too_many_isolated() wakes them when
 * it comes out false, except for kswapd and for cgroup v1 reclaim (not
 * "writeback_throttling_sane"), and compaction's check does too. The pass
 * shows as the reclaimer's next lru_isolate of an inactive list, or as a
 * compaction isolate_migratepages. Memcg reclaim is taken as cgroup v1, as
 * on the recording machines (docs/model.md).
 */
static int collect_batches(const struct rr_model *m, struct node_build *nb, int nr_nodes)
{
	const struct rr_trace *t = m->trace;

	for (uint32_t i = 0; i < m->nr_batches; i++) {
		const struct rr_batch *b = &m->batches[i];
		const struct rr_event *sh, *iso;
		struct node_build *n;

		if (b->nid < 0 || b->nid >= nr_nodes || b->shrink_event == RR_NONE)
			continue;
		n = &nb[b->nid];
		sh = &t->events[b->shrink_event];
		iso = b->isolate_event != RR_NONE ? &t->events[b->isolate_event] : NULL;
		if (iso && is_inactive_lru(iso->aux) &&
		    (b->context == RR_CTX_DIRECT || b->context == RR_CTX_NODE) &&
		    add_source(&n->iso, iso->ts, iso->task, 0, 0))
			return -ENOMEM;
		if (sh->type != RR_EV_SHRINK_INACTIVE)
			continue;
		if ((b->context == RR_CTX_DIRECT || b->context == RR_CTX_NODE) &&
		    add_source(&n->direct, sh->ts, sh->task, sh->v[RR_V_SI_SCANNED],
			       sh->v[RR_V_SI_RECLAIMED]))
			return -ENOMEM;
	}
	return 0;
}

static int collect_events(const struct rr_model *m, struct node_build *nb, int nr_nodes,
			  struct vec *inflight, struct vec *completions, int sampled)
{
	const struct rr_trace *t = m->trace;
	uint64_t written = 0, in_flight = 0;
	int page = t->page_size > 0 ? t->page_size : 4096;

	for (size_t i = 0; i < t->nr_events; i++) {
		const struct rr_event *ev = &t->events[i];
		int nid = ev->nid;

		switch (ev->type) {
		case RR_EV_SHRINK_INACTIVE:
			if (nid < 0 || nid >= nr_nodes)
				break;
			nb[nid].sum_s += ev->v[RR_V_SI_SCANNED];
			nb[nid].sum_r += ev->v[RR_V_SI_RECLAIMED];
			if (add_point(&nb[nid].cum_s, ev->ts, nb[nid].sum_s) ||
			    add_point(&nb[nid].cum_r, ev->ts, nb[nid].sum_r))
				return -ENOMEM;
			break;
		case RR_EV_COMPACT_ISOLATE_MIGRATE:
			/* compaction's too_many_isolated() check passed */
			for (int n = 0; n < nr_nodes; n++)
				if ((nid == RR_NID_NONE || nid == n) &&
				    add_source(&nb[n].iso, ev->ts, ev->task, 0, 0))
					return -ENOMEM;
			break;
		case RR_EV_BLOCK_ISSUE:
			in_flight++;
			if (add_point(inflight, ev->ts, in_flight))
				return -ENOMEM;
			break;
		case RR_EV_BLOCK_COMPLETE:
			if (in_flight)
				in_flight--;
			if (add_point(inflight, ev->ts, in_flight))
				return -ENOMEM;
			if (ev->v[RR_V_BLK_OP] != RR_BLK_WRITE)
				break;
			written += (uint64_t)ev->v[RR_V_BLK_SECTORS] * 512 / (uint64_t)page;
			if (add_point(completions, ev->ts, written))
				return -ENOMEM;
			break;
		case RR_EV_COUNTERS: {
			const struct rr_counter_sample *s = &t->samples[ev->v[RR_V_SAMPLE_INDEX]];
			const struct rr_counter_sample **slot;

			if (nid < 0 || nid >= nr_nodes)
				break;
			slot = vec_push(&nb[nid].samples, sizeof(*slot));
			if (!slot)
				return -ENOMEM;
			*slot = s;
			if (sampled && (s->present & (1u << RR_C_NR_WRITTEN)) &&
			    add_point(&nb[nid].sampled_written, ev->ts, s->value[RR_C_NR_WRITTEN]))
				return -ENOMEM;
			break;
		}
		default:
			break;
		}
	}
	return 0;
}


/*
 * The index of the first of @n time-ordered records whose time is after @t
 * (@n when none), searched from *@hint, the answer of the previous lookup:
 * a replay asks in nearly increasing time, so the answer is usually the
 * hint or a few records away. Gallops forward or back from it, so a lookup
 * costs O(log distance); the records are in time order, so the answer is
 * the one a plain binary search gives. @ts_of reads record @i's time; the
 * function is inlined into each caller with its own reader.
 */
static inline __attribute__((always_inline)) size_t
gallop_first_after(const void *base, size_t n, uint64_t t, size_t *hint,
		   uint64_t (*ts_of)(const void *base, size_t i))
{
	size_t h = *hint, step = 1, lo, hi;

	if (h > n)
		h = n;
	if (h > 0 && ts_of(base, h - 1) > t) {
		/*
		 * ts(h - 1) > t: gallop back until a record at or before t
		 * (tasks replayed with different shifts ask slightly back in
		 * time); the answer lies in [lo, hi], and ts(hi) > t.
		 */
		hi = h - 1;
		for (;;) {
			lo = hi > step ? hi - step : 0;
			if (!lo || ts_of(base, lo - 1) <= t)
				break;
			hi = lo - 1;
			step *= 2;
		}
	} else {
		/* ts(h - 1) <= t: gallop until a record after t */
		lo = h;
		hi = h;
		while (hi < n && ts_of(base, hi) <= t) {
			lo = hi + 1;
			hi += step;
			step *= 2;
		}
		if (hi > n)
			hi = n;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ts_of(base, mid) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*hint = lo;
	return lo;
}

static inline uint64_t point_ts(const void *base, size_t i)
{
	return ((const struct rr_point *)base)[i].ts;
}

static inline uint64_t source_ts(const void *base, size_t i)
{
	return ((const struct rr_wake_source *)base)[i].ts;
}

static inline uint64_t sample_ts(const void *base, size_t i)
{
	return ((const struct rr_counter_sample *const *)base)[i]->ts;
}

size_t rr_points_first_after(const struct rr_point *p, size_t n, uint64_t t, size_t *hint)
{
	return gallop_first_after(p, n, t, hint, point_ts);
}

/* Index of the first point with ts > @t (n when none). */
static size_t first_after(const struct rr_point *p, size_t n, uint64_t t)
{
	size_t from_start = 0;

	return gallop_first_after(p, n, t, &from_start, point_ts);
}

/* Index of the last point with ts <= @t, or -1. */
static long last_at_or_before(const struct rr_point *p, size_t n, uint64_t t)
{
	return (long)first_after(p, n, t) - 1;
}

/*
 * Sampled W(t): between two samples the node's increase is spread over the
 * block write completions in between, in proportion to their pages; with
 * none in between (zram, or writes of another device), it ramps linearly.
 */
static int time_samples_by_completions(struct vec *out, const struct vec *samples,
				       const struct vec *completions)
{
	const struct rr_point *s = samples->p, *c = completions->p;

	for (size_t i = 0; i < samples->n; i++) {
		uint64_t delta, pages_between, base;
		size_t lo, hi;

		if (!i || s[i].v <= s[i - 1].v) {
			if (add_point(out, s[i].ts, i && s[i].v < s[i - 1].v ? s[i - 1].v : s[i].v))
				return -ENOMEM;
			continue;
		}
		delta = s[i].v - s[i - 1].v;
		lo = first_after(c, completions->n, s[i - 1].ts);
		hi = first_after(c, completions->n, s[i].ts);
		base = lo ? c[lo - 1].v : 0;
		pages_between = hi > lo ? c[hi - 1].v - base : 0;
		if (!pages_between) {
			if (add_point_ramp(out, s[i].ts, s[i].v, 1))
				return -ENOMEM;
			continue;
		}
		for (size_t k = lo; k < hi; k++) {
			uint64_t share = (uint64_t)((double)delta * (double)(c[k].v - base) /
						    (double)pages_between);
			/*
			 * The block completion is the earliest the folios' writeback
			 * can end; ext4 ends it later from its end_io worker, and the
			 * sample is the latest. Midway measured best on the replay-grade
			 * traces (docs/model.md, "Writeback timing").
			 */
			uint64_t at = c[k].ts + (s[i].ts - c[k].ts) / 2;
			if (add_point(out, at, s[i - 1].v + share))
				return -ENOMEM;
		}
		if (add_point(out, s[i].ts, s[i].v))
			return -ENOMEM;
	}
	return 0;
}

static int build_briefs(const struct rr_model *m, struct rr_curves *c)
{
	const struct rr_trace *t = m->trace;
	size_t *hint = calloc((size_t)c->nr_nodes, sizeof(*hint));
	uint32_t **better = calloc((size_t)c->nr_nodes, sizeof(*better));
	int ret = -ENOMEM;

	c->briefs = calloc((size_t)m->nr_batches + 1, sizeof(*c->briefs));
	if (!c->briefs || !hint || !better)
		goto out;
	for (int n = 0; n < c->nr_nodes; n++)
		if (c->node[n].nr_cum && !(better[n] = rr_curve_next_better_points(&c->node[n])))
			goto out;
	for (uint32_t i = 0; i < m->nr_batches; i++) {
		const struct rr_batch *b = &m->batches[i];
		struct rr_batch_brief *bb = &c->briefs[i];
		const struct rr_event *sh;

		bb->episode = b->episode;
		bb->nid = b->nid;
		if (b->shrink_event == RR_NONE)
			continue;
		sh = &t->events[b->shrink_event];
		if (b->isolate_event != RR_NONE) {
			uint64_t work = sh->ts - t->events[b->isolate_event].ts;

			bb->work_ns = work < UINT32_MAX ? (uint32_t)work : UINT32_MAX;
		}
		if (sh->type == RR_EV_SHRINK_INACTIVE) {
			int nid = b->nid >= 0 && b->nid < c->nr_nodes ? b->nid : 0;
			const struct rr_node_curves *nc = &c->node[nid];

			bb->inactive = 1;
			bb->scanned = sh->v[RR_V_SI_SCANNED];
			bb->reclaimed = sh->v[RR_V_SI_RECLAIMED];
			/* searched once here, not at each late batch of each replay */
			bb->cum_after = (uint32_t)rr_points_first_after(nc->cum_scanned, nc->nr_cum,
									sh->ts, &hint[nid]);
			if (bb->cum_after && nc->cum_scanned[bb->cum_after - 1].ts == sh->ts) {
				bb->rec_on_point = 1;
				bb->rec_eff_ppm = nc->eff_tree[nc->nr_cum + bb->cum_after - 1];
				bb->better_at = better[nid][bb->cum_after - 1];
			}
		}
	}
	ret = 0;
out:
	for (int n = 0; better && n < c->nr_nodes; n++)
		free(better[n]);
	free(better);
	free(hint);
	return ret;
}

int rr_curves_build(const struct rr_model *m, struct rr_curves **out)
{
	const struct rr_trace *t = m->trace;
	int nr_nodes = t->nr_nodes > 0 ? t->nr_nodes : 1;
	struct rr_curves *c = calloc(1, sizeof(*c));
	struct node_build *nb = calloc((size_t)nr_nodes, sizeof(*nb));
	struct vec inflight = { 0 }, completions = { 0 };
	int ret = -ENOMEM;

	*out = NULL;
	if (!c || !nb)
		goto out;
	c->nr_nodes = nr_nodes;
	c->page_size = t->page_size > 0 ? t->page_size : 4096;
	c->hz = rr_model_hz(m, NULL);
	for (size_t i = 0; i < t->nr_samples && !c->sampled; i++)
		c->sampled = (t->samples[i].present & (1u << RR_C_NR_WRITTEN)) != 0;
	c->node = calloc((size_t)nr_nodes, sizeof(*c->node));
	if (!c->node)
		goto out;
	if (collect_batches(m, nb, nr_nodes) ||
	    collect_events(m, nb, nr_nodes, &inflight, &completions, c->sampled))
		goto out;
	for (int n = 0; n < nr_nodes; n++) {
		struct vec *w = &nb[n].written;

		if (c->sampled) {
			if (time_samples_by_completions(w, &nb[n].sampled_written, &completions))
				goto out;
		} else {
			for (size_t k = 0; k < completions.n; k++)
				if (add_point(w, ((struct rr_point *)completions.p)[k].ts,
					      ((struct rr_point *)completions.p)[k].v))
					goto out;
		}
	}
	for (int n = 0; n < nr_nodes; n++) {
		struct rr_node_curves *nc = &c->node[n];

		/* batches are listed by their shrink; order the sources by time */
		sort_sources(nb[n].iso.p, nb[n].iso.n);
		sort_sources(nb[n].direct.p, nb[n].direct.n);
		nc->written = nb[n].written.p;
		nc->nr_written = nb[n].written.n;
		nc->written_monotone = 1;
		for (size_t i = 1; i < nc->nr_written; i++)
			if (nc->written[i].v < nc->written[i - 1].v)
				nc->written_monotone = 0;
		nc->isolation_pass = nb[n].iso.p;
		nc->nr_isolation_pass = nb[n].iso.n;
		nc->direct_batches = nb[n].direct.p;
		nc->nr_direct_batches = nb[n].direct.n;
		nc->cum_scanned = nb[n].cum_s.p;
		nc->cum_reclaimed = nb[n].cum_r.p;
		nc->nr_cum = nb[n].cum_s.n;
		nc->samples = nb[n].samples.p;
		nc->nr_samples = nb[n].samples.n;
		free(nb[n].sampled_written.p);	/* folded into written above */
		memset(&nb[n], 0, sizeof(nb[n]));
		if (rr_curve_build_best_efficiency(nc) || rr_curve_build_progress_index(nc))
			goto out;
	}
	c->inflight = inflight.p;
	c->nr_inflight = inflight.n;
	inflight.p = NULL;
	if (rr_decisions_build(m, &c->decisions))
		goto out;
	c->have_decisions = 1;
	if (rr_task_figures_build(m, &c->decisions, &c->figures) || build_briefs(m, c))
		goto out;
	*out = c;
	c = NULL;
	ret = 0;
out:
	if (nb) {
		for (int n = 0; n < nr_nodes; n++) {
			free(nb[n].written.p);
			free(nb[n].iso.p);
			free(nb[n].direct.p);
			free(nb[n].cum_s.p);
			free(nb[n].cum_r.p);
			free(nb[n].samples.p);
			free(nb[n].sampled_written.p);
		}
		free(nb);
	}
	free(inflight.p);
	free(completions.p);
	rr_curves_free(c);
	return ret;
}

void rr_curves_free(struct rr_curves *c)
{
	if (!c)
		return;
	for (int n = 0; c->node && n < c->nr_nodes; n++) {
		struct rr_node_curves *nc = &c->node[n];

		free(nc->written);
		free(nc->isolation_pass);
		free(nc->direct_batches);
		free(nc->cum_scanned);
		free(nc->cum_reclaimed);
		free(nc->samples);
		free(nc->eff_tree);
		free(nc->eff_pre);
		free(nc->eff_suf);
		free(nc->eff_sparse);
		free(nc->progress_tree);
	}
	free(c->node);
	free(c->inflight);
	if (c->have_decisions)
		rr_decisions_release(&c->decisions);
	free(c->figures);
	free(c->briefs);
	free(c);
}

const struct rr_decisions *rr_curves_decisions(const struct rr_curves *c)
{
	return c->have_decisions ? &c->decisions : NULL;
}

int rr_curves_sampled(const struct rr_curves *c)
{
	return c->sampled;
}


/* W(t) once the index of the first written point after @t is known. */
static uint64_t written_at_index(const struct rr_node_curves *n, uint64_t t, size_t after)
{
	long i = (long)after - 1;
	const struct rr_point *a, *b;

	if (i < 0)
		return n->nr_written ? n->written[0].v : 0;
	a = &n->written[i];
	if ((size_t)i + 1 >= n->nr_written || !a[1].ramp)
		return a->v;
	b = a + 1;
	if (b->ts == a->ts || b->v <= a->v)
		return a->v;
	return a->v + (uint64_t)((double)(b->v - a->v) * (double)(t - a->ts) /
				 (double)(b->ts - a->ts));
}

uint64_t rr_curve_written_at_hinted(const struct rr_node_curves *n, uint64_t t, size_t *hint)
{
	return written_at_index(n, t, rr_points_first_after(n->written, n->nr_written, t, hint));
}

uint64_t rr_curve_written_at(const struct rr_node_curves *n, uint64_t t)
{
	size_t hint = 0;

	return rr_curve_written_at_hinted(n, t, &hint);
}

/* rr_curve_written_exceeds() once the index of the first point after @from is known */
static uint64_t written_exceeds_index(const struct rr_node_curves *n, uint64_t from,
				      uint64_t target, size_t after)
{
	size_t lo, hi;

	if (written_at_index(n, from, after) > target)
		return from;
	/* W is monotone: binary search the first point above the target */
	lo = after;
	hi = n->nr_written;
	if (n->written_monotone) {
		/* the target is usually a few points on: gallop to bound it */
		size_t step = 1;

		while (lo + step < hi && n->written[lo + step - 1].v <= target) {
			lo += step;
			step *= 2;
		}
		if (lo + step < hi)
			hi = lo + step;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (n->written[mid].v > target)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo >= n->nr_written)
		return UINT64_MAX;
	if (n->written[lo].ramp && lo > 0) {
		const struct rr_point *a = &n->written[lo - 1], *b = &n->written[lo];
		uint64_t at;

		if (b->v > a->v && target >= a->v) {
			at = a->ts + (uint64_t)((double)(target + 1 - a->v) * (double)(b->ts - a->ts) /
						(double)(b->v - a->v));
			return at < from ? from : at;
		}
	}
	return n->written[lo].ts < from ? from : n->written[lo].ts;
}

uint64_t rr_curve_written_exceeds_hinted(const struct rr_node_curves *n, uint64_t from,
					 uint64_t target, size_t *hint)
{
	return written_exceeds_index(n, from, target, rr_points_first_after(n->written,
									    n->nr_written,
									    from, hint));
}

uint64_t rr_curve_written_exceeds_by_hinted(const struct rr_node_curves *n, uint64_t from,
					    const uint64_t *base, uint64_t pages, size_t *hint)
{
	size_t after = rr_points_first_after(n->written, n->nr_written, from, hint);
	uint64_t b = base ? *base : written_at_index(n, from, after);

	return written_exceeds_index(n, from, b + pages, after);
}

uint64_t rr_curve_written_exceeds(const struct rr_node_curves *n, uint64_t from, uint64_t target)
{
	size_t hint = 0;

	return rr_curve_written_exceeds_hinted(n, from, target, &hint);
}

/* The first source after @t, from *@hint when given (else from the start). */
static size_t first_source_after_hinted(const struct rr_wake_source *s, size_t n, uint64_t t,
					size_t *hint)
{
	size_t from_start = 0;

	return gallop_first_after(s, n, t, hint ? hint : &from_start, source_ts);
}

uint64_t rr_curve_next_isolation_pass_hinted(const struct rr_node_curves *n, uint64_t from,
					     uint32_t task, struct rr_curve_hints *h)
{
	for (size_t i = first_source_after_hinted(n->isolation_pass, n->nr_isolation_pass, from,
						  h ? &h->isolation : NULL);
	     i < n->nr_isolation_pass; i++)
		if (n->isolation_pass[i].task != task)
			return n->isolation_pass[i].ts;
	return UINT64_MAX;
}

uint64_t rr_curve_next_isolation_pass(const struct rr_node_curves *n, uint64_t from, uint32_t task)
{
	return rr_curve_next_isolation_pass_hinted(n, from, task, NULL);
}

uint64_t rr_curve_next_progress(const struct rr_node_curves *n, uint64_t from, uint32_t task,
				uint32_t ppm)
{
	return rr_curve_next_progress_hinted(n, from, task, ppm, NULL);
}

uint64_t rr_curve_next_progress_hinted(const struct rr_node_curves *n, uint64_t from,
				       uint32_t task, uint32_t ppm, struct rr_curve_hints *h)
{
	size_t i = first_source_after_hinted(n->direct_batches, n->nr_direct_batches, from,
					     h ? &h->direct : NULL);

	/* the next batch above ppm, skipping the sleeper's own */
	while ((i = rr_curve_next_batch_above(n, i, ppm)) < n->nr_direct_batches) {
		if (n->direct_batches[i].task != task)
			return n->direct_batches[i].ts;
		i++;
	}
	return UINT64_MAX;
}

int64_t rr_curve_efficiency_ppm(const struct rr_node_curves *n, uint64_t t)
{
	return rr_curve_efficiency_ppm_hinted(n, t, NULL);
}

int64_t rr_curve_efficiency_ppm_hinted(const struct rr_node_curves *n, uint64_t t,
				       struct rr_curve_hints *h)
{
	long hi = h ? (long)rr_points_first_after(n->cum_scanned, n->nr_cum, t, &h->cum_hi) - 1 :
		last_at_or_before(n->cum_scanned, n->nr_cum, t);

	if (hi < 0)
		hi = n->nr_cum ? 0 : -1;
	if (hi < 0)
		return -1;
	/* nothing scanned up to t: no window can tell */
	if (!n->cum_scanned[hi].v)
		return -1;
	for (uint64_t w = EFFICIENCY_WINDOW_NS, k = 0; w <= EFFICIENCY_MAX_WINDOW_NS; w *= 2, k++) {
		uint64_t from = t > w ? t - w : 0;
		long lo = h && k < RR_EFFICIENCY_WINDOWS ?
			(long)rr_points_first_after(n->cum_scanned, n->nr_cum, from, &h->cum_lo[k]) - 1 :
			last_at_or_before(n->cum_scanned, n->nr_cum, from);
		uint64_t s0 = lo < 0 ? 0 : n->cum_scanned[lo].v;
		uint64_t r0 = lo < 0 ? 0 : n->cum_reclaimed[lo].v;
		uint64_t ds = n->cum_scanned[hi].v - s0, dr = n->cum_reclaimed[hi].v - r0;

		if (ds)
			return (int64_t)(dr * 1000000 / ds);
	}
	return -1;
}

uint64_t rr_curve_inflight_at(const struct rr_curves *c, uint64_t t)
{
	long i = last_at_or_before(c->inflight, c->nr_inflight, t);

	return i < 0 ? 0 : c->inflight[i].v;
}

uint64_t rr_curve_inflight_at_hinted(const struct rr_curves *c, uint64_t t, size_t *hint)
{
	size_t i = rr_points_first_after(c->inflight, c->nr_inflight, t, hint);

	return i ? c->inflight[i - 1].v : 0;
}

uint64_t rr_curve_uncongested_after(const struct rr_curves *c, uint64_t from, uint64_t below)
{
	long i = last_at_or_before(c->inflight, c->nr_inflight, from);

	for (size_t k = i < 0 ? 0 : (size_t)i + 1; k < c->nr_inflight; k++) {
		/* a completion is a step down: clear_wb_congested() runs there */
		if (k > 0 && c->inflight[k].v < c->inflight[k - 1].v && c->inflight[k].v < below)
			return c->inflight[k].ts;
	}
	return UINT64_MAX;
}

/* rr_points_first_after() over a node's samples (pointers to them, by time). */
static size_t first_sample_after(const struct rr_node_curves *n, uint64_t t, size_t *hint)
{
	return gallop_first_after(n->samples, n->nr_samples, t, hint, sample_ts);
}

const struct rr_counter_sample *rr_curve_sample_at_hinted(const struct rr_node_curves *n,
							  uint64_t t, struct rr_curve_hints *h)
{
	size_t i = first_sample_after(n, t, &h->sample);

	return i ? n->samples[i - 1] : NULL;
}

const struct rr_counter_sample *rr_curve_sample_at(const struct rr_node_curves *n, uint64_t t)
{
	size_t hint = 0, i = first_sample_after(n, t, &hint);

	return i ? n->samples[i - 1] : NULL;
}

uint64_t rr_curve_next_sample_after_hinted(const struct rr_node_curves *n, uint64_t t,
					   struct rr_curve_hints *h)
{
	size_t i = first_sample_after(n, t, &h->sample);

	return i < n->nr_samples ? n->samples[i]->ts : UINT64_MAX;
}

uint64_t rr_curve_next_sample_after(const struct rr_node_curves *n, uint64_t t)
{
	struct rr_curve_hints h = { 0 };

	return rr_curve_next_sample_after_hinted(n, t, &h);
}

uint64_t rr_curve_next_inflight_after_hinted(const struct rr_curves *c, uint64_t t, size_t *hint)
{
	size_t k = rr_points_first_after(c->inflight, c->nr_inflight, t, hint);

	return k < c->nr_inflight ? c->inflight[k].ts : UINT64_MAX;
}

uint64_t rr_curve_next_inflight_after(const struct rr_curves *c, uint64_t t)
{
	size_t k = first_after(c->inflight, c->nr_inflight, t);

	return k < c->nr_inflight ? c->inflight[k].ts : UINT64_MAX;
}
