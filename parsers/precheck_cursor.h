/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pre-check's reading cursor, shared by its two files: precheck.c walks
 * the file's structure, precheck_pages.c the records of its data pages.
 */
#ifndef RR_PARSERS_PRECHECK_CURSOR_H
#define RR_PARSERS_PRECHECK_CURSOR_H

#include <stdint.h>
#include <string.h>

#include "precheck.h"

struct cur {
	const unsigned char *p;
	uint64_t size;
	int big;		/* the file is big endian */
	int version;
	int compressed_ok;	/* v7 with a compression algorithm */
	uint32_t page_size;
	int commit_size;	/* of the ring-buffer page header (header_page's "commit") */
	struct rr_section_map *map;
	char *err;
	size_t errlen;
};

/* Say what is wrong at @off (into c->err); returns 1. */
int rr_pc_bad(struct cur *c, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An unsigned integer of @bytes at @off, in the file's byte order. */
uint64_t rr_pc_rd(const struct cur *c, uint64_t off, int bytes);

/* rd(c, off, 4), for the record walk: it runs for every record of the file. */
static inline uint32_t rd32(const struct cur *c, uint64_t off)
{
	uint32_t v;

	memcpy(&v, c->p + off, 4);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return c->big ? __builtin_bswap32(v) : v;
#else
	return c->big ? v : __builtin_bswap32(v);
#endif
}

/* The uncompressed ring-buffer pages of one cpu stream (precheck_pages.c). */
int rr_pc_check_pages(struct cur *c, uint64_t off, uint64_t size, const char *what);

#endif
