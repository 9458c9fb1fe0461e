/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --max-memory: a budget for the arrays that grow with the input (decoded
 * events, tasks, samples, names; the model's episodes, batches, throttles
 * and indexes). Growth sites charge it before they allocate; past the
 * budget the allocation fails as out of memory would, and rr_fail() turns
 * that failure into the memory-limit message and exit code 4.
 */
#ifndef RECLAIM_REPLAY_MEMLIMIT_H
#define RECLAIM_REPLAY_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

/* 0: no limit (the default). */
void rr_mem_set_limit(uint64_t bytes);
uint64_t rr_mem_limit(void);
/*
 * An array grows from @old_bytes to @new_bytes: 0, or -1 when that would pass
 * the limit (the array is then left as it is, and rr_mem_exceeded() says so).
 */
int rr_mem_charge(size_t old_bytes, size_t new_bytes);
/* A one-shot allocation of @bytes (an index, a table). */
static inline int rr_mem_charge_new(size_t bytes)
{
	return rr_mem_charge(0, bytes);
}
uint64_t rr_mem_charged(void);
int rr_mem_exceeded(void);
/*
 * The whole pages of [@p, @p + @bytes), about to be written, made resident
 * in one madvise(MADV_POPULATE_WRITE) instead of a page fault each 4 KiB
 * (tens of thousands for the arrays of a large trace). 0, or -1 where the
 * kernel (before 5.14) or the headers lack it: the pages then fault in as
 * they are written, as without the call.
 */
int rr_mem_populate(void *p, size_t bytes);
/* "64M", "1.5G", "100000" (bytes), "512k", "0": 0 and *@bytes, or -1. */
int rr_parse_bytes(const char *s, uint64_t *bytes);
/* The same, for a memory limit: at least 1 MiB. */
int rr_parse_size(const char *s, uint64_t *bytes);

#endif
