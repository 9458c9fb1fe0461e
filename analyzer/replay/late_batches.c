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

int rr_curve_build_best_efficiency(struct rr_node_curves *n)
{
	size_t cnt = n->nr_cum;
	uint32_t *tree;

	n->eff_tree = NULL;
	if (!cnt)
		return 0;
	tree = calloc(2 * cnt, sizeof(*tree));
	if (!tree)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		int64_t e = rr_curve_efficiency_ppm(n, n->cum_scanned[i].ts);

		tree[cnt + i] = e > 0 ? (uint32_t)e : 0;
	}
	for (size_t i = cnt - 1; i > 0; i--)
		tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
	n->eff_tree = tree;
	return 0;
}

uint32_t rr_curve_best_efficiency_ppm(const struct rr_node_curves *n, uint64_t from, uint64_t to)
{
	int64_t at_from = rr_curve_efficiency_ppm(n, from);
	uint32_t best = at_from > 0 ? (uint32_t)at_from : 0;
	size_t cnt = n->nr_cum, lo, hi;

	if (!n->eff_tree || to <= from)
		return best;
	/* leaves [lo, hi): the node's batches in (from, to] */
	lo = first_cum_after(n, from) + cnt;
	hi = first_cum_after(n, to) + cnt;
	while (lo < hi) {
		if (lo & 1) {
			best = n->eff_tree[lo] > best ? n->eff_tree[lo] : best;
			lo++;
		}
		if (hi & 1) {
			hi--;
			best = n->eff_tree[hi] > best ? n->eff_tree[hi] : best;
		}
		lo /= 2;
		hi /= 2;
	}
	return best;
}

uint64_t rr_late_batch_reclaimed(const struct rr_node_curves *n, uint64_t recorded_ts,
				 uint64_t replayed_ts, uint64_t scanned, uint64_t reclaimed)
{
	int64_t at_rec;
	uint32_t best;
	uint64_t scaled;

	if (replayed_ts <= recorded_ts || !reclaimed || reclaimed >= scanned)
		return reclaimed;
	at_rec = rr_curve_efficiency_ppm(n, recorded_ts);
	if (at_rec <= 0)
		return reclaimed;	/* nothing to scale against */
	best = rr_curve_best_efficiency_ppm(n, recorded_ts, replayed_ts);
	if (best <= (uint64_t)at_rec)
		return reclaimed;
	scaled = (uint64_t)((double)reclaimed * (double)best / (double)at_rec);
	return scaled < scanned ? (scaled > reclaimed ? scaled : reclaimed) : scanned;
}
