// SPDX-License-Identifier: GPL-2.0
/* Error and warning messages, through one replaceable routine (git's error()). */
#include <stdarg.h>
#include <stdio.h>

#include "reclaim_replay/error.h"
#include "reclaim_replay/memlimit.h"

static void default_routine(const char *msg)
{
	fprintf(stderr, "reclaim-replay: %s\n", msg);
}

static void (*error_routine)(const char *msg) = default_routine;

void rr_set_error_routine(void (*routine)(const char *msg))
{
	error_routine = routine ? routine : default_routine;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[1024];
	int n = snprintf(msg, sizeof(msg), "%s", prefix);

	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	error_routine(msg);
}

int rr_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

int rr_fail(int code, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/*
	 * An allocation refused by --max-memory fails like out of memory
	 * (every growth site already handles that); say what really happened.
	 */
	if (code == RR_EXIT_FAILURE && rr_mem_exceeded()) {
		rr_error("%s: the --max-memory limit of %.1f MiB was reached", msg,
			 (double)rr_mem_limit() / 1048576.0);
		return RR_EXIT_BAD_INPUT;
	}
	error_routine(msg);
	return code;
}

void rr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}
