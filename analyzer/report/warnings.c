// SPDX-License-Identifier: GPL-2.0
/*
 * What a report must say the recording lacked or the model had to infer:
 * lost events, absent fields, nodes guessed, no counter samples.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/report.h"

int rr_warnings_add(struct rr_warnings *w, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (w->nr == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 8;
		char **p = realloc(w->msg, ncap * sizeof(*p));

		if (!p)
			return -1;
		w->msg = p;
		w->cap = ncap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return -1;
	w->msg[w->nr++] = s;
	return 0;
}

void rr_warnings_release(struct rr_warnings *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->msg[i]);
	free(w->msg);
	w->msg = NULL;
	w->nr = w->cap = 0;
}

int rr_warnings_for_input(struct rr_warnings *w, const struct rr_input *in)
{
	const struct rr_trace *t = in->trace;
	const struct rr_model *m = in->model;
	const char *p = t->path;
	uint64_t lost = 0, notices = 0;
	int r = 0, text = t->format && !strncmp(t->format, "ftrace text", 11);

	for (int c = 0; c < t->nr_cpus; c++) {
		lost += t->lost_per_cpu ? t->lost_per_cpu[c] : 0;
		notices += t->loss_marks_per_cpu ? t->loss_marks_per_cpu[c] : 0;
	}
	if (notices)
		r |= rr_warnings_add(w, "%s: %llu events lost in %llu gaps; %llu episodes and "
				     "batches were not paired across a gap",
				     p, (unsigned long long)lost, (unsigned long long)notices,
				     (unsigned long long)m->pairs_refused_across_loss);
	for (size_t i = 0; i < t->nr_missing_fields; i++) {
		/* names are "event.field" */
		const char *name = t->missing_fields[i].name, *dot = strchr(name, '.');
		int elen = dot ? (int)(dot - name) : (int)strlen(name);
		const char *field = dot ? dot + 1 : "?";

		if (text)
			r |= rr_warnings_add(w, "%s: the text of %.*s has no field '%s' (its print "
					     "format does not show it); it reads as 0", p, elen, name,
					     field);
		else
			r |= rr_warnings_add(w, "%s: the format of %.*s has no field '%s'; "
					     "it reads as 0", p, elen, name, field);
	}
	if (t->records_undecodable)
		r |= rr_warnings_add(w, "%s: %llu records could not be decoded and were skipped",
				     p, (unsigned long long)t->records_undecodable);
	if (t->malformed_samples)
		r |= rr_warnings_add(w, "%s: %llu malformed rr-counters/rr-meta lines ignored",
				     p, (unsigned long long)t->malformed_samples);
	if (!t->nr_samples)
		r |= rr_warnings_add(w, "%s: no counter samples: isolated and written pages are "
				     "reconstructed from events", p);
	if (m->episodes_nid_from_cpu)
		r |= rr_warnings_add(w, "%s: %llu episodes without batches were given the node of "
				     "their cpu", p, (unsigned long long)m->episodes_nid_from_cpu);
	if (m->episodes_nid_unknown)
		r |= rr_warnings_add(w, "%s: %llu episodes without batches or cpu map were counted "
				     "on node 0", p, (unsigned long long)m->episodes_nid_unknown);
	if (m->batches_without_isolate)
		r |= rr_warnings_add(w, "%s: %llu shrink events had no matching lru_isolate",
				     p, (unsigned long long)m->batches_without_isolate);
	if (m->isolates_without_shrink)
		r |= rr_warnings_add(w, "%s: %llu lru_isolate events had no matching shrink event "
				     "(their pages count as isolated, not as scanned)",
				     p, (unsigned long long)m->isolates_without_shrink);
	if (m->isolates_cut_by_loss)
		r |= rr_warnings_add(w, "%s: %llu lru_isolate events were cut from their shrink "
				     "event by lost events", p,
				     (unsigned long long)m->isolates_cut_by_loss);
	if (m->episodes_end_mismatch)
		r |= rr_warnings_add(w, "%s: %llu reclaim episodes were ended by a *_end of another "
				     "kind (events missing); they are counted as open", p,
				     (unsigned long long)m->episodes_end_mismatch);
	if (m->throttles_nid_unknown)
		r |= rr_warnings_add(w, "%s: %llu legacy congestion waits outside any episode and "
				     "without a cpu map were counted on node 0", p,
				     (unsigned long long)m->throttles_nid_unknown);
	if (m->throttles_unknown_reason)
		r |= rr_warnings_add(w, "%s: %llu mm_vmscan_throttled events (%.1f ms) had an "
				     "unknown reason and are left out of the throttle tables and "
				     "of task throttle time", p,
				     (unsigned long long)m->throttles_unknown_reason,
				     (double)m->throttles_unknown_reason_us / 1000.0);
	/* hostile values: what was made defined, and how (docs/robustness.md) */
	if (t->records_out_of_order)
		r |= rr_warnings_add(w, "%s: %llu records had a timestamp earlier than the record "
				     "before them; all were sorted by time", p,
				     (unsigned long long)t->records_out_of_order);
	if (m->events_clamped)
		r |= rr_warnings_add(w, "%s: %llu events had a field out of range (negative, or "
				     "beyond 32 bits); it was clamped to 0 or 4294967295", p,
				     (unsigned long long)m->events_clamped);
	if (m->throttles_delay_clamped)
		r |= rr_warnings_add(w, "%s: %llu mm_vmscan_throttled events slept past their "
				     "timeout (impossible in the kernel); %.1f ms beyond the "
				     "timeouts were dropped", p,
				     (unsigned long long)m->throttles_delay_clamped,
				     (double)m->throttles_delay_clamped_us / 1000.0);
	return r ? -1 : 0;
}
