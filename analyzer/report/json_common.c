// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON top level every command shares (schema v1): tool, command,
 * inputs with what was read, used, ignored and lost, and warnings.
 */
#include <stdio.h>
#include <string.h>

#include "reclaim_replay/report.h"
#include "report/sha256.h"

#define U(x) json_integer((json_int_t)(x))

static json_t *name_counts(const struct rr_name_count *names, size_t n, int want_used)
{
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++)
		if (want_used < 0 || names[i].used == want_used)
			json_object_set_new(o, names[i].name, U(names[i].count));
	return o;
}

json_t *rr_json_input(const struct rr_input *in)
{
	const struct rr_trace *t = in->trace;
	const struct rr_model *m = in->model;
	json_t *o = json_object(), *lost = json_object(), *per_cpu = json_object();
	uint64_t total = 0, notices = 0;
	char cpu[16];

	for (int c = 0; c < t->nr_cpus; c++) {
		uint64_t n = t->lost_per_cpu ? t->lost_per_cpu[c] : 0;
		uint64_t k = t->loss_marks_per_cpu ? t->loss_marks_per_cpu[c] : 0;

		total += n;
		notices += k;
		if (k) {
			snprintf(cpu, sizeof(cpu), "%d", c);
			json_object_set_new(per_cpu, cpu, json_pack("{s:I,s:I}", "events", (json_int_t)n,
								     "gaps", (json_int_t)k));
		}
	}
	json_object_set_new(lost, "total", U(total));
	json_object_set_new(lost, "gaps", U(notices));
	json_object_set_new(lost, "per_cpu", per_cpu);
	json_object_set_new(lost, "episodes_cut", U(m->episodes_cut_by_loss));
	json_object_set_new(lost, "pairs_refused", U(m->pairs_refused_across_loss));

	json_object_set_new(o, "path", json_string(t->path));
	json_object_set_new(o, "format", json_string(t->format ? t->format : "?"));
	json_object_set_new(o, "size_bytes", U(t->file_size));
	json_object_set_new(o, "sha256", rr_json_sha256(t->path));
	json_object_set_new(o, "kernel", t->kernel[0] ? json_string(t->kernel) : json_null());
	json_object_set_new(o, "hz", t->hz ? U(t->hz) : json_null());
	json_object_set_new(o, "page_size", t->page_size ? U(t->page_size) : json_null());
	json_object_set_new(o, "nodes", U(t->nr_nodes));
	json_object_set_new(o, "cpus", U(t->nr_cpus));
	json_object_set_new(o, "first_ts_ns", U(m->first_ts));
	json_object_set_new(o, "duration_ns", U(m->last_ts - m->first_ts));
	json_object_set_new(o, "records", json_pack("{s:I,s:I,s:I,s:I}",
		"read", (json_int_t)t->records_read, "used", (json_int_t)t->records_used,
		"ignored", (json_int_t)t->records_ignored,
		"undecodable", (json_int_t)t->records_undecodable));
	json_object_set_new(o, "lost_events", lost);
	json_object_set_new(o, "counter_samples", json_pack("{s:b,s:I,s:I}",
		"present", t->nr_samples > 0, "count", (json_int_t)t->nr_samples,
		"malformed", (json_int_t)t->malformed_samples));
	json_object_set_new(o, "events", name_counts(t->names, t->nr_names, -1));
	json_object_set_new(o, "ignored_events", name_counts(t->names, t->nr_names, 0));
	json_object_set_new(o, "missing_fields",
			    name_counts(t->missing_fields, t->nr_missing_fields, -1));
	json_object_set_new(o, "attribution", json_pack("{s:I,s:I,s:I,s:I}",
		"episodes_node_from_cpu", (json_int_t)m->episodes_nid_from_cpu,
		"episodes_node_unknown", (json_int_t)m->episodes_nid_unknown,
		"shrinks_without_isolate", (json_int_t)m->batches_without_isolate,
		"isolates_without_shrink", (json_int_t)m->isolates_without_shrink));
	return o;
}

json_t *rr_json_report_new(const char *command, const struct rr_input *inputs, int nr_inputs,
			   const struct rr_warnings *w)
{
	json_t *doc = json_object(), *ins = json_array(), *warn = json_array();

	for (int i = 0; i < nr_inputs; i++)
		json_array_append_new(ins, rr_json_input(&inputs[i]));
	for (size_t i = 0; w && i < w->nr; i++)
		json_array_append_new(warn, json_string(w->msg[i]));
	json_object_set_new(doc, "schema_version", U(RR_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s}", "name", "reclaim-replay",
						   "version", RR_VERSION));
	json_object_set_new(doc, "command", json_string(command));
	json_object_set_new(doc, "inputs", ins);
	json_object_set_new(doc, "warnings", warn);
	return doc;
}

int rr_json_print(json_t *doc, FILE *out, int pretty)
{
	size_t flags = JSON_SORT_KEYS | JSON_REAL_PRECISION(10) | (pretty ? JSON_INDENT(2) :
								   JSON_COMPACT);

	if (json_dumpf(doc, out, flags) || fputc('\n', out) == EOF)
		return -1;
	return 0;
}
