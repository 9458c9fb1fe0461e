// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the marker-line parser (rr-counters v1 / rr-meta v1,
 * design/counter-samples.md). Each input line is one ftrace:print text at a
 * growing time; the samples then feed the node curves of a replay.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "trace_builder.h"
#include "reclaim_replay/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct rr_builder b;
	struct rr_trace *t;
	uint64_t ts = 1000000;
	int ok = 1;

	rr_fuzz_quiet();
	t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup("fuzz-counters"))) {
		free(t);
		return 0;
	}
	t->nr_cpus = 1;
	t->format = strdup("fuzz");
	if (rr_builder_init(&b, t)) {
		rr_trace_free(t);
		return 0;
	}
	while (p < end && ok) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* the reader hands over the text as it is in the record */
		ok = !rr_builder_print(&b, ts, 1, 0, p, len);
		ts += 1000;
		p += len + 1;
	}
	if (ok && !rr_builder_finish(&b)) {
		rr_builder_release(&b);
		rr_fuzz_analyze(t, "mainline");
	} else {
		rr_builder_release(&b);
	}
	rr_trace_free(t);
	return 0;
}
