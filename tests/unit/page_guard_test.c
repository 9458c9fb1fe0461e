// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the page guard (parsers/page_guard.c): armed, a page whose
 * commit runs past it reaches kbuffer as an empty page and is refused once,
 * with the pre-check's message; a sound page passes unchanged; a refusal
 * does not outlive its disarm; and a real load of the fuzz find fails while
 * a bundled compressed trace loaded after it still loads. The pages are
 * built by hand: 8-byte timestamp, 8-byte commit, then 4-byte-aligned
 * ring-buffer events (reference section 4). TAP output.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "page_guard.h"
#include "reclaim_replay/trace.h"

#include "tap.h"

#define PAGE 4096

static unsigned char page[PAGE] __attribute__((aligned(8)));

/* One event of type_len 1 (4 bytes of data) holding @data; commit @commit. */
static void make_page(uint64_t commit, uint32_t data)
{
	uint32_t hdr = (10u << 5) | 1;	/* time delta 10, type_len 1 */

	memset(page, 0, sizeof(page));
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, &hdr, 4);
	memcpy(page + 20, &data, 4);
}

/* The first event's data word kbuffer gives for the page, or 0 for none. */
static uint32_t first_event(void)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	uint32_t v = 0;
	void *d;

	if (!kb)
		return 0;
	if (kbuffer_load_subbuffer(kb, page) == 0 && (d = kbuffer_read_event(kb, &ts)))
		memcpy(&v, d, 4);
	kbuffer_free(kb);
	return v;
}

int main(void)
{
	struct rr_section_map map = { .version = 7, .long_size = 8, .commit_size = 8,
				      .page_size = PAGE };
	struct rr_trace *t = NULL;
	int ret;

	make_page(8, 0xabcd1234);
	rr_page_guard_arm(&map);
	check(first_event() == 0xabcd1234, "armed: a sound page reaches kbuffer unchanged");
	check(rr_page_guard_disarm() == 0, "armed: a sound page is not refused");

	/* 134213657 is the fuzz find's commit; 4080 = 4096 - 8 - 8 is the room */
	make_page(134213657, 0xabcd1234);
	rr_page_guard_arm(&map);
	check(first_event() == 0, "armed: a page committing past its end reaches kbuffer empty");
	check(rr_page_guard_disarm() == 1, "armed: that page is refused");
	check(strstr(rr_page_guard_refusal(), "a page commits 134213657 bytes, more than its 4080") != NULL,
	      "the refusal says what the page commits and its room");
	check(rr_page_guard_disarm() == 0, "a refusal is reported once, not to the next file");

	make_page(8, 0x5a5a5a5a);
	check(first_event() == 0x5a5a5a5a, "unarmed: the page goes straight to kbuffer");

	ret = rr_trace_load("tests/fuzz/corpus/v7-zstd-page-commit-huge.dat", &t);
	check(ret != 0, "the fuzz find's file fails to load");
	rr_trace_free(t);
	t = NULL;
	ret = rr_trace_load("traces/counters-writer.dat", &t);
	check(ret == 0 && t && t->records_read > 0,
	      "traces/counters-writer.dat (zstd) still loads after it");
	rr_trace_free(t);
	return tap_done();
}
