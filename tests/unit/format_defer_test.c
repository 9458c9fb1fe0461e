// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the deferred event formats (parsers/format_defer.c) through
 * the format guard's tep_parse_event() (parsers/format_guard.c), the way
 * libtracecmd calls it while it opens a file: with a table armed, the first
 * format and the ftrace system's are parsed at once, the others kept and
 * parsed by rr_format_defer_parse() into the same event libtraceevent makes
 * of them; ids read differently by libtraceevent (octal) or damaged lines
 * are parsed at once; a repeated id parses the kept text first; unarmed,
 * or on another thread, nothing is kept. A load of a bundled trace parses
 * only the formats its records use, and every one with RR_EAGER_FORMATS=1.
 * That both loads give the same result is t0320's check. TAP output.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include <stdlib.h>

#include "format_defer.h"
#include "format_guard.h"
#include "reclaim_replay/event.h"
#include "reclaim_replay/trace.h"

#include "tap.h"

/* A format as the kernel writes it; @id_text is the ID line's value. */
static int format(char *buf, size_t len, const char *name, const char *id_text)
{
	return snprintf(buf, len,
		"name: %s\n"
		"ID: %s\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int nid;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"nid=%%d\", REC->nid\n", name, id_text);
}

/* What libtracecmd does for one format: returns tep_parse_event()'s result. */
static int offer(struct tep_handle *tep, const char *sys, const char *name, const char *id)
{
	char buf[1024];
	int n = format(buf, sizeof(buf), name, id);

	return tep_parse_event(tep, buf, (unsigned long)n, sys);
}

static int has_event(struct tep_handle *tep, int id, const char *name)
{
	struct tep_event *e = tep_find_event(tep, id);

	return e && !strcmp(e->name, name);
}

static void *other_thread(void *arg)
{
	struct tep_handle *tep = arg;

	/* the main thread's arming must not reach here */
	return (void *)(long)(offer(tep, "vmscan", "on_other_thread", "40") == 0 &&
			      has_event(tep, 40, "on_other_thread"));
}

int main(void)
{
	struct tep_handle *tep = tep_alloc(), *plain = tep_alloc();
	struct rr_format_defer *df = rr_format_defer_new();
	struct tep_event *e;
	pthread_t th;
	void *th_ok = NULL;

	if (!tep || !plain || !df) {
		printf("Bail out! out of memory\n");
		return 1;
	}

	check(offer(plain, "vmscan", "unarmed", "30") == 0 && has_event(plain, 30, "unarmed"),
	      "unarmed: parsed at once");

	rr_format_guard_arm();
	rr_format_defer_arm(df);
	check(offer(tep, "vmscan", "first", "10") == 0 && has_event(tep, 10, "first"),
	      "armed: the first format is parsed at once (records are typed by it)");
	check(offer(tep, "vmscan", "kept", "20") == 0 && !tep_find_event(tep, 20),
	      "armed: a later format returns success and is kept, not parsed");
	check(offer(tep, "ftrace", "print", "5") == 0 && has_event(tep, 5, "print"),
	      "armed: the ftrace system is parsed at once");
	check(offer(tep, "vmscan", "octal", "011") == 0 && has_event(tep, 9, "octal"),
	      "armed: an id libtraceevent reads as octal is parsed at once (id 9)");
	check(offer(tep, "vmscan", "big", "2000000") == 0 && has_event(tep, 2000000, "big"),
	      "armed: an id above the table's range is parsed at once");
	check(offer(tep, "vmscan", "kept_b", "25") == 0 && !tep_find_event(tep, 25),
	      "armed: a second later format is kept");
	check(offer(tep, "vmscan", "again", "25") == 0 &&
	      tep_get_events_count(tep) == 6 && rr_format_defer_parsed(df) == 1,
	      "armed: a repeated id parses the kept text, then its own (both in the handle)");
	{
		struct tep_handle *t2 = tep_alloc();

		check(t2 && !pthread_create(&th, NULL, other_thread, t2) &&
		      !pthread_join(th, &th_ok) && th_ok,
		      "armed here, another thread's format is parsed at once there");
		tep_free(t2);
	}
	rr_format_defer_disarm();
	check(rr_format_guard_disarm() == 0, "no format refused");
	check(rr_format_defer_kept(df) == 2 && rr_format_defer_max_id(df) == 25,
	      "two formats kept, largest id 25");

	e = rr_format_defer_parse(df, tep, 20);
	check(e && e->id == 20 && !strcmp(e->name, "kept") && !strcmp(e->system, "vmscan") &&
	      tep_find_field(e, "nid") && tep_find_field(e, "nid")->offset == 8,
	      "first use: the kept format parses into its event, fields and all");
	check(rr_format_defer_parsed(df) == 2 && has_event(tep, 20, "kept"),
	      "first use: counted as parsed, and libtraceevent finds it from now on");
	check(!rr_format_defer_parse(df, tep, 20) && rr_format_defer_parsed(df) == 2,
	      "second use: nothing left to parse");
	check(!rr_format_defer_parse(df, tep, 21) && !rr_format_defer_parse(df, tep, 99) &&
	      !rr_format_defer_parse(df, tep, -1) && !rr_format_defer_parse(NULL, tep, 20),
	      "ids without a kept format (or no table) give NULL");

	/*
	 * traces/counters-writer.dat (one reading thread: a small file), counted
	 * with trace-cmd 3.1.6: `trace-cmd dump --events` lists 2305 formats and
	 * `--ftrace-events` 18; `trace-cmd report` shows records of 32 events.
	 * By default libtraceevent gets the 18 ftrace formats, the first one
	 * and at most the 32 used; with RR_EAGER_FORMATS=1, all of them.
	 */
	{
		struct rr_trace *trace = NULL;
		unsigned long before = rr_format_parse_count(), lazy, eager;
		int ret = rr_trace_load("traces/counters-writer.dat", &trace);

		lazy = rr_format_parse_count() - before;
		rr_trace_free(trace);
		setenv("RR_EAGER_FORMATS", "1", 1);
		before = rr_format_parse_count();
		trace = NULL;
		ret |= rr_trace_load("traces/counters-writer.dat", &trace);
		eager = rr_format_parse_count() - before;
		rr_trace_free(trace);
		unsetenv("RR_EAGER_FORMATS");
		check(ret == 0, "traces/counters-writer.dat loads, both ways");
		check(lazy >= 18 + 1 && lazy <= 18 + 1 + 32,
		      "a load parses the ftrace formats, the first and those its records use");
		check(eager >= 2305 + 18, "RR_EAGER_FORMATS=1: every format is parsed");
		printf("# parsed: %lu by default, %lu with RR_EAGER_FORMATS=1\n", lazy, eager);
	}

	rr_format_defer_free(df);
	tep_free(tep);
	tep_free(plain);
	return tap_done();
}
