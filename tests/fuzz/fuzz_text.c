// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes straight into the ftrace text reader (no
 * probe, so binary junk reaches it too), then model, stats and a replay.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "parser.h"
#include "reclaim_replay/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_trace *t;
	char path[RR_FUZZ_PATH_MAX];

	if (rr_fuzz_tempfile(data, size, path))
		return 0;
	rr_fuzz_quiet();
	t = calloc(1, sizeof(*t));
	if (t && (t->path = strdup(path))) {
		t->file_size = size;
		if (!rr_text_parser.parse(path, t))
			rr_fuzz_analyze(t, "parametric");
	}
	if (t)
		rr_trace_free(t);
	unlink(path);
	return 0;
}
