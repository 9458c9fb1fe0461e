// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the ftrace text reader on small hand-written inputs: the
 * probe, the line forms of trace-cmd report and tracefs, the print formats
 * that are not key=value, loss notices, and the garbage-line policy.
 * TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parser.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/event.h"

#include "tap.h"

static int probe_str(const char *s)
{
	return rr_text_parser.probe((const unsigned char *)s, strlen(s));
}

/* Write @text to a temporary file and parse it; NULL when parse fails. */
static struct rr_trace *parse_str(const char *text, int *ret)
{
	char path[] = "/tmp/rr-text-test.XXXXXX";
	struct rr_trace *t = calloc(1, sizeof(*t));
	int fd = mkstemp(path);

	if (!t || fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	*ret = rr_text_parser.parse(path, t);
	unlink(path);
	if (*ret) {
		rr_trace_free(t);
		return NULL;
	}
	return t;
}

static const struct rr_event *nth_of(const struct rr_trace *t, enum rr_event_type type, int n)
{
	for (size_t i = 0; i < t->nr_events; i++)
		if (t->events[i].type == type && !n--)
			return &t->events[i];
	return NULL;
}

static void test_probe(void)
{
	static const unsigned char dat[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
					     '6', 0, 1, 8, 0, 0, 0, 0x10, 0 };
	unsigned char rnd[4096];

	srand(1);
	for (size_t i = 0; i < sizeof(rnd); i++)
		rnd[i] = (unsigned char)rand();
	check(!rr_text_parser.probe(dat, sizeof(dat)), "probe rejects trace.dat");
	check(!rr_text_parser.probe(rnd, sizeof(rnd)), "probe rejects random bytes");
	check(!probe_str("hello world\nthis is not a trace\n"), "probe rejects prose");
	check(probe_str("cpus=2\n   dd-19 [001] 12.000001: mm_vmscan_kswapd_sleep: nid=0\n"),
	      "probe accepts trace-cmd report");
	check(probe_str("# tracer: nop\n#\n  dd-19  [001] d..1.  12.000001: foo: x=1\n"),
	      "probe accepts tracefs trace");
}

static const char report_text[] =
	"cpus=2\n"
	"version = 6\n"
	"       dd-19054 [000] 14836.146470507: mm_vmscan_direct_reclaim_begin: order=8 gfp_flags=none\n"
	"CPU:1 [12 EVENTS DROPPED]\n"
	" kworker/u8:1-15900 [001] 14836.146470600: writeback_written:    bdi 254:0: sb_dev 0:0 nr_pages=9223372036854775805 sync_mode=0 reason=periodic\n"
	"       dd-19054 [000] 14836.146470700: mm_vmscan_throttled:  nid=0 usec_timeout=20000 usect_delayed=16000 reason=0x2\n"
	"       dd-19054 [000] 14836.146470800: mm_vmscan_lru_isolate: classzone=4 order=0 nr_requested=7 nr_scanned=7 nr_skipped=0 nr_taken=7 lru=inactive_file\n"
	"       dd-19054 [000] 14836.146470900: mm_vmscan_write_folio: page=0xffffffffba6956d9 pfn=0x17ffa9 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n"
	" kcompactd0-35 [001] 14836.146471000: mm_compaction_isolate_migratepages: range=(0x100200 ~ 0x100400) nr_scanned=512 nr_taken=3\n"
	" kcompactd0-35 [001] 14836.146471100: mm_compaction_end:    zone_start=0x1000 migrate_pfn=0x1000 free_pfn=0xffe00 zone_end=0x100000, mode=sync status=success\n"
	" kworker/0:1H-44 [000] 14836.146471200: block_rq_issue:       254,0 WS 4096 () 33842912 + 8 0x2,0,4 [kworker/0:1H]\n"
	"   <idle>-0 [001] 14836.146471300: block_rq_complete:    254,0 R () 33842912 + 16 0x2,0,4 [-5]\n"
	"  kswapd0-45 [001] 14836.146471400: mm_shrink_slab_end:   super_cache_scan+0x0 0xffff888104764400: nid: 0 unused scan count 3 new scan count 6 total_scan 6 last shrinker return val 2\n"
	"  kswapd0-45 [001] 14836.146471500: writeback_pages_written: 77\n"
	"       dd-19054 [000] 14836.146471600: print:                tracing_mark_write: rr-counters v1 node=0 nr_free_pages=100 nr_dirty=5\n"
	"       dd-19054 [000] 14836.146471700: sched_switch: prev_comm=dd prev_pid=19054\n"
	"       dd-19054 [000] 14836.146471800: mm_vmscan_direct_reclaim_end: nr_reclaimed=oops\n";

static void test_report(void)
{
	const struct rr_event *e;
	struct rr_trace *t;
	int ret;

	t = parse_str(report_text, &ret);
	check(t != NULL, "trace-cmd report text parses");
	if (!t)
		return;
	check(t->nr_cpus == 2 && !strcmp(t->format, "ftrace text (trace-cmd report)"),
	      "cpus= and format");
	check(t->records_read == 14 && t->records_ignored == 1 && t->records_undecodable == 1,
	      "every event line counted, unknown ignored, bad required field undecodable");
	e = nth_of(t, RR_EV_DIRECT_BEGIN, 0);
	check(e && e->ts == 14836146470507ull && e->v[RR_V_ORDER] == 8, "ns timestamp, order");
	e = nth_of(t, RR_EV_LOST, 0);
	check(e && e->cpu == 1 && e->v[RR_V_LOST_COUNT] == 12 && e->ts == 14836146470600ull &&
	      t->lost_per_cpu[1] == 12, "EVENTS DROPPED before the next event of its cpu");
	e = nth_of(t, RR_EV_WB_WRITTEN, 0);
	check(e && e->v[RR_V_WB_PAGES] == UINT32_MAX && (e->flags & RR_EVF_AFTER_LOSS),
	      "huge nr_pages saturates; first event after loss flagged");
	e = nth_of(t, RR_EV_THROTTLED, 0);
	check(e && e->aux == RR_REASON_ISOLATED && e->v[RR_V_THR_DELAYED] == 16000 && e->nid == 0,
	      "throttled: reason=0x2, usect_delayed alias");
	e = nth_of(t, RR_EV_LRU_ISOLATE, 0);
	check(e && e->aux == RR_LRU_INACTIVE_FILE && e->v[RR_V_ISO_CLASSZONE] == 4, "lru by name");
	e = nth_of(t, RR_EV_WRITE_FOLIO, 0);
	check(e && e->v[RR_V_WF_PFN_LO] == 0x17ffa9 && e->v[RR_V_WF_FLAGS] == 0x9,
	      "write_folio pfn and raw reclaim flags");
	e = nth_of(t, RR_EV_COMPACT_ISOLATE_MIGRATE, 0);
	/* the pfn fills v[0..1]; scanned and taken have their own slots */
	check(e && e->v[0] == 0x100200 && e->v[1] == 0 && e->v[RR_V_CI_SCANNED] == 512 &&
	      e->v[RR_V_CI_TAKEN] == 3, "compaction range=( start_pfn, nr_scanned, nr_taken");
	e = nth_of(t, RR_EV_COMPACT_END, 0);
	check(e && e->v[0] == 0x1000 && e->v[2] == 1 && e->v[3] == 8, "compaction mode/status");
	e = nth_of(t, RR_EV_BLOCK_ISSUE, 0);
	check(e && e->v[RR_V_BLK_DEV] == (254u << 20) && e->v[RR_V_BLK_SECTORS] == 8 &&
	      e->v[RR_V_BLK_OP] == RR_BLK_WRITE, "block_rq_issue positional");
	e = nth_of(t, RR_EV_BLOCK_COMPLETE, 0);
	check(e && e->v[RR_V_BLK_SECTORS] == 16 && e->v[RR_V_BLK_OP] == RR_BLK_READ &&
	      e->v[RR_V_BLK_ERRORS] == 0, "block_rq_complete positional, negative error clamps");
	e = nth_of(t, RR_EV_SLAB_END, 0);
	check(e && e->v[RR_V_SLAB_FREED] == 2 && e->v[1] == 3 && e->v[2] == 6 && e->nid == 0,
	      "slab shrinker phrases");
	e = nth_of(t, RR_EV_WB_PAGES_WRITTEN, 0);
	check(e && e->v[RR_V_WB_PAGES] == 77, "writeback_pages_written bare number");
	check(t->nr_samples == 1 && t->samples[0].value[RR_C_NR_DIRTY] == 5, "marker sample");
	rr_trace_free(t);
}

static const char tracefs_text[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 3/3   #P:4\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"            bash-1234    [001] .....   100.000001: tracing_mark_write: hello world\n"
	"CPU:0 [LOST EVENTS]\n"
	"   Web Content-777     [000] d..1.   100.000600: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=1 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
	"CPU:3 [LOST 7 EVENTS]\n";

static void test_tracefs(void)
{
	const struct rr_event *e;
	struct rr_trace *t;
	int ret;

	t = parse_str(tracefs_text, &ret);
	check(t != NULL, "tracefs text parses");
	if (!t)
		return;
	check(t->nr_cpus == 4 && !strcmp(t->format, "ftrace text (tracefs trace)"),
	      "#P: and format");
	e = nth_of(t, RR_EV_MARKER, 0);
	check(e && e->ts == 100000001000ull, "us timestamp; tracing_mark_write line is a marker");
	e = nth_of(t, RR_EV_SHRINK_INACTIVE, 0);
	check(e && e->v[RR_V_SI_ACTIVATE] == 3 && e->aux == 12 && (e->flags & RR_EVF_FILE) &&
	      (e->flags & RR_EVF_AFTER_LOSS), "shrink_inactive fields, flags, after loss");
	check(t->loss_marks_per_cpu[0] == 1 && t->lost_per_cpu[0] == 0 &&
	      t->lost_per_cpu[3] == 7, "LOST EVENTS without count; trailing loss kept");
	check(t->nr_tasks >= 2, "comm with a space");
	rr_trace_free(t);
}

static void test_garbage(void)
{
	struct rr_trace *t;
	int ret;

	t = parse_str("cpus=1\n  a-1 [000] 1.000001: foo: x=1\nnot a line\n"
		      "  a-1 [000] 1.000002: foo: x=1\n", &ret);
	check(t && t->records_read == 2, "a few garbage lines are ignored");
	rr_trace_free(t);
	t = parse_str("cpus=1\n  a-1 [000] 1.000001: foo: x=1\nbad\nbad\n", &ret);
	check(!t && ret == RR_EXIT_BAD_INPUT, "mostly garbage fails");
	t = parse_str("cpus=1\n# nothing\n", &ret);
	check(!t && ret == RR_EXIT_BAD_INPUT, "no event line fails");
}

int main(void)
{
	test_probe();
	test_report();
	test_tracefs();
	test_garbage();
	return tap_done();
}
