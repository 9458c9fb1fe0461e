// SPDX-License-Identifier: GPL-2.0
/* Load every input once: trace, then model; commands share the result. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/trace.h"
#include "report/input_hash.h"

int rr_inputs_load(struct rr_inputs *ins, char **paths, int nr)
{
	memset(ins, 0, sizeof(*ins));
	ins->in = calloc((size_t)nr, sizeof(*ins->in));
	if (!ins->in)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	for (int i = 0; i < nr; i++) {
		struct rr_trace *t;
		struct rr_model *m;
		int ret;

		/* inputs[].sha256, when a report wants it, hashes while we read */
		rr_input_hash_prefetch(paths[i]);
		ret = rr_trace_load(paths[i], &t);

		if (ret)
			return ret;
		if (rr_model_build(t, &m)) {
			rr_trace_free(t);
			return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory while analyzing", paths[i]);
		}
		ins->in[ins->nr].trace = t;
		ins->in[ins->nr].model = m;
		ins->nr++;
		if (rr_warnings_for_input(&ins->warnings, &ins->in[i]))
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

void rr_inputs_release(struct rr_inputs *ins)
{
	for (int i = 0; i < ins->nr; i++) {
		rr_model_free((struct rr_model *)ins->in[i].model);
		rr_trace_free((struct rr_trace *)ins->in[i].trace);
	}
	free(ins->in);
	rr_warnings_release(&ins->warnings);
	memset(ins, 0, sizeof(*ins));
}

int rr_inputs_lossy(const struct rr_inputs *ins)
{
	for (int i = 0; i < ins->nr; i++) {
		const struct rr_trace *t = ins->in[i].trace;

		for (int c = 0; c < t->nr_cpus; c++)
			if (t->loss_marks_per_cpu[c])
				return 1;
	}
	return 0;
}
