/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `--export-timeline FILE.json`: the replays in the Chrome Trace Event
 * format (Perfetto, chrome://tracing), written as the engine reports each
 * slice (docs/report-schema.md, "Timeline export"). One process per
 * (policy, node), one thread per task; complete events for reclaim episodes,
 * throttle sleeps and retries; counter tracks for the node state curves;
 * instants for lost events; names as metadata. Times in microseconds with
 * three decimals (ns), from the trace's first record.
 *
 *	t = rr_timeline_open(f, nr_inputs);
 *	for each input, for each policy k:
 *		rr_timeline_policy_begin(t, in, k, label, curves);
 *		replay with observer { rr_timeline_span, t };
 *	rr_timeline_close(t);
 */
#ifndef RR_REPORT_TIMELINE_EXPORT_H
#define RR_REPORT_TIMELINE_EXPORT_H

#include <stdio.h>

#include "reclaim_replay/replay.h"
#include "reclaim_replay/report.h"

struct rr_timeline;

/* Start the document on @f. NULL on out of memory. */
struct rr_timeline *rr_timeline_open(FILE *f, int nr_inputs);
/*
 * The slices that follow are policy @k's replay of @in (@label names it).
 * Writes the processes' names and, for the first policy of an input, the
 * node curves and the lost events. 0 or -errno.
 */
int rr_timeline_policy_begin(struct rr_timeline *t, const struct rr_input *in, int k,
			     const char *label, const struct rr_curves *curves);
/* An rr_replay_observer span callback; @data is the struct rr_timeline. */
int rr_timeline_span(void *data, const struct rr_replay_span *s);
/* End the document, free @t. 0, or -1 when a write failed. */
int rr_timeline_close(struct rr_timeline *t);

#endif
