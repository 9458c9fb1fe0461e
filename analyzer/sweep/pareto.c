// SPDX-License-Identifier: GPL-2.0
/*
 * The Pareto front of stall against wasted scanning: the points that no
 * other point matches or beats on both while beating on one. Sorted by
 * stall (then waste), a point is on the front when its waste is below that
 * of every point of smaller stall; points equal on both are all kept.
 */
#include <stdlib.h>

#include "sweep/sweep.h"

static int by_stall_waste(const void *a, const void *b, void *ctx)
{
	const struct rr_sweep_fig *figs = ctx;
	const struct rr_sweep_fig *x = &figs[*(const uint32_t *)a];
	const struct rr_sweep_fig *y = &figs[*(const uint32_t *)b];

	if (x->stall_ns != y->stall_ns)
		return x->stall_ns < y->stall_ns ? -1 : 1;
	if (x->wasted != y->wasted)
		return x->wasted < y->wasted ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

uint32_t rr_pareto_front(const struct rr_sweep_fig *sum, uint32_t n, uint32_t *front)
{
	uint32_t *idx = malloc((size_t)(n ? n : 1) * sizeof(*idx)), nr = 0;
	uint64_t best = UINT64_MAX;	/* least waste among smaller stalls */

	if (!idx)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_stall_waste, (void *)sum);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;
		uint64_t stall = sum[idx[i]].stall_ns, w0 = sum[idx[i]].wasted;

		/* a run of equal stall: only its least waste can be on the front */
		while (j < n && sum[idx[j]].stall_ns == stall)
			j++;
		if (w0 < best) {
			for (uint32_t k = i; k < j && sum[idx[k]].wasted == w0; k++)
				front[nr++] = idx[k];
			best = w0;
		}
		i = j;
	}
	free(idx);
	return nr;
}
