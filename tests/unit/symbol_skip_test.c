// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kallsyms skip (parsers/symbol_skip.c): unarmed, the
 * program's tep_parse_kallsyms() reaches libtraceevent's and a symbol
 * resolves; armed, it builds nothing and counts; arming is per thread; and
 * a real load of a bundled trace.dat goes through the skip, which shows that
 * libtracecmd's call binds to the program's definition. TAP output.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "symbol_skip.h"
#include "reclaim_replay/event.h"
#include "reclaim_replay/trace.h"

#include "tap.h"

static char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T foo_bar\n"
	"ffffffff81000200 T baz_qux\n"
	"ffffffff81000300 T _etext\n";	/* the last symbol has no extent */

/* 1 if @addr resolves to @name in a fresh handle fed our kallsyms text */
static int resolves(unsigned long long addr, const char *name, int *parse_ret)
{
	struct tep_handle *tep = tep_alloc();
	const char *found;
	int ok;

	if (!tep)
		return 0;
	*parse_ret = tep_parse_kallsyms(tep, kallsyms);
	found = tep_find_function(tep, addr);
	ok = found && !strcmp(found, name);
	tep_free(tep);
	return ok;
}

/* 1 if no symbol at all resolves after a parse */
static int nothing_resolves(int *parse_ret)
{
	struct tep_handle *tep = tep_alloc();
	int none;

	if (!tep)
		return 0;
	*parse_ret = tep_parse_kallsyms(tep, kallsyms);
	none = !tep_find_function(tep, 0xffffffff81000110ULL) &&
	       !tep_find_function(tep, 0xffffffff81000210ULL);
	tep_free(tep);
	return none;
}

static void *armed_thread(void *arg)
{
	int *ret = arg;

	rr_symbol_skip_arm();
	ret[0] = nothing_resolves(&ret[1]);
	ret[2] = (int)rr_symbol_skip_count();
	/* left armed on purpose: the main thread must not see it */
	return NULL;
}

int main(void)
{
	struct rr_trace *trace = NULL;
	unsigned long before;
	int ret = -1, thread_ret[3] = { 0, -1, 0 };
	pthread_t th;

	check(resolves(0xffffffff81000110ULL, "foo_bar", &ret) && ret == 0,
	      "unarmed: libtraceevent's parser runs, foo_bar resolves");
	check(rr_symbol_skip_count() == 0, "unarmed: nothing counted as skipped");

	rr_symbol_skip_arm();
	check(nothing_resolves(&ret) && ret == 0,
	      "armed: returns 0 and builds no symbol table");
	check(rr_symbol_skip_count() == 1, "armed: the skip is counted once");
	rr_symbol_skip_disarm();
	check(resolves(0xffffffff81000210ULL, "baz_qux", &ret) && ret == 0,
	      "disarmed again: symbols resolve");
	check(rr_symbol_skip_count() == 1, "disarmed: count unchanged");

	check(!pthread_create(&th, NULL, armed_thread, thread_ret) && !pthread_join(th, NULL),
	      "a second thread ran");
	check(thread_ret[0] && thread_ret[1] == 0 && thread_ret[2] == 1,
	      "armed on a second thread: skipped and counted there");
	check(resolves(0xffffffff81000110ULL, "foo_bar", &ret) && rr_symbol_skip_count() == 1,
	      "the other thread's arming does not reach this one");

	before = rr_symbol_skip_count();
	ret = rr_trace_load("traces/counters-writer.dat", &trace);
	check(ret == 0 && trace, "traces/counters-writer.dat loads");
	check(rr_symbol_skip_count() > before,
	      "loading it skipped its kallsyms (libtracecmd's call binds here)");
	check(resolves(0xffffffff81000110ULL, "foo_bar", &ret),
	      "after a load the skip is disarmed");
	rr_trace_free(trace);

	return tap_done();
}
