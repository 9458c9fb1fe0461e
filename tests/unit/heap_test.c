// SPDX-License-Identifier: GPL-2.0
/*
 * The replay engine's heap of task wake-ups (analyzer/replay/engine.h)
 * against a plain array searched for its minimum: random pushes, pops and
 * replace-tops (the yield of run_task(): the new entry comes after the
 * top), with keys and tasks from small ranges so that ties on the key, and
 * on both key and task with different versions, are frequent. Every entry
 * that comes out must be one that went in, carry the smallest (key, task)
 * left, and the heap must end empty with nothing lost. The heap grows from
 * 256 entries, so the sentinel writes past the last entry are checked by
 * the sanitizers at the growth boundaries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/engine.h"
#include "tap.h"

struct ref {
	struct heap_entry *e;
	size_t n, cap;
};

static void ref_add(struct ref *r, struct heap_entry in)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->e = realloc(r->e, r->cap * sizeof(*r->e));
		if (!r->e)
			abort();
	}
	r->e[r->n++] = in;
}

/* index of the smallest (key, task), or SIZE_MAX when empty */
static size_t ref_min(const struct ref *r)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < r->n; i++)
		if (best == SIZE_MAX ||
		    r->e[i].key < r->e[best].key ||
		    (r->e[i].key == r->e[best].key && r->e[i].task < r->e[best].task))
			best = i;
	return best;
}

/* remove @out from the reference: 0, or -1 when it never went in */
static int ref_take(struct ref *r, struct heap_entry out)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->e[i].key == out.key && r->e[i].task == out.task &&
		    r->e[i].version == out.version) {
			r->e[i] = r->e[--r->n];
			return 0;
		}
	return -1;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * One run: @ops random operations, keys below @key_range, tasks below
 * @tasks. Returns the number of mismatches (0 when the heap behaved).
 */
static unsigned run(unsigned ops, uint64_t key_range, uint32_t tasks, size_t *max_n)
{
	struct heap h = { 0 };
	struct ref r = { 0 };
	uint32_t version = 0;
	unsigned bad = 0;

	*max_n = 0;
	for (unsigned op = 0; op < ops; op++) {
		unsigned what = (unsigned)(rnd() % 8);

		/* grow to a few thousand entries, then shrink back to empty */
		if (op > ops / 2)
			what = what < 2 ? 0 : what < 5 ? 1 : 2;
		if (what >= 4 || !h.n) {
			struct heap_entry in = { rnd() % key_range, (uint32_t)(rnd() % tasks), ++version };

			if (rr_heap_push(&h, in.key, in.task, in.version)) {
				bad++;
				break;
			}
			ref_add(&r, in);
		} else if (what < 2) {
			struct heap_entry out = rr_heap_pop(&h);
			size_t m = ref_min(&r);

			if (m == SIZE_MAX || out.key != r.e[m].key || out.task != r.e[m].task ||
			    ref_take(&r, out))
				bad++;
		} else {
			/* a yield: the new entry's key is after the top's */
			uint64_t top = h.e[0].key;
			struct heap_entry in = { top + 1 + rnd() % key_range,
						 (uint32_t)(rnd() % tasks), ++version };
			struct heap_entry out = rr_heap_replace_top(&h, in);
			size_t m = ref_min(&r);

			if (m == SIZE_MAX || out.key != r.e[m].key || out.task != r.e[m].task ||
			    ref_take(&r, out))
				bad++;
			ref_add(&r, in);
		}
		if (h.n != r.n)
			bad++;
		if (h.n > *max_n)
			*max_n = h.n;
	}
	while (h.n) {
		struct heap_entry out = rr_heap_pop(&h);
		size_t m = ref_min(&r);

		if (m == SIZE_MAX || out.key != r.e[m].key || out.task != r.e[m].task ||
		    ref_take(&r, out))
			bad++;
	}
	if (r.n)
		bad++;
	free(h.e);
	free(r.e);
	return bad;
}

int main(void)
{
	size_t max_n;
	unsigned bad;

	bad = run(20000, 50, 8, &max_n);
	check(bad == 0 && max_n > 300,
	      "many ties (keys < 50, 8 tasks): every pop and replace-top gives the smallest (key, task) in, nothing lost");
	bad = run(20000, 1000000000ULL, 500, &max_n);
	check(bad == 0 && max_n > 300, "wide keys, 500 tasks: same");
	bad = run(3000, 3, 2, &max_n);
	check(bad == 0, "keys < 3, 2 tasks: nearly every entry ties with another");

	{
		struct heap h = { 0 };
		struct heap_entry out;
		int ok = 1;

		/* one entry: pop, and replace-top of a heap of one */
		ok &= !rr_heap_push(&h, 10, 1, 1);
		out = rr_heap_replace_top(&h, (struct heap_entry){ .key = 20, .task = 0, .version = 2 });
		ok &= out.key == 10 && out.task == 1 && h.n == 1;
		out = rr_heap_pop(&h);
		ok &= out.key == 20 && out.task == 0 && out.version == 2 && h.n == 0;
		/* equal keys come out by task */
		ok &= !rr_heap_push(&h, 5, 7, 1) && !rr_heap_push(&h, 5, 3, 2) &&
		      !rr_heap_push(&h, 5, 9, 3);
		ok &= rr_heap_pop(&h).task == 3 && rr_heap_pop(&h).task == 7 &&
		      rr_heap_pop(&h).task == 9;
		check(ok, "a heap of one, and ties on the key broken by the lower task");
		free(h.e);
	}
	return tap_done();
}
