/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structure pre-check of a trace.dat (v6 and v7) before libtracecmd sees it:
 * libtracecmd trusts the sizes and offsets in the file, so a corrupt one can
 * make it read out of bounds or allocate absurd amounts. Every size and
 * offset is checked here against the file size, and the sections found are
 * returned as a map (tests use it to cut and damage files at real
 * boundaries).
 */
#ifndef RR_PARSERS_PRECHECK_H
#define RR_PARSERS_PRECHECK_H

#include <stddef.h>
#include <stdint.h>

struct rr_section {
	char what[48];		/* "header_page", "event formats: vmscan", "cpu 1 data", ... */
	uint64_t offset;	/* first byte in the file */
	uint64_t size;		/* bytes it covers in the file */
};

/*
 * One cpu stream of flyrecord data: what the trace.dat reader needs to
 * split the reading between threads (parsers/tracedat_plan.c).
 */
struct rr_data_stream {
	char buffer[64];	/* the buffer instance's name; "" for the top buffer */
	uint32_t cpu;		/* its cpu id (v7: as the BUFFER option names it) */
	uint64_t bytes;		/* its data in the file (compressed size when compressed) */
};

struct rr_section_map {
	int version;		/* 6 or 7 */
	int big_endian;
	int long_size;
	int commit_size;	/* of a data page's header ("commit" in header_page) */
	uint32_t page_size;
	char compression[32];	/* v7: "none", "zstd", "zlib"; v6: "none" */
	uint64_t file_size;
	struct rr_section *sec;
	size_t nr, cap;
	/*
	 * The cpu streams that hold data, in file order. streams_complete is
	 * 0 when some exist that are not listed (v6 buffer instances, whose
	 * cpu tables this check does not walk).
	 */
	struct rr_data_stream *streams;
	size_t nr_streams, streams_cap;
	int streams_complete;
};

/*
 * rr_precheck_tracedat - check the structure of the trace.dat at @path.
 * @map: filled with the sections found (may be NULL); release it with
 *       rr_section_map_release() whatever the result.
 * Returns 0 when the structure is sound; 1 when it is not, with @err saying
 * what is wrong and at which offset; a negative errno when the file cannot
 * be read (@err holds strerror()).
 */
int rr_precheck_tracedat(const char *path, struct rr_section_map *map, char *err, size_t errlen);
/* The same on bytes in memory (the fuzz target and the tests use it). */
int rr_precheck_buffer(const unsigned char *data, uint64_t size, struct rr_section_map *map,
		       char *err, size_t errlen);
void rr_section_map_release(struct rr_section_map *map);

#endif
