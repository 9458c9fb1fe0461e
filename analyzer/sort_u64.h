/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arrays of uint64_t (durations, page counts): sorted, then read by
 * nearest rank. Shared by the stats, the replay engine, merged reports and
 * plots, so every percentile the tool prints is the same definition.
 */
#ifndef RR_SORT_U64_H
#define RR_SORT_U64_H

#include <stddef.h>
#include <stdint.h>

/* Sort @v ascending (values only: any correct sort gives the same array). */
void rr_sort_u64(uint64_t *v, size_t n);

/* The nearest-rank @pct percentile of a sorted array; 0 when empty. */
static inline uint64_t rr_percentile_u64(const uint64_t *sorted, size_t n, unsigned pct)
{
	size_t rank = (n * pct + 99) / 100;

	return n ? sorted[rank ? rank - 1 : 0] : 0;
}

/* qsort() comparator for uint64_t. */
int rr_cmp_u64(const void *a, const void *b);

#endif
