// SPDX-License-Identifier: GPL-2.0
/*
 * The pre-check of uncompressed data pages: each page's commit size, and
 * every record walked exactly as libtraceevent's kbuffer will walk it.
 */
#include <stdint.h>

#include "precheck_cursor.h"

/*
 * The records of one page, [pos, end): each must end inside the committed
 * data. kbuffer hands out a record's size as its header says, and readers
 * copy that much (fuzzing found reads past the page).
 */
static int check_records(struct cur *c, uint64_t pos, uint64_t end, const char *what)
{
	while (pos < end) {
		uint64_t at = pos, h, len;
		unsigned int type;

		if (end - pos < 4)
			return rr_pc_bad(c, at, "%s: a record header runs past the page's data", what);
		h = rd32(c, pos);
		/* ring_buffer_event: type_len is the low 5 bits in the file's order */
		type = c->big ? (unsigned int)(h >> 27) : (unsigned int)(h & 31);
		if (type >= 29) {		/* padding, time extend, time stamp */
			if (end - pos < 8)
				return rr_pc_bad(c, at, "%s: a record header runs past the page's data",
					   what);
			if (type == 29) {	/* padding to the end, or a discarded event */
				/*
				 * kbuffer moves on to pos + 4 + len with len a C
				 * int: at or past the end the page is done, but a
				 * length that is negative as an int (or overflows
				 * it) sends it backwards, out of the page.
				 */
				len = rd32(c, pos + 4);
				if (len > (uint64_t)INT32_MAX - c->page_size)
					return rr_pc_bad(c, at, "%s: a padding record of length %llu", what,
						   (unsigned long long)len);
				if (len >= end - pos - 4)
					return 0;
				pos += 4 + len;
			} else {
				pos += 8;
			}
			continue;
		}
		if (type == 0) {		/* a length word follows: it counts itself */
			if (end - pos < 8)
				return rr_pc_bad(c, at, "%s: a record header runs past the page's data",
					   what);
			len = rd32(c, pos + 4);
			if (len < 4)
				return rr_pc_bad(c, at, "%s: a record of length %llu", what,
					   (unsigned long long)len);
			/* kbuffer rounds it up to whole words: walk as it will */
			len = (len + 3) & ~(uint64_t)3;
		} else {
			len = (uint64_t)type * 4;
		}
		if (len > end - pos - 4)
			return rr_pc_bad(c, at, "%s: a record of %llu bytes runs past the page's data "
				   "(%llu bytes left)", what, (unsigned long long)len,
				   (unsigned long long)(end - pos - 4));
		pos += 4 + len;
	}
	return 0;
}

/*
 * Uncompressed ring-buffer pages: libtraceevent's kbuffer trusts each page's
 * commit size (fuzzing found a read past the page), so bound it here: the
 * data and, when the page says a lost-event count is stored, that count
 * must fit in the page; then every record inside the data.
 */
int rr_pc_check_pages(struct cur *c, uint64_t off, uint64_t size, const char *what)
{
	uint64_t hdr = 8 + (uint64_t)c->commit_size, page = c->page_size;

	if (size % page)
		return rr_pc_bad(c, off, "%s (%llu bytes) is not a whole number of %llu-byte pages", what,
			   (unsigned long long)size, (unsigned long long)page);
	for (uint64_t p = off; p < off + size; p += page) {
		uint64_t commit = rr_pc_rd(c, p + 8, c->commit_size);
		uint64_t len = commit & ((1u << 27) - 1);
		uint64_t room = page - hdr - ((commit & (1u << 30)) ? (uint64_t)c->commit_size : 0);

		if (len > room)
			return rr_pc_bad(c, p + 8, "%s: a page commits %llu bytes, more than its %llu", what,
				   (unsigned long long)len, (unsigned long long)room);
		if (check_records(c, p + hdr, p + hdr + len, what))
			return 1;
	}
	return 0;
}
