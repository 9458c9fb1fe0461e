// SPDX-License-Identifier: GPL-2.0
/*
 * libtraceevent's kbuffer trusts a data page's commit size and each
 * record's length (precheck_pages.c), and libtracecmd hands it the pages of
 * a compressed v7 file straight from the decompressor: trace-cmd writes zstd
 * frames without a checksum, so damage there decompresses into a page that
 * makes kbuffer read far outside it (fuzz_load found one in 8.7 KiB). As
 * format_guard.c does for formats, this file defines
 * kbuffer_load_subbuffer() in the program, so libtracecmd's call binds
 * here: while armed, each page is walked as the pre-check walks an
 * uncompressed one, and a damaged page is replaced by an empty one (its
 * records are not read) and remembered; the reader then fails the file with
 * its message. Unarmed, as in the live view's libtracefs reads, the call
 * goes straight through.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "page_guard.h"
#include "precheck_cursor.h"

struct kbuffer;
typedef int (*load_subbuffer_fn)(struct kbuffer *, void *);

static load_subbuffer_fn real_load;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static struct {
	atomic_int armed;
	uint32_t page_size;
	int commit_size;
	int big;
} guard;
static atomic_int refused;
static char refusal[224];

/* A page with nothing committed: what a refused page is replaced by. */
static unsigned char empty_page[1u << 20] __attribute__((aligned(64)));

static void find_real(void)
{
	real_load = (load_subbuffer_fn)dlsym(RTLD_NEXT, "kbuffer_load_subbuffer");
}

void rr_page_guard_arm(const struct rr_section_map *map)
{
	guard.page_size = map->page_size;
	guard.commit_size = map->commit_size;
	guard.big = map->big_endian;
	atomic_store(&refused, 0);
	refusal[0] = '\0';
	atomic_store(&guard.armed, 1);
}

int rr_page_guard_disarm(void)
{
	atomic_store(&guard.armed, 0);
	/* cleared, so a later file read unarmed is not failed for this one */
	return atomic_exchange(&refused, 0);
}

const char *rr_page_guard_refusal(void)
{
	return refusal;
}

int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer);

int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer)
{
	pthread_once(&real_once, find_real);
	if (!real_load)
		return -1;
	if (subbuffer && atomic_load(&guard.armed) && guard.page_size <= sizeof(empty_page)) {
		char err[160];
		struct cur c = {
			.p = subbuffer, .size = guard.page_size, .big = guard.big,
			.page_size = guard.page_size, .commit_size = guard.commit_size,
			.err = err, .errlen = sizeof(err),
		};

		if (rr_pc_check_pages(&c, 0, guard.page_size, "a decompressed data page")) {
			int first = 0;

			/* the first refusal's message is kept; later ones only count */
			if (atomic_compare_exchange_strong(&refused, &first, 1))
				snprintf(refusal, sizeof(refusal), "%s", err);
			subbuffer = empty_page;
		}
	}
	return real_load(kbuf, subbuffer);
}
