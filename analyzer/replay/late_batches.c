// SPDX-License-Identifier: GPL-2.0
/*
 * Batches a policy made run later than recorded (design note 5, "released
 * later"): the node's efficiency may differ at the new time. A batch keeps
 * its recorded outcome unless the node reclaimed better somewhere between
 * its recorded and its replayed time; then its reclaimed pages scale by
 * the best efficiency seen over that span against the efficiency at its
 * recorded time, capped at its scanned pages.
 *
 * Taking the best over the whole span (not the efficiency at the new time
 * alone) keeps the figures monotone: a longer delay can only widen the
 * span, so a longer timeout never reclaims less in a late batch, and
 * wasted scanning never rises with it (docs/model.md, "Released late").
 *
 * The efficiency at each reclaim batch of the node is kept in a max
 * segment tree, so the best over a span is O(log n) per late batch.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "curves.h"

/* Index of the first cumulative point with ts > @t. */
static size_t first_cum_after(const struct rr_node_curves *n, uint64_t t)
{
	size_t lo = 0, hi = n->nr_cum;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (n->cum_scanned[mid].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#define RR_EFF_BLOCK_SHIFT 4
#define RR_EFF_BLOCK (1u << RR_EFF_BLOCK_SHIFT)

static inline uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/* The block prefix and suffix maxima and the sparse table over blocks. */
static int build_span_maxima(struct rr_node_curves *n)
{
	size_t cnt = n->nr_cum, nb = (cnt + RR_EFF_BLOCK - 1) >> RR_EFF_BLOCK_SHIFT, levels = 1;
	const uint32_t *leaf = n->eff_tree + cnt;

	while (((size_t)1 << levels) <= nb)
		levels++;
	n->eff_pre = malloc(cnt * sizeof(uint32_t));
	n->eff_suf = malloc(cnt * sizeof(uint32_t));
	n->eff_sparse = malloc(levels * nb * sizeof(uint32_t));
	if (!n->eff_pre || !n->eff_suf || !n->eff_sparse)
		return -ENOMEM;
	n->eff_blocks = nb;
	for (size_t b = 0; b < nb; b++) {
		size_t lo = b << RR_EFF_BLOCK_SHIFT;
		size_t hi = lo + RR_EFF_BLOCK < cnt ? lo + RR_EFF_BLOCK : cnt;
		uint32_t m = 0;

		for (size_t i = lo; i < hi; i++)
			n->eff_pre[i] = m = max_u32(m, leaf[i]);
		n->eff_sparse[b] = m;
		m = 0;
		for (size_t i = hi; i-- > lo;)
			n->eff_suf[i] = m = max_u32(m, leaf[i]);
	}
	for (size_t k = 1; k < levels; k++) {
		const uint32_t *prev = n->eff_sparse + (k - 1) * nb;
		uint32_t *cur = n->eff_sparse + k * nb;
		size_t half = (size_t)1 << (k - 1);

		for (size_t j = 0; j + 2 * half <= nb; j++)
			cur[j] = max_u32(prev[j], prev[j + half]);
	}
	return 0;
}

int rr_curve_build_best_efficiency(struct rr_node_curves *n)
{
	size_t cnt = n->nr_cum;
	struct rr_curve_hints hints = { 0 };
	uint32_t *tree;

	n->eff_tree = NULL;
	n->eff_pre = n->eff_suf = n->eff_sparse = NULL;
	n->eff_blocks = 0;
	if (!cnt)
		return 0;
	tree = calloc(2 * cnt, sizeof(*tree));
	if (!tree)
		return -ENOMEM;
	/* the leaves in time order: each window's search starts where the last ended */
	for (size_t i = 0; i < cnt; i++) {
		int64_t e = rr_curve_efficiency_ppm_hinted(n, n->cum_scanned[i].ts, &hints);

		tree[cnt + i] = e > 0 ? (uint32_t)e : 0;
	}
	for (size_t i = cnt - 1; i > 0; i--)
		tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
	n->eff_tree = tree;
	return build_span_maxima(n);
}

/* The best of the efficiency tree's leaves [lo, hi) (tree indexes); 0 if none. */
static uint32_t best_of_leaves(const uint32_t *tree, size_t lo, size_t hi)
{
	uint32_t best = 0;

	while (lo < hi) {
		if (lo & 1) {
			best = tree[lo] > best ? tree[lo] : best;
			lo++;
		}
		if (hi & 1) {
			hi--;
			best = tree[hi] > best ? tree[hi] : best;
		}
		lo /= 2;
		hi /= 2;
	}
	return best;
}

/*
 * The best of leaves [lo, hi) in O(1): the ends of the two blocks they
 * touch and, between them, two overlapping runs of whole blocks from the
 * sparse table. A span inside one block takes the tree (a few levels).
 * The same maximum as best_of_leaves(), only found faster: late batches
 * under the legacy policies span hundreds of batches.
 */
static uint32_t best_of_span(const struct rr_node_curves *n, size_t lo, size_t hi)
{
	size_t bl = lo >> RR_EFF_BLOCK_SHIFT, bh, between;
	uint32_t best;

	if (hi <= lo)
		return 0;
	bh = (hi - 1) >> RR_EFF_BLOCK_SHIFT;
	if (bl == bh)
		return best_of_leaves(n->eff_tree, lo + n->nr_cum, hi + n->nr_cum);
	best = max_u32(n->eff_suf[lo], n->eff_pre[hi - 1]);
	between = bh - bl - 1;
	if (between) {
		unsigned k = 63 - (unsigned)__builtin_clzll(between);
		const uint32_t *row = n->eff_sparse + k * n->eff_blocks;

		best = max_u32(best, max_u32(row[bl + 1], row[bh - ((size_t)1 << k)]));
	}
	return best;
}

/* The best efficiency at the node's batches in (from, to]; 0 if none. */
static uint32_t best_in_span(const struct rr_node_curves *n, uint64_t from, uint64_t to)
{
	size_t cnt = n->nr_cum;

	if (!n->eff_tree || to <= from)
		return 0;
	/* leaves [lo, hi): the node's batches in (from, to] */
	return best_of_leaves(n->eff_tree, first_cum_after(n, from) + cnt,
			      first_cum_after(n, to) + cnt);
}

uint32_t rr_curve_best_efficiency_ppm(const struct rr_node_curves *n, uint64_t from, uint64_t to)
{
	int64_t at_from = rr_curve_efficiency_ppm(n, from);
	uint32_t best = best_in_span(n, from, to);

	return at_from > (int64_t)best ? (uint32_t)at_from : best;
}

/*
 * With hints, both ends are searched from the caller's previous lookups,
 * and the efficiency at the recorded time, when that is the time of one of
 * the node's batches (as it is for the node's own batches), is read from
 * that batch's leaf: the leaf holds the same rr_curve_efficiency_ppm() of
 * the same time, with what is <= 0 stored as 0.
 */
uint64_t rr_late_batch_reclaimed(const struct rr_node_curves *n, uint64_t recorded_ts,
				 uint64_t replayed_ts, uint64_t scanned, uint64_t reclaimed,
				 struct rr_curve_hints *h)
{
	return rr_late_batch_reclaimed_from(n, recorded_ts, replayed_ts, scanned, reclaimed, h,
					    SIZE_MAX);
}

uint64_t rr_late_batch_reclaimed_from(const struct rr_node_curves *n, uint64_t recorded_ts,
				      uint64_t replayed_ts, uint64_t scanned, uint64_t reclaimed,
				      struct rr_curve_hints *h, size_t rec_after)
{
	size_t cnt = n->nr_cum, from = 0;
	int64_t at_rec;
	uint32_t best;
	uint64_t scaled;

	if (replayed_ts <= recorded_ts || !reclaimed || reclaimed >= scanned)
		return reclaimed;
	if (!h) {
		best = best_in_span(n, recorded_ts, replayed_ts);
	} else if (!n->eff_tree) {
		best = 0;
	} else {
		from = rec_after != SIZE_MAX ? rec_after :
			rr_points_first_after(n->cum_scanned, cnt, recorded_ts, &h->late_from);
		h->late_to = h->late_to < from ? from : h->late_to;
		best = best_of_span(n, from, rr_points_first_after(n->cum_scanned, cnt, replayed_ts,
								   &h->late_to));
	}
	if (!best)
		return reclaimed;	/* no batch of the node in the span did better than 0 */
	if (h && from && n->cum_scanned[from - 1].ts == recorded_ts)
		at_rec = n->eff_tree[cnt + from - 1];
	else
		at_rec = rr_curve_efficiency_ppm(n, recorded_ts);
	if (at_rec <= 0 || best <= (uint64_t)at_rec)
		return reclaimed;	/* nothing to scale against, or no better */
	scaled = (uint64_t)((double)reclaimed * (double)best / (double)at_rec);
	return scaled < scanned ? (scaled > reclaimed ? scaled : reclaimed) : scanned;
}

/*
 * Progress wakes (RR_WAKE_PROGRESS) look for the node's next direct batch
 * above an efficiency: on a node reclaiming at 3 % that used to walk
 * thousands of batches per sleep. A max segment tree (power-of-two size)
 * over each batch's efficiency, rounded up so that "above ppm" is decided
 * exactly as reclaimed * 10^6 > scanned * ppm, finds it in O(log n).
 */
static uint32_t batch_ppm_ceil(const struct rr_wake_source *w)
{
	uint64_t num = (uint64_t)w->reclaimed * 1000000;

	if (!w->scanned)
		return num ? UINT32_MAX : 0;
	num = (num + w->scanned - 1) / w->scanned;
	return num > UINT32_MAX ? UINT32_MAX : (uint32_t)num;
}

int rr_curve_build_progress_index(struct rr_node_curves *n)
{
	size_t size = 1;

	n->progress_tree = NULL;
	n->progress_size = 0;
	if (!n->nr_direct_batches)
		return 0;
	while (size < n->nr_direct_batches)
		size *= 2;
	n->progress_tree = calloc(2 * size, sizeof(*n->progress_tree));
	if (!n->progress_tree)
		return -ENOMEM;
	for (size_t i = 0; i < n->nr_direct_batches; i++)
		n->progress_tree[size + i] = batch_ppm_ceil(&n->direct_batches[i]);
	for (size_t i = size - 1; i > 0; i--)
		n->progress_tree[i] = n->progress_tree[2 * i] > n->progress_tree[2 * i + 1] ?
			n->progress_tree[2 * i] : n->progress_tree[2 * i + 1];
	n->progress_size = size;
	return 0;
}

size_t rr_curve_next_batch_above(const struct rr_node_curves *n, size_t start, uint32_t ppm)
{
	const uint32_t *t = n->progress_tree;
	size_t size = n->progress_size, i;

	if (!t || start >= n->nr_direct_batches)
		return n->nr_direct_batches;
	i = start + size;
	if (t[i] <= ppm) {
		/* climb to the first subtree to the right that holds one */
		for (;;) {
			while (i & 1) {
				i >>= 1;
				if (!i)
					return n->nr_direct_batches;
			}
			i++;
			if (t[i] > ppm)
				break;
		}
		while (i < size)
			i = t[2 * i] > ppm ? 2 * i : 2 * i + 1;
	}
	return i - size < n->nr_direct_batches ? i - size : n->nr_direct_batches;
}

/*
 * The next strictly better leaf of each point, by a stack of the points
 * still waiting for one, from the right: O(n) once per model, so that a
 * late batch whose span holds no better batch is told so by one load.
 */
uint32_t *rr_curve_next_better_points(const struct rr_node_curves *n)
{
	size_t cnt = n->nr_cum, depth = 0;
	const uint32_t *leaf = n->eff_tree ? n->eff_tree + cnt : NULL;
	uint32_t *next, *stack;

	if (!cnt || !leaf)
		return NULL;
	next = malloc(cnt * sizeof(*next));
	stack = malloc(cnt * sizeof(*stack));
	if (!next || !stack) {
		free(next);
		free(stack);
		return NULL;
	}
	for (size_t i = cnt; i-- > 0;) {
		while (depth && leaf[stack[depth - 1]] <= leaf[i])
			depth--;
		next[i] = depth ? stack[depth - 1] : (uint32_t)cnt;
		stack[depth++] = (uint32_t)i;
	}
	free(stack);
	return next;
}

/*
 * rr_late_batch_reclaimed_from() for a batch whose shrink is one of the
 * node's cumulative points: the same answer. It scales only when a leaf in
 * [cum_after, to) beats the leaf at the shrink (rec_eff_ppm, > 0), i.e.
 * when the first better one, better_at, lies before to = the first point
 * after the replayed time: when its time is <= the replayed time. On the
 * scale trace 65 % of `mainline`'s late batches stop there, 36 % of
 * `mainline-5.16rc`'s (docs/performance.md, sixth replay round).
 */
uint64_t rr_late_batch_reclaimed_brief(const struct rr_node_curves *n,
				       const struct rr_batch_brief *b, uint64_t recorded_ts,
				       uint64_t replayed_ts, struct rr_curve_hints *h)
{
	uint64_t reclaimed = b->reclaimed, scanned = b->scanned, scaled;
	size_t from = b->cum_after, to;
	uint32_t best;

	if (!b->rec_on_point || !h)
		return rr_late_batch_reclaimed_from(n, recorded_ts, replayed_ts, scanned,
						    reclaimed, h, from);
	if (replayed_ts <= recorded_ts || !reclaimed || reclaimed >= scanned)
		return reclaimed;
	if (!b->rec_eff_ppm || b->better_at >= n->nr_cum ||
	    n->cum_scanned[b->better_at].ts > replayed_ts)
		return reclaimed;	/* nothing to scale against, or no better */
	h->late_to = h->late_to < from ? from : h->late_to;
	to = rr_points_first_after(n->cum_scanned, n->nr_cum, replayed_ts, &h->late_to);
	best = best_of_span(n, from, to);
	scaled = (uint64_t)((double)reclaimed * (double)best / (double)b->rec_eff_ppm);
	return scaled < scanned ? (scaled > reclaimed ? scaled : reclaimed) : scanned;
}
