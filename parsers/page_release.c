// SPDX-License-Identifier: GPL-2.0
/* Dropping consumed trace.dat pages from our RSS (see page_release.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "page_release.h"

/* After this many lookups that found no mapping of the file, give up. */
#define MAX_MISSES 8

int rr_release_init(struct rr_page_release *r, const char *path, uint64_t trace_page_size)
{
	struct stat st;
	long sys_page = sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	if (sys_page <= 0 || stat(path, &st) || !trace_page_size ||
	    (trace_page_size & (trace_page_size - 1)))
		return -1;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	r->sys_page = (uintptr_t)sys_page;
	r->trace_page = trace_page_size;
	r->enabled = 1;
	return 0;
}

void rr_release_fini(struct rr_page_release *r)
{
	free(r->cur);
	memset(r, 0, sizeof(*r));
}

/*
 * The mapping of our file that holds @addr, mapping file offset x at
 * x + @delta, from
 * /proc/self/maps; 0 when there is none (the record is in a heap buffer).
 */
static int find_vma(const struct rr_page_release *r, uintptr_t addr, uintptr_t delta,
		    uintptr_t *lo, uintptr_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		uintptr_t start, end;
		uint64_t pgoff, ino;
		unsigned maj, mnr;
		char perms[8];

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %" SCNx64 " %x:%x %" SCNu64,
			   &start, &end, perms, &pgoff, &maj, &mnr, &ino) != 7)
			continue;
		if (addr < start || addr >= end)
			continue;
		/* read-only and private: dropped pages fault back unchanged from the file */
		found = !strcmp(perms, "r--p") && ino == (uint64_t)r->ino &&
			maj == major(r->dev) && mnr == minor(r->dev) &&
			start - (uintptr_t)pgoff == delta;
		if (found) {
			*lo = start;
			*hi = end;
		}
		break;
	}
	fclose(f);
	return found;
}

static struct rr_release_cursor *cursor(struct rr_page_release *r, size_t stream)
{
	if (stream >= r->nr_cur) {
		size_t n = stream + 8;
		struct rr_release_cursor *p = realloc(r->cur, n * sizeof(*p));

		if (!p)
			return NULL;
		/* delta UINTPTR_MAX never matches: the first record looks the window up */
		for (size_t i = r->nr_cur; i < n; i++)
			p[i] = (struct rr_release_cursor){ .delta = UINTPTR_MAX };
		r->cur = p;
		r->nr_cur = n;
	}
	return &r->cur[stream];
}

void rr_release_advance(struct rr_page_release *r, size_t stream, uintptr_t addr, uint64_t off)
{
	struct rr_release_cursor *c = cursor(r, stream);
	uintptr_t delta = rr_release_delta(r, addr, off), lo, hi;
	/* the sub-buffer holding the record is still in use: release below it */
	uintptr_t bound = ((uintptr_t)(off & ~(r->trace_page - 1)) + delta) & ~(r->sys_page - 1);

	if (!c) {
		r->enabled = 0;
		return;
	}
	if (delta != c->delta || addr < c->vma_lo || addr >= c->vma_hi) {
		/* Another window (or the first): is it a mapping of our file? */
		c->delta = delta;
		if (!find_vma(r, addr, delta, &c->vma_lo, &c->vma_hi)) {
			c->vma_lo = c->vma_hi = 0;
			if (++r->misses >= MAX_MISSES)
				r->enabled = 0;
			return;
		}
		r->misses = 0;
		c->lo = bound > c->vma_lo ? bound : c->vma_lo;
		return;
	}
	if (bound <= c->lo)
		return;
	/*
	 * Look again right before dropping: the cached window may have been
	 * unmapped by libtracecmd since, and its addresses reused by a heap
	 * block, which MADV_DONTNEED would zero. A fuzzed v6 file once ended
	 * with a record pointing 6 KiB below one of our queue blocks. One
	 * read of /proc/self/maps per 1 MiB given back (RR_RELEASE_CHUNK).
	 */
	if (!find_vma(r, c->lo, delta, &lo, &hi)) {
		c->delta = UINTPTR_MAX;	/* the next record looks its window up */
		c->vma_lo = c->vma_hi = 0;
		return;
	}
	if (bound > hi)
		bound = hi;	/* the mapping now ends sooner: only what is still ours */
	if (!madvise((void *)c->lo, bound - c->lo, MADV_DONTNEED))
		r->released += bound - c->lo;
	c->lo = bound;
}
