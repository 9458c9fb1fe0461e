/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Giving back the file pages the trace.dat reader has consumed.
 *
 * libtracecmd (1.3) reads an uncompressed trace.dat through private
 * read-only mmap windows and keeps every window mapped until the process
 * exits, so a process that reads a whole file ends with the whole file in
 * its RSS. Records of one cpu stream are consumed in file order, and once a
 * record of a later sub-buffer has been delivered no earlier page of that
 * stream is referenced again, so those pages can be dropped from our page
 * tables with madvise(MADV_DONTNEED): they stay in the page cache and a
 * later access (none is made) would fault the same bytes back in.
 *
 * Only ranges proven to lie in a mapping of this very file (device, inode
 * and file offset checked in /proc/self/maps) are ever released; records
 * that live in heap buffers (compressed v7 sections) are left alone.
 */
#ifndef RR_PARSERS_PAGE_RELEASE_H
#define RR_PARSERS_PAGE_RELEASE_H

#include <stdint.h>
#include <sys/types.h>

/* One cpu stream of one buffer (top or instance). */
struct rr_release_cursor {
	uintptr_t delta;	/* address - file offset of the current window's pages */
	uintptr_t lo;		/* first address of the window not yet released */
	uintptr_t vma_lo, vma_hi;	/* the window's mapping; vma_hi == 0: none */
};

struct rr_page_release {
	dev_t dev;
	ino_t ino;
	int enabled;
	int misses;		/* lookups in a row that found no mapping of the file */
	uintptr_t sys_page;	/* getpagesize() */
	uint64_t trace_page;	/* the file's sub-buffer size (a power of two) */
	struct rr_release_cursor *cur;
	size_t nr_cur;
	uint64_t released;	/* bytes given back, for the curious */
};

/* 0, or -1 when releasing cannot be done (then rr_release_note is a no-op). */
int rr_release_init(struct rr_page_release *r, const char *path, uint64_t trace_page_size);
void rr_release_fini(struct rr_page_release *r);

/* Slow path of rr_release_note: a new window, or enough to give back. */
void rr_release_advance(struct rr_page_release *r, size_t stream, uintptr_t addr,
			uint64_t off);

/* Chunks given back at a time: few system calls, little left resident. */
#define RR_RELEASE_CHUNK	(1u << 20)

/*
 * A record's offset (tep_record.offset) is that of its event header and its
 * data follows the header, so within one mapping data - offset varies by
 * the header's few bytes; the mapping's own delta is page aligned.
 */
static inline uintptr_t rr_release_delta(const struct rr_page_release *r, uintptr_t addr,
					 uint64_t off)
{
	return (addr - (uintptr_t)off) & ~(r->sys_page - 1);
}

/*
 * A record of @stream (a dense index per buffer and cpu) lies at @data,
 * file offset @off. Inline: it runs for every record.
 */
static inline void rr_release_note(struct rr_page_release *r, size_t stream, const void *data,
				   uint64_t off)
{
	uintptr_t addr = (uintptr_t)data;
	const struct rr_release_cursor *c;

	if (!r->enabled)
		return;
	if (stream < r->nr_cur) {
		c = &r->cur[stream];
		if (rr_release_delta(r, addr, off) == c->delta &&
		    (!c->vma_hi || addr < c->lo + RR_RELEASE_CHUNK + r->trace_page))
			return;
	}
	rr_release_advance(r, stream, addr, off);
}

#endif
