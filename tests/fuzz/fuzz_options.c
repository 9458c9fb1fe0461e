// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: what users type after -P and --set. Line 1 is a policy
 * name, the other lines "key=value" settings; every line is also tried as
 * a duration (rr_parse_duration) at a few HZ values. An accepted policy is
 * replayed over a small built-in recording, so absurd but accepted values
 * (a 1e12 s timeout) go through the engine's arithmetic too.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/replay.h"
#include "reclaim_replay/trace.h"

#define MAX_SETTINGS 16

/* One writeback throttle and one NOPROGRESS episode on node 0. */
static const char recording[] =
	"cpus=2\n"
	"  dd-1 [000] 1.000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"  dd-1 [000] 1.000020: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 "
	"nr_reclaimed=3 nr_dirty=20 nr_writeback=20 nr_congested=0 nr_immediate=20 "
	"nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=9 "
	"flags=RECLAIM_WB_FILE\n"
	"  dd-1 [000] 1.002000: mm_vmscan_throttled: nid=0 usec_timeout=100000 "
	"usect_delayed=4000 reason=VMSCAN_THROTTLE_WRITEBACK\n"
	"  dd-1 [000] 1.003000: mm_vmscan_direct_reclaim_end: nr_reclaimed=3\n"
	"  cc-2 [001] 1.004000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"  cc-2 [001] 1.005000: mm_vmscan_throttled: nid=0 usec_timeout=20000 "
	"usect_delayed=20000 reason=VMSCAN_THROTTLE_NOPROGRESS\n"
	"  cc-2 [001] 1.026000: mm_vmscan_direct_reclaim_end: nr_reclaimed=0\n";

static struct rr_trace *trace;
static struct rr_model *model;
static struct rr_curves *curves;

static int setup(void)
{
	char path[RR_FUZZ_PATH_MAX];

	if (model)
		return 0;
	if (rr_fuzz_tempfile((const uint8_t *)recording, sizeof(recording) - 1, path))
		return -1;
	if (rr_trace_load(path, &trace) || rr_model_build(trace, &model) ||
	    rr_curves_build(model, &curves)) {
		unlink(path);
		abort();	/* the built-in recording must load */
	}
	unlink(path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t hz[] = { 0, 1, 100, 250, 1000, 4294967295u };
	const char *settings[MAX_SETTINGS];
	struct rr_policy_instance pol;
	struct rr_replay_result res;
	uint32_t nr = 0;
	char *buf, *line, *save = NULL;
	const char *name = NULL;

	rr_fuzz_quiet();
	if (setup())
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (size_t i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
			uint64_t ns;

			rr_parse_duration(line, hz[i], &ns);
		}
		if (!name)
			name = line;
		else if (nr < MAX_SETTINGS)
			settings[nr++] = line;
	}
	if (name && !rr_policy_open(name, settings, nr, model, &pol)) {
		if (!rr_replay(model, curves, &pol, &res))
			rr_replay_result_release(&res);
		rr_policy_close(&pol);
	}
	free(buf);
	return 0;
}
