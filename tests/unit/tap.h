/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the unit tests (one binary per tests/unit/NAME_test.c, read
 * by tests/run-tests.sh): an "ok N - what" or "not ok N - what" line per
 * check, a "# SKIP why" for what cannot run here, and the plan at the end.
 * A test's main() ends with `return tap_done();`.
 */
#ifndef RR_TESTS_UNIT_TAP_H
#define RR_TESTS_UNIT_TAP_H

#include <stdio.h>

static int tap_nr_tests, tap_nr_failed;

static inline void check(int cond, const char *what)
{
	tap_nr_tests++;
	if (!cond)
		tap_nr_failed++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", tap_nr_tests, what);
}

static inline void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_nr_tests, what, why);
}

/* Prints the plan; the exit status: 1 when a check failed. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_nr_tests);
	return tap_nr_failed ? 1 : 0;
}

#endif
