// SPDX-License-Identifier: GPL-2.0
/*
 * The values at a few ranks of an array of uint64_t without sorting it
 * (select_u64.h). A replay reports only the p50, p90 and p99 of each
 * node's stall lengths; sorting the 100 000 lengths per node of a large
 * trace was 6 % of a replay. The value at a rank is the one a sort puts
 * there, whatever the algorithm, so the percentiles are unchanged.
 */
#include "select_u64.h"
#include "sort_u64.h"

/*
 * Wirth's selection: afterwards v[k] holds the value a sort puts at k,
 * everything in [lo, k) is <= it and everything in (k, hi) >= it. 0, or
 * -1 when it took more rounds than a fair pivot would (crafted input
 * could make it quadratic): the caller sorts instead.
 */
static int select_at(uint64_t *v, long lo, long hi, long k, unsigned budget)
{
	long l = lo, r = hi - 1;

	while (l < r) {
		uint64_t x = v[k];
		long i = l, j = r;

		if (!budget--)
			return -1;
		/* x is in [l, r], so both scans stop inside it */
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				uint64_t s = v[i];

				v[i++] = v[j];
				v[j--] = s;
			}
		} while (i <= j);
		if (j < k)
			l = i;
		if (k < i)
			r = j;
	}
	return 0;
}

void rr_select_ranks_u64(uint64_t *v, size_t n, const size_t *ranks, size_t nr, uint64_t *out)
{
	unsigned budget = 16;
	size_t lo = 0;

	for (size_t m = n; m > 1; m /= 2)
		budget += 2;
	if (n < 64) {
		rr_sort_u64(v, n);
		goto read;
	}
	for (size_t i = 0; i < nr; i++) {
		/* ranks ascend: the next one lies at or after this one */
		if (select_at(v, (long)lo, (long)n, (long)ranks[i], budget)) {
			rr_sort_u64(v, n);
			goto read;
		}
		lo = ranks[i];
	}
read:
	for (size_t i = 0; i < nr; i++)
		out[i] = n ? v[ranks[i]] : 0;
}
