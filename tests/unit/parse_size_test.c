// SPDX-License-Identifier: GPL-2.0
/*
 * Sizes as users and the tests write them (analyzer/memlimit.c):
 * rr_parse_bytes() for RR_REOPEN_BYTES, any size from 0; rr_parse_size()
 * for --max-memory, the same but at least 1 MiB. Expected values worked
 * out by hand (k = 2^10, M = 2^20, G = 2^30).
 */
#include <stdint.h>
#include <stdio.h>

#include "reclaim_replay/memlimit.h"
#include "tap.h"

static int bytes_are(const char *s, uint64_t want)
{
	uint64_t v = 0;

	return !rr_parse_bytes(s, &v) && v == want;
}

static int size_is(const char *s, uint64_t want)
{
	uint64_t v = 0;

	return !rr_parse_size(s, &v) && v == want;
}

int main(void)
{
	uint64_t v;

	check(bytes_are("0", 0), "bytes: 0 is 0 (reopening off)");
	check(bytes_are("12", 12), "bytes: 12 is 12");
	check(bytes_are("2k", 2048), "bytes: 2k is 2048");
	check(bytes_are("64k", 65536), "bytes: 64k is 65536");
	check(bytes_are("48M", 50331648), "bytes: 48M is 50331648");
	check(bytes_are("1.5G", 1610612736), "bytes: 1.5G is 1610612736");
	check(rr_parse_bytes("", &v) && rr_parse_bytes("x", &v) && rr_parse_bytes("-1", &v) &&
	      rr_parse_bytes("4Q", &v) && rr_parse_bytes("2E", &v),
	      "bytes: empty, words, negatives, unknown suffixes refused");
	check(size_is("1M", 1048576) && size_is("512M", 536870912), "size: 1M and 512M");
	check(rr_parse_size("12", &v) && rr_parse_size("512k", &v) && rr_parse_size("0", &v),
	      "size: below 1 MiB refused (a memory limit that small is a typo)");
	return tap_done();
}
