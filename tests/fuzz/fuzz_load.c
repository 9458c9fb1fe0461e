// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes, as a file, through rr_trace_load() (the
 * trace.dat pre-check and reader, or the text reader, by the first bytes),
 * then the model, the stats and a replay. Built by `make fuzz` with clang;
 * tests/fuzz/onefile.c replays a corpus under gcc for `make check`.
 */
#include <unistd.h>

#include "fuzz_common.h"
#include "reclaim_replay/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_trace *t;
	char path[RR_FUZZ_PATH_MAX];

	if (rr_fuzz_tempfile(data, size, path))
		return 0;
	rr_fuzz_quiet();
	if (!rr_trace_load(path, &t)) {
		rr_fuzz_analyze(t, "mainline");
		rr_trace_free(t);
	}
	unlink(path);
	return 0;
}
