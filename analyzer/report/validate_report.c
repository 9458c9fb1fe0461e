// SPDX-License-Identifier: GPL-2.0
/* `validate` results: identity, fidelity per node and reason, properties, truth. */
#include <math.h>

#include "reclaim_replay/report.h"
#include "reclaim_replay/validate.h"
#include "report/text_util.h"

#define I(x) ((json_int_t)(x))

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 100.0;
}

/*
 * What a missed fidelity target comes from, and what recording would tell
 * more: the same words in the table and in the JSON report.
 */
static const struct {
	unsigned bit;
	const char *cause;
} limit_names[] = {
	{ RR_LIMIT_CPU_WAIT, "cpu-wait" },
	{ RR_LIMIT_NO_SAMPLES, "no-counter-samples" },
};

static void limit_advice(const struct rr_validation *v, unsigned bit, char *buf, size_t len)
{
	const struct rr_cpu_wait *w = &v->cpu_wait;

	switch (bit) {
	case RR_LIMIT_CPU_WAIT:
		snprintf(buf, len, "tasks waited for a cpu past the 1-jiffy tolerance after %.1f%% "
			 "of their timeouts; the model has no run queue, so its wakes come early; "
			 "record sched_wakeup and sched_switch (reclaim-replay record --sched) to "
			 "measure that wait", pct(w->over_jiffy, w->samples));
		break;
	case RR_LIMIT_NO_SAMPLES:
		snprintf(buf, len, "WRITEBACK wakes follow written pages reconstructed from block "
			 "completions; record counter samples (reclaim-replay record) to follow "
			 "the kernel's own counters");
		break;
	default:
		snprintf(buf, len, "unknown");
	}
}

static json_t *limits_json(const struct rr_validation *v)
{
	json_t *a = json_array();
	char advice[320];

	for (size_t i = 0; i < sizeof(limit_names) / sizeof(limit_names[0]); i++) {
		if (!(v->limits & limit_names[i].bit))
			continue;
		limit_advice(v, limit_names[i].bit, advice, sizeof(advice));
		json_array_append_new(a, json_pack("{s:s,s:s}", "cause", limit_names[i].cause,
						   "advice", advice));
	}
	return a;
}

/* Tables keep within 100 columns; so do these lines under them. */
#define TEXT_WIDTH 100

static void print_limits(FILE *out, const struct rr_validation *v)
{
	const struct rr_cpu_wait *w = &v->cpu_wait;
	char text[320], lead[64];

	if (w->from_wakeups)
		snprintf(text, sizeof(text), "%llu throttles with a sched_wakeup waited %.1f ms "
			 "from it to their resume (median; p90 %.1f ms), %.1f%% more than 1 jiffy; "
			 "the fidelity check adds it to each predicted wake", (unsigned long long)w->samples,
			 (double)w->p50_us / 1000.0, (double)w->p90_us / 1000.0,
			 pct(w->over_jiffy, w->samples));
	else if (w->samples)
		snprintf(text, sizeof(text), "%llu timeouts right after the task's previous "
			 "throttle resumed %.1f ms late (median; p90 %.1f ms), %.1f%% more than "
			 "1 jiffy", (unsigned long long)w->samples, (double)w->p50_us / 1000.0,
			 (double)w->p90_us / 1000.0, pct(w->over_jiffy, w->samples));
	else
		snprintf(text, sizeof(text), "not measurable (no timeout right after another "
			 "throttle of its task)");
	rr_print_wrapped(out, "  cpu wait:", 4, TEXT_WIDTH, text);
	if (!v->targets_missed)
		return;
	fprintf(out, "  fidelity targets (>= %.0f%% within, <= %.0f%% error) missed for %u "
		"node/reason pair%s; limited by:\n", RR_FIDELITY_WITHIN_TARGET_PCT,
		RR_FIDELITY_ERROR_TARGET_PCT, v->targets_missed, v->targets_missed == 1 ? "" : "s");
	for (size_t i = 0; i < sizeof(limit_names) / sizeof(limit_names[0]); i++) {
		if (!(v->limits & limit_names[i].bit))
			continue;
		limit_advice(v, limit_names[i].bit, text, sizeof(text));
		snprintf(lead, sizeof(lead), "    - %s:", limit_names[i].cause);
		rr_print_wrapped(out, lead, 6, TEXT_WIDTH, text);
	}
	if (!v->limits)
		rr_print_wrapped(out, "    -", 6, TEXT_WIDTH, "no known cause measured on this "
				 "trace (docs/model.md, \"What limits the accuracy\")");
}

/* (replayed - recorded) / recorded in %; NAN when nothing was recorded */
static double change_pct(const uint64_t fig[2])
{
	return fig[0] ? 100.0 * ((double)fig[1] - (double)fig[0]) / (double)fig[0] : NAN;
}

static json_t *pct_or_null(const uint64_t fig[2])
{
	double d = change_pct(fig);

	return isnan(d) ? json_null() : json_real(d);
}

static json_t *free_replay_json(const struct rr_validation *v)
{
	json_t *nodes = json_array();

	for (int n = 0; n < v->nr_free; n++) {
		const struct rr_free_replay *f = &v->free[n];
		json_t *o = json_pack("{s:i,s:[I,I],s:[I,I],s:[I,I],s:[I,I]}", "nid", f->nid,
			"stall_ns", I(f->stall_ns[0]), I(f->stall_ns[1]),
			"sleep_ns", I(f->sleep_ns[0]), I(f->sleep_ns[1]),
			"throttles", I(f->throttles[0]), I(f->throttles[1]),
			"wasted", I(f->wasted[0]), I(f->wasted[1]));

		json_object_set_new(o, "stall_change_pct", pct_or_null(f->stall_ns));
		json_object_set_new(o, "sleep_change_pct", pct_or_null(f->sleep_ns));
		json_object_set_new(o, "wasted_change_pct", pct_or_null(f->wasted));
		json_array_append_new(nodes, o);
	}
	return json_pack("{s:b,s:o}", "applicable", v->free_applicable, "nodes", nodes);
}

static void print_change(char *buf, size_t len, const char *what, const uint64_t fig[2])
{
	double d = change_pct(fig);

	if (isnan(d))
		snprintf(buf, len, "%s %s (none recorded)", what, fig[1] ? "new" : "none");
	else
		snprintf(buf, len, "%s %+.1f%%", what, d);
}

static void print_free_replay(FILE *out, const struct rr_validation *v)
{
	if (!v->free_applicable)
		return;
	fprintf(out, "  free mainline replay against the recording (the model's own bias, "
		"no target):\n");
	for (int n = 0; n < v->nr_free; n++) {
		const struct rr_free_replay *f = &v->free[n];
		char stall[48], sleep[48], wasted[48], text[200], lead[32];

		print_change(stall, sizeof(stall), "stall", f->stall_ns);
		print_change(sleep, sizeof(sleep), "throttle sleep", f->sleep_ns);
		print_change(wasted, sizeof(wasted), "wasted pages", f->wasted);
		snprintf(text, sizeof(text), "%s, %s (%llu throttles, %llu recorded), %s", stall,
			 sleep, (unsigned long long)f->throttles[1],
			 (unsigned long long)f->throttles[0], wasted);
		snprintf(lead, sizeof(lead), "    node %d:", f->nid);
		rr_print_wrapped(out, lead, 6, TEXT_WIDTH, text);
	}
}

json_t *rr_validation_json(const struct rr_validation *v, const struct rr_input *in)
{
	json_t *o = json_object(), *fid = json_array(), *props = json_array();

	(void)in;
	for (int k = 0; k < v->nr_fid; k++) {
		const struct rr_fidelity *f = &v->fid[k];

		if (!f->throttles)
			continue;
		json_array_append_new(fid, json_pack("{s:i,s:s,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:f}",
			"nid", f->nid, "reason", rr_reason_name(f->reason),
			"throttles", I(f->throttles), "within_tolerance", I(f->within),
			"within_tolerance_pct", pct(f->within, f->throttles),
			"predicted_early", I(f->early), "predicted_late", I(f->late),
			"recorded_us", I(f->recorded_us), "predicted_us", I(f->predicted_us),
			"total_time_error_pct", 100.0 * rr_fidelity_error(f)));
	}
	for (int i = 0; i < RR_NR_PROPERTIES; i++)
		json_array_append_new(props, json_pack("{s:s,s:b,s:b,s:s}", "name", v->props[i].name,
			"ok", v->props[i].ok, "exercised", v->props[i].exercised,
			"detail", v->props[i].detail));
	json_object_set_new(o, "identity_error", json_integer(I(v->identity_error)));
	json_object_set_new(o, "fidelity", fid);
	json_object_set_new(o, "within_tolerance_pct", json_real(pct(v->within, v->throttles)));
	json_object_set_new(o, "worst_total_time_error_pct", json_real(100.0 * v->worst_total_error));
	json_object_set_new(o, "fidelity_targets_missed", json_integer(v->targets_missed));
	json_object_set_new(o, "cpu_wait", json_pack("{s:s,s:I,s:I,s:f,s:I,s:I}",
		"source", v->cpu_wait.from_wakeups ? "sched_wakeup" : "back_to_back_timeouts",
		"samples", I(v->cpu_wait.samples), "over_jiffy", I(v->cpu_wait.over_jiffy),
		"over_jiffy_pct", v->cpu_wait.samples ? pct(v->cpu_wait.over_jiffy,
							      v->cpu_wait.samples) : 0.0,
		"p50_us", I(v->cpu_wait.p50_us), "p90_us", I(v->cpu_wait.p90_us)));
	json_object_set_new(o, "fidelity_limits", limits_json(v));
	json_object_set_new(o, "properties", props);
	json_object_set_new(o, "free_mainline", free_replay_json(v));
	json_object_set_new(o, "node_state", json_string(v->sampled ? "sampled" : "reconstructed"));
	json_object_set_new(o, "hz", json_integer(v->hz));
	json_object_set_new(o, "hz_inferred", json_boolean(v->hz_inferred));
	if (v->truth.present)
		json_object_set_new(o, "ground_truth", json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}",
			"scanned_trace", v->truth.scanned_trace, "scanned_vmstat", v->truth.scanned_truth,
			"reclaimed_trace", v->truth.reclaimed_trace,
			"reclaimed_vmstat", v->truth.reclaimed_truth,
			"stall_union_us", v->truth.stall_union_us,
			"psi_memory_some_us", v->truth.psi_some_us));
	return o;
}

void rr_validation_print(FILE *out, const struct rr_validation *v, const struct rr_input *in,
			 int color)
{
	rr_print_input_header(out, in, color);
	fprintf(out, "  HZ %u%s; node state %s\n", v->hz, v->hz_inferred ? " (inferred)" : "",
		v->sampled ? "from counter samples" : "reconstructed (no counter samples)");
	fprintf(out, "  identity (recorded replay = stats): %s\n", v->identity_error ?
		v->identity_detail : "exact");
	if (v->throttles) {
		fprintf(out, "  %-6s %-12s %9s %9s %8s %8s %12s %12s %9s\n", "node", "reason",
			"throttles", "within %", "early %", "late %", "recorded ms", "predicted ms",
			"error %");
		for (int k = 0; k < v->nr_fid; k++) {
			const struct rr_fidelity *f = &v->fid[k];

			if (!f->throttles)
				continue;
			fprintf(out, "  %-6d %-12s %9llu %9.1f %8.1f %8.1f %12.1f %12.1f %+9.1f\n",
				f->nid, rr_reason_name(f->reason), (unsigned long long)f->throttles,
				pct(f->within, f->throttles), pct(f->early, f->throttles),
				pct(f->late, f->throttles), (double)f->recorded_us / 1000.0,
				(double)f->predicted_us / 1000.0, 100.0 * rr_fidelity_error(f));
		}
		print_limits(out, v);
	} else {
		fprintf(out, "  no recorded throttles: fidelity not measurable on this trace\n");
	}
	for (int i = 0; i < RR_NR_PROPERTIES; i++)
		fprintf(out, "  property %-38s %s%s%s\n", v->props[i].name,
			v->props[i].ok ? "ok" : "FAILED: ", v->props[i].ok ? "" : v->props[i].detail,
			v->props[i].exercised ? "" : " (not exercised)");
	print_free_replay(out, v);
	if (v->truth.present)
		fprintf(out, "  ground truth: scanned trace/vmstat %.4f, reclaimed %.4f,\n"
			"    stall union / PSI memory some %.3f (PSI counts more kinds of stall)\n",
			v->truth.scanned_truth ? v->truth.scanned_trace / v->truth.scanned_truth : 0.0,
			v->truth.reclaimed_truth ? v->truth.reclaimed_trace / v->truth.reclaimed_truth : 0.0,
			v->truth.psi_some_us ? v->truth.stall_union_us / v->truth.psi_some_us : 0.0);
}
