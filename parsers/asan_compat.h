/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marking memory that uninstrumented libraries hand us as addressable.
 *
 * libtracecmd maps trace.dat windows with mmap(). AddressSanitizer of
 * Debian 12's compilers (gcc 12, clang 14) does not intercept mmap, so
 * when a new window lands on addresses its own allocator used and gave
 * back earlier (a large block of an earlier load, in the same process),
 * the stale shadow still says "heap redzone" and our first read of a
 * perfectly valid record is reported as an overflow. Seen in `make
 * fuzz-ci` (two loads of one input: 3 in 60 double loads under ASan, 0 in
 * 40 without). Unpoisoning [data, data + size) of each record loses no
 * check: ASan never watches mmapped file pages, only its own heap.
 */
#ifndef RR_PARSERS_ASAN_COMPAT_H
#define RR_PARSERS_ASAN_COMPAT_H

#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RR_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RR_ASAN 1
#endif

#ifdef RR_ASAN
#include <sanitizer/asan_interface.h>
static inline void rr_asan_unpoison(const void *p, size_t n)
{
	if (p && n)
		__asan_unpoison_memory_region(p, n);
}
#else
static inline void rr_asan_unpoison(const void *p, size_t n)
{
	(void)p;
	(void)n;
}
#endif

#endif
