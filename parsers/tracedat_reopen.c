// SPDX-License-Identifier: GPL-2.0
/*
 * Giving back libtracecmd's decompressed chunks by opening the file again.
 *
 * libtracecmd 1.3 (trace-cmd 3.1.6) reads a compressed v7 file chunk by
 * chunk into malloc'd buffers and means to free a chunk once no page of it
 * is in use, but its free_zpage() tests the page's address the wrong way
 * round (map <= chunk && map > chunk + size, never true), so no chunk is
 * freed before tracecmd_close(): a process that iterates a whole file ends
 * with all of its decompressed data in memory, about 72 bytes per record
 * (175 MiB for the 2.2 million records of slow-writeback.dat, measured with
 * a bare tracecmd_iterate_events loop; tracecmd_close() and malloc_trim()
 * give it all back). tests/cli/t0310-ingest-memory.sh shows the growth.
 *
 * So a reading thread that has consumed reopen_bytes of records since its
 * handles were opened stops its iteration (the callback returns -1 after
 * queueing the record), opens the file again, puts each of its cpu streams
 * just after the last record it delivered (tracecmd_read_at() reads that
 * record again and leaves the cursor behind it), closes the old handles
 * and goes on. The order of delivery does not change: libtracecmd's
 * iteration picks the next record from each cpu's next record alone, and
 * those are the same. Event types, formats and comms keep coming from the
 * first open's libtraceevent handle, which the source holds a reference
 * to, so every pointer already queued stays valid. When anything does not
 * match (the file's device, inode, size or mtime changed since the first
 * open, another number of buffers, a record not found again at its offset
 * with its timestamp), the new handles are closed and the old ones go on:
 * the memory is then not given back, but nothing read changes.
 */
#include <errno.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <trace-cmd/trace-cmd.h>

#include "format_defer.h"
#include "format_guard.h"
#include "tracedat_reader.h"
#include "reclaim_replay/memlimit.h"

/*
 * All sources together keep at most this much of libtracecmd's chunks. A
 * reopen costs an open (about 110 M instructions on the shared traces,
 * mostly the metadata sections' decompression and the format checks), so
 * the budget is large enough that a file is opened a few more times at
 * most, and small beside the 64 MiB the memory target leaves besides the
 * events (docs/performance.md).
 */
#define REOPEN_TOTAL_BYTES	(48ull << 20)

/* RR_REOPEN_BYTES=SIZE (rr_parse_bytes: 2k, 48M): the total; 0 never reopens. */
static uint64_t total_budget(void)
{
	const char *env = getenv("RR_REOPEN_BYTES");
	uint64_t v;

	return env && !rr_parse_bytes(env, &v) ? v : REOPEN_TOTAL_BYTES;
}

uint64_t rr_tracedat_reopen_bytes(const char *compression, int nr_sources)
{
	uint64_t total;

	/* uncompressed data is mmap'd, and page_release.h gives it back */
	if (!compression || !*compression || !strcmp(compression, "none"))
		return 0;
	total = total_budget();
	if (!total)
		return 0;
	total /= (uint64_t)(nr_sources > 0 ? nr_sources : 1);
	return total ? total : 1;
}

int rr_source_reopen_init(struct tracedat_source *s)
{
	if (!s->reopen_bytes)
		return 0;
	/*
	 * nr_cpus per handle: the file's cpu count (every handle shares the
	 * one tep); a record of a cpu beyond it stops the reopening
	 * (tracedat_read.c), before any reopen could lose its stream's place.
	 */
	s->resume = calloc((size_t)s->nr_handles * (size_t)s->nr_cpus, sizeof(*s->resume));
	s->resume_ts = calloc((size_t)s->nr_handles * (size_t)s->nr_cpus, sizeof(*s->resume_ts));
	if (!s->resume || !s->resume_ts)
		return -ENOMEM;
	/* a file that cannot be told again is not reopened */
	if (stat(s->path, &s->opened))
		s->reopen_bytes = 0;
	return 0;
}

void rr_source_reopen_release(struct tracedat_source *s)
{
	/* RR_REOPEN_TRACE=1: how often each source opened the file again (tests) */
	const char *env = getenv("RR_REOPEN_TRACE");

	if (env && !strcmp(env, "1") && s->resume)
		fprintf(stderr, "reopen: %u reopens%s\n", s->reopens,
			s->reopen_failed ? ", then one failed: the old handles went on" : "");
	free(s->resume);
	free(s->resume_ts);
	s->resume = NULL;
	s->resume_ts = NULL;
	rr_format_defer_free(s->reopen_formats);
	s->reopen_formats = NULL;
	if (s->tep_held)
		tep_unref(s->tep);
	s->tep_held = 0;
}

/* Each stream of @h, put just after the last record the source delivered. */
static int resume_streams(const struct tracedat_source *s, struct tracecmd_input **h)
{
	for (int i = 0; i < s->nr_handles; i++) {
		for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
			size_t k = (size_t)i * (size_t)s->nr_cpus + (size_t)cpu;
			uint64_t at = s->resume[k];
			struct tep_record *rec;
			int found;

			if (!at)
				continue;
			rec = tracecmd_read_at(h[i], at - 1, NULL);
			found = rec && rec->offset == at - 1 && rec->cpu == cpu &&
				rec->ts == s->resume_ts[k];
			tracecmd_free_record(rec);
			if (!found)
				return -ESTALE;
		}
	}
	return 0;
}

int rr_source_reopen(struct tracedat_source *s)
{
	struct tracecmd_input **h = NULL;
	struct rr_format_defer *df = NULL;
	const char **names = NULL;
	struct stat now;
	int nr = 0, ret;

	/* the same file (replaced or rewritten: the old handles go on) */
	if (stat(s->path, &now) || now.st_dev != s->opened.st_dev ||
	    now.st_ino != s->opened.st_ino || now.st_size != s->opened.st_size ||
	    now.st_mtim.tv_sec != s->opened.st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != s->opened.st_mtim.tv_nsec) {
		ret = -ESTALE;
		goto keep_old;
	}
	/* libtracecmd's open runs libtraceevent's tokenizer, shared by all threads */
	rr_libtraceevent_hold();
	ret = rr_tracedat_open_handles(s->path, 0, &h, &names, &nr, &df);
	rr_libtraceevent_release();
	if (ret)
		goto keep_old;
	free(names);
	if (nr != s->nr_handles || (ret = resume_streams(s, h))) {
		rr_tracedat_close_handles(h, nr);
		rr_format_defer_free(df);
		ret = -ESTALE;
		goto keep_old;
	}
	if (!s->tep_held) {
		tep_ref(s->tep);
		s->tep_held = 1;
	}
	rr_tracedat_close_handles(s->handles, s->nr_handles);
	/*
	 * Give the closed handles' chunks back to the kernel now: left in
	 * the arenas they are reused only in part (the next chunks come in
	 * other sizes and on other threads), and the read's peak grew by
	 * 14-20 MiB on slow-writeback.dat. Faulting the pages in again costs
	 * about 20 ms per reopen there (docs/performance.md).
	 */
	malloc_trim(0);
	/*
	 * Types are looked up in the first open's handle, with its formats;
	 * the new handle's own kept formats serve libtracecmd's look-ups
	 * (format_defer.c, tep_find_event_by_record()).
	 */
	rr_format_defer_free(s->reopen_formats);
	s->reopen_formats = df;
	s->handles = h;
	s->since_open = 0;
	s->reopens++;
	return 0;

keep_old:
	s->reopen_bytes = 0;
	s->reopen_failed = 1;
	return ret;
}
