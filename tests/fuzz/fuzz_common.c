// SPDX-License-Identifier: GPL-2.0
/* Helpers of the fuzz targets (fuzz_common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/replay.h"
#include "reclaim_replay/stats.h"

int rr_fuzz_tempfile(const uint8_t *data, size_t size, char path[RR_FUZZ_PATH_MAX])
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, RR_FUZZ_PATH_MAX, "%s/rr-fuzz-XXXXXX", dir) >= RR_FUZZ_PATH_MAX)
		return -1;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

static void quiet(const char *msg)
{
	(void)msg;
}

void rr_fuzz_quiet(void)
{
	rr_set_error_routine(quiet);
}

void rr_fuzz_analyze(struct rr_trace *t, const char *policy)
{
	struct rr_policy_instance pol;
	struct rr_replay_result res;
	struct rr_curves *curves;
	struct rr_model *m;
	struct rr_stats s;

	if (rr_model_build(t, &m))
		return;
	if (!rr_stats_compute(m, &s))
		rr_stats_release(&s);
	if (policy && !rr_curves_build(m, &curves)) {
		if (!rr_policy_open(policy, NULL, 0, m, &pol)) {
			if (!rr_replay(m, curves, &pol, &res))
				rr_replay_result_release(&res);
			rr_policy_close(&pol);
		}
		rr_curves_free(curves);
	}
	rr_model_free(m);
}
