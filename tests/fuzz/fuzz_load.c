// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes, as a file, through rr_trace_load() (both
 * readers: the first bytes pick trace.dat or text), then the model and the
 * stats. Built by `make fuzz` with clang; tests/fuzz/onefile.c replays a
 * corpus under gcc for `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "reclaim_replay/error.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/stats.h"
#include "reclaim_replay/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(const char *msg)
{
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/rr-fuzz-XXXXXX";
	int fd = mkstemp(path);
	struct rr_trace *t;
	struct rr_model *m;
	struct rr_stats s;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	rr_set_error_routine(quiet);
	if (!rr_trace_load(path, &t)) {
		if (!rr_model_build(t, &m)) {
			if (!rr_stats_compute(m, &s))
				rr_stats_release(&s);
			rr_model_free(m);
		}
		rr_trace_free(t);
	}
	unlink(path);
	return 0;
}
