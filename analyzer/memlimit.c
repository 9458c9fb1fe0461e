// SPDX-License-Identifier: GPL-2.0
/* The --max-memory budget, and early residency of large arrays (include/reclaim_replay/memlimit.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "reclaim_replay/memlimit.h"

/*
 * Process-wide: one command loads its inputs once. Atomic, as compare and
 * the replays may build on several threads.
 */
static uint64_t limit;
static uint64_t charged;
static int exceeded;

void rr_mem_set_limit(uint64_t bytes)
{
	__atomic_store_n(&limit, bytes, __ATOMIC_RELAXED);
}

uint64_t rr_mem_limit(void)
{
	return __atomic_load_n(&limit, __ATOMIC_RELAXED);
}

int rr_mem_charge(size_t old_bytes, size_t new_bytes)
{
	uint64_t lim = rr_mem_limit(), grow, now;

	if (new_bytes <= old_bytes)
		return 0;
	grow = (uint64_t)(new_bytes - old_bytes);
	now = __atomic_add_fetch(&charged, grow, __ATOMIC_RELAXED);
	/* the sum cannot wrap: a size_t allocation never comes near 2^64 */
	if (!lim || now <= lim)
		return 0;
	__atomic_sub_fetch(&charged, grow, __ATOMIC_RELAXED);
	__atomic_store_n(&exceeded, 1, __ATOMIC_RELAXED);
	return -1;
}

uint64_t rr_mem_charged(void)
{
	return __atomic_load_n(&charged, __ATOMIC_RELAXED);
}

int rr_mem_exceeded(void)
{
	return __atomic_load_n(&exceeded, __ATOMIC_RELAXED);
}

int rr_mem_populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t from = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t to = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;

	if (to <= from)
		return 0;
	return madvise((void *)from, to - from, MADV_POPULATE_WRITE) ? -1 : 0;
#else
	(void)p;
	(void)bytes;
	return -1;
#endif
}

int rr_parse_bytes(const char *s, uint64_t *bytes)
{
	static const struct { const char *suffix; double mult; } units[] = {
		{ "", 1 }, { "k", 1024.0 }, { "K", 1024.0 }, { "M", 1048576.0 },
		{ "G", 1073741824.0 }, { "T", 1099511627776.0 },
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
	};
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].mult;
		/* at most 2^60 bytes: beyond is a typo */
		if (v > 1152921504606846976.0)
			return -1;
		*bytes = (uint64_t)v;
		return 0;
	}
	return -1;
}

int rr_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v;

	/* a memory limit below 1 MiB is a typo too */
	if (rr_parse_bytes(s, &v) || v < 1048576)
		return -1;
	*bytes = v;
	return 0;
}
