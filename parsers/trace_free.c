// SPDX-License-Identifier: GPL-2.0
/* Freeing a decoded trace, and the names of model enums for reports. */
#include <stdlib.h>

#include "reclaim_replay/event.h"

static void free_names(struct rr_name_count *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i].name);
	free(names);
}

void rr_trace_free(struct rr_trace *trace)
{
	if (!trace)
		return;
	free(trace->path);
	free(trace->format);
	free(trace->events);
	free(trace->samples);
	free_names(trace->names, trace->nr_names);
	free_names(trace->missing_fields, trace->nr_missing_fields);
	free(trace->tasks);
	free(trace->lost_per_cpu);
	free(trace->loss_marks_per_cpu);
	free(trace);
}

const char *rr_reason_name(enum rr_throttle_reason reason)
{
	static const char *const names[RR_NR_REASONS] = {
		"WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED",
		"CONGESTION_WAIT", "WAIT_IFF_CONGESTED",
	};
	return reason < RR_NR_REASONS ? names[reason] : "UNKNOWN";
}
