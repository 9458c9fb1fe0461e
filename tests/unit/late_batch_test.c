// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the late-batch shortcut (analyzer/replay/late_batches.c):
 * on random node curves, rr_curve_next_better_points() against a brute
 * force scan of the efficiency leaves, and rr_late_batch_reclaimed_brief()
 * (the engine's path: precomputed brief fields, hints, O(1) span maxima)
 * against rr_late_batch_reclaimed() without hints (a search of both ends
 * and the segment tree), for batches recorded at each point and replayed
 * at random later times and at later points' own times. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/curves.h"

#include "tap.h"

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* @cnt shrink batches: cumulative scanned and reclaimed, some at equal times */
static void make_node(struct rr_node_curves *n, size_t cnt)
{
	uint64_t ts = 1000000, s = 0, r = 0;

	memset(n, 0, sizeof(*n));
	n->cum_scanned = calloc(cnt, sizeof(*n->cum_scanned));
	n->cum_reclaimed = calloc(cnt, sizeof(*n->cum_reclaimed));
	if (!n->cum_scanned || !n->cum_reclaimed)
		abort();
	for (size_t i = 0; i < cnt; i++) {
		uint64_t scanned = 32 + rnd() % 64;

		ts += rnd() % 4 ? 1000 + rnd() % 200000 : 0;
		s += scanned;
		r += rnd() % 3 ? rnd() % (scanned + 1) : 0;
		n->cum_scanned[i] = (struct rr_point){ .ts = ts, .v = s };
		n->cum_reclaimed[i] = (struct rr_point){ .ts = ts, .v = r };
	}
	n->nr_cum = cnt;
	if (rr_curve_build_best_efficiency(n))
		abort();
}

static void free_node(struct rr_node_curves *n)
{
	free(n->cum_scanned);
	free(n->cum_reclaimed);
	free(n->eff_tree);
	free(n->eff_pre);
	free(n->eff_suf);
	free(n->eff_sparse);
}

static int next_better_matches(const struct rr_node_curves *n, const uint32_t *next)
{
	const uint32_t *leaf = n->eff_tree + n->nr_cum;

	for (size_t i = 0; i < n->nr_cum; i++) {
		size_t j = i + 1;

		while (j < n->nr_cum && leaf[j] <= leaf[i])
			j++;
		if (next[i] != j)
			return 0;
	}
	return 1;
}

/* Every point as a recorded shrink, replayed at a few later times. */
static int brief_matches_search(const struct rr_node_curves *n, const uint32_t *next,
				size_t *nr_scaled)
{
	struct rr_curve_hints h = { 0 };
	uint64_t span = n->cum_scanned[n->nr_cum - 1].ts - n->cum_scanned[0].ts + 1;

	for (size_t i = 0; i < n->nr_cum; i++) {
		size_t after = i + 1;
		struct rr_batch_brief b = { .inactive = 1 };
		uint64_t rec = n->cum_scanned[i].ts;

		/* the brief as build_briefs() fills it: after equal times */
		while (after < n->nr_cum && n->cum_scanned[after].ts == rec)
			after++;
		b.cum_after = (uint32_t)after;
		b.rec_on_point = 1;
		b.rec_eff_ppm = n->eff_tree[n->nr_cum + after - 1];
		b.better_at = next[after - 1];
		for (int k = 0; k < 6; k++) {
			/* near, anywhere, and exactly at a later point's time */
			uint64_t replayed = k < 2 ? rec + rnd() % 400000 : k < 4 ? rec + rnd() % span :
				n->cum_scanned[i + rnd() % (n->nr_cum - i < 50 ? n->nr_cum - i : 50)].ts;
			uint64_t want, got;

			b.scanned = 32 + (uint32_t)(rnd() % 200);
			b.reclaimed = (uint32_t)(rnd() % (b.scanned + 1));
			want = rr_late_batch_reclaimed(n, rec, replayed, b.scanned, b.reclaimed, NULL);
			got = rr_late_batch_reclaimed_brief(n, &b, rec, replayed, &h);
			if (want != got) {
				fprintf(stderr, "# point %zu replayed %llu: %llu != %llu\n", i,
					(unsigned long long)replayed, (unsigned long long)got,
					(unsigned long long)want);
				return 0;
			}
			*nr_scaled += want > b.reclaimed;
		}
	}
	return 1;
}

int main(void)
{
	static const size_t sizes[] = { 1, 2, 17, 300, 5000 };
	char what[128];

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct rr_node_curves n;
		uint32_t *next;
		size_t nr_scaled = 0;

		make_node(&n, sizes[s]);
		next = rr_curve_next_better_points(&n);
		snprintf(what, sizeof(what), "%zu points: next better point = brute force", sizes[s]);
		check(next && next_better_matches(&n, next), what);
		snprintf(what, sizeof(what), "%zu points: brief shortcut = full search", sizes[s]);
		check(next && brief_matches_search(&n, next, &nr_scaled), what);
		if (sizes[s] >= 300) {
			/* the comparison must have seen both outcomes to mean much */
			snprintf(what, sizeof(what), "%zu points: some late batches scaled (%zu), some not",
				 sizes[s], nr_scaled);
			check(nr_scaled > 0 && nr_scaled < 6 * sizes[s], what);
		}
		free(next);
		free_node(&n);
	}
	return tap_done();
}
