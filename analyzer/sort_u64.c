// SPDX-License-Identifier: GPL-2.0
/* Sorting arrays of uint64_t (sort_u64.h). */
#include <stdlib.h>
#include <string.h>

#include "sort_u64.h"

int rr_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * An LSD radix sort by bytes: one pass counts all eight bytes, then one
 * pass per byte that not every value shares (durations in ns fit in 4 or
 * 5 of the 8). Several times faster than qsort()'s comparator calls on the
 * 100 000 episode or stall lengths per node of a large trace; qsort() when
 * short, or when no scratch space can be had.
 */
void rr_sort_u64(uint64_t *v, size_t n)
{
	size_t count[8][256] = { { 0 } };
	uint64_t *tmp, *src = v, *dst;

	if (n < 256 || !(tmp = malloc(n * sizeof(*tmp)))) {
		if (n > 1)
			qsort(v, n, sizeof(*v), rr_cmp_u64);
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 8; b++)
			count[b][(v[i] >> (8 * b)) & 0xff]++;
	dst = tmp;
	for (unsigned b = 0; b < 8; b++) {
		size_t sum = 0;
		uint64_t *x;

		if (count[b][(v[0] >> (8 * b)) & 0xff] == n)
			continue;	/* every value has this byte */
		for (unsigned d = 0; d < 256; d++) {
			size_t c = count[b][d];

			count[b][d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[b][(src[i] >> (8 * b)) & 0xff]++] = src[i];
		x = src;
		src = dst;
		dst = x;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}
