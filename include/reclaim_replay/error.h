/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reporting and the exit codes every subcommand documents.
 */
#ifndef RECLAIM_REPLAY_ERROR_H
#define RECLAIM_REPLAY_ERROR_H

enum rr_exit {
	RR_EXIT_OK = 0,
	RR_EXIT_FAILURE = 1,	/* runtime failure: unexpected I/O error, out of memory */
	RR_EXIT_USAGE = 2,	/* bad command line */
	RR_EXIT_DATA_LOSS = 3,	/* --strict and the recording lost events */
	RR_EXIT_BAD_INPUT = 4,	/* input missing, unreadable, not a trace, corrupt or truncated,
				 * or over --max-memory */
	RR_EXIT_CHECK_FAILED = 5, /* validate: identity or a property failed */
	RR_EXIT_NO_TRACING = 6,	/* record/live: no root or no tracefs */
};

/*
 * rr_error - print "reclaim-replay: <message>" to stderr through the current
 * error routine. Always returns -1 so callers can "return rr_error(...)".
 */
int rr_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* rr_fail - like rr_error, but returns @code (an enum rr_exit value). */
int rr_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_set_error_routine(void (*routine)(const char *msg));

#endif
