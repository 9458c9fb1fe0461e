// SPDX-License-Identifier: GPL-2.0
/*
 * tracecmd_open_head() hands the file's copy of /proc/kallsyms to
 * libtraceevent's tep_parse_kallsyms(), which sscanf()s every line into a
 * symbol table: on the real traces of ../shared/traces (a few MiB of
 * kallsyms each) that is about half the cost of an open, 40-100 ms, paid
 * again for every reading thread's own open of the file. The table only
 * serves to print kernel addresses as function names (%pS in a print fmt,
 * tep_find_function()); the reader decodes fields by name into numbers and
 * never prints an event, so the table is never read.
 *
 * As format_guard.c does for tep_parse_event(), this file defines
 * tep_parse_kallsyms() in the program, so libtracecmd's call binds here.
 * Only a thread that armed the skip (the trace.dat reader, around its
 * opens) skips; any other caller, libtracefs for the live view for
 * instance, goes straight on to libtraceevent's own, found with
 * dlsym(RTLD_NEXT). The section itself is still read and bounds-checked by
 * libtracecmd and by the pre-check (parsers/precheck.c).
 */
#include <dlfcn.h>
#include <traceevent/event-parse.h>

#include "symbol_skip.h"

typedef int (*parse_kallsyms_fn)(struct tep_handle *, const char *);

static __thread int skip_armed;
static __thread unsigned long skipped;

void rr_symbol_skip_arm(void)
{
	skip_armed = 1;
}

void rr_symbol_skip_disarm(void)
{
	skip_armed = 0;
}

unsigned long rr_symbol_skip_count(void)
{
	return skipped;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static parse_kallsyms_fn real;
	parse_kallsyms_fn fn;

	if (skip_armed) {
		skipped++;
		return 0;	/* what the real one returns for a table it built */
	}
	fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
	if (!fn) {
		fn = (parse_kallsyms_fn)dlsym(RTLD_NEXT, "tep_parse_kallsyms");
		if (!fn)
			return -1;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	return fn(tep, kallsyms);
}
