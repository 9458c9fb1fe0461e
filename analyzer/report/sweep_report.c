// SPDX-License-Identifier: GPL-2.0
/*
 * `sweep` as JSON, table and CSV: the figures of every point, the Pareto
 * front, mainline, the recommendation and its robustness, all from
 * struct rr_sweep_analysis (docs/sweep.md says what each figure means).
 */
#include <stdio.h>
#include <string.h>

#include "report/sweep_report.h"
#include "report/text_util.h"

#define I(x) json_integer((json_int_t)(x))

static const char *kind_name(enum rr_sweep_kind k)
{
	return k == RR_SWEEP_DURATION ? "duration" : k == RR_SWEEP_RATIO ? "ratio" : "count";
}

/* @sum: the figure is a sum over nodes, whose p99 is the largest node p99 */
static json_t *fig_json(const struct rr_sweep_fig *f, int sum)
{
	json_t *o = json_object();

	json_object_set_new(o, "stall_ns", I(f->stall_ns));
	json_object_set_new(o, sum ? "max_node_p99_ns" : "p99_ns", I(f->p99_ns));
	json_object_set_new(o, "episodes", I(f->episodes));
	json_object_set_new(o, "sleep_ns", I(f->sleep_ns));
	json_object_set_new(o, "scanned", I(f->scanned));
	json_object_set_new(o, "reclaimed", I(f->reclaimed));
	json_object_set_new(o, "wasted", I(f->wasted));
	return o;
}

static json_t *value_json(enum rr_sweep_kind kind, uint64_t v)
{
	return kind == RR_SWEEP_RATIO ? json_real((double)v / 1e6) : I(v);
}

/* "key=value key=value" at @hz, or "mainline" */
static void point_label(const struct rr_sweep_data *d, uint32_t p, uint32_t hz, char *buf,
			size_t len, const char *sep)
{
	size_t n = 0;

	if (!p) {
		snprintf(buf, len, "mainline");
		return;
	}
	buf[0] = 0;
	for (int k = 0; k < d->spec.nr_params && n < len; k++) {
		char v[32];

		rr_sweep_value_text(d->spec.param[k].kind, rr_sweep_point_value(d, p, k, hz), v,
				    sizeof(v));
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", k ? sep : "",
				      d->spec.param[k].key, v);
	}
}

static json_t *params_json(const struct rr_sweep_spec *s)
{
	json_t *a = json_array();

	for (int k = 0; k < s->nr_params; k++) {
		const struct rr_sweep_param *p = &s->param[k];
		json_t *o = json_object();
		char vary[sizeof(p->key) + sizeof(p->spec) + 2];

		snprintf(vary, sizeof(vary), "%s=%s", p->key, p->spec);
		json_object_set_new(o, "key", json_string(p->key));
		json_object_set_new(o, "vary", json_string(vary));
		json_object_set_new(o, "kind", json_string(kind_name(p->kind)));
		json_object_set_new(o, "form", json_string(p->is_list ? "list" : "range"));
		json_object_set_new(o, "hz_dependent",
				    json_boolean(rr_sweep_param_uses_jiffies(p)));
		if (p->is_list) {
			json_t *l = json_array();

			for (uint32_t i = 0; i < p->nr_list; i++)
				json_array_append_new(l, json_string(p->list[i]));
			json_object_set_new(o, "values", l);
		} else {
			json_object_set_new(o, "lo", json_string(p->lo));
			json_object_set_new(o, "hi", json_string(p->hi));
			json_object_set_new(o, "scale", json_string(p->scale == RR_SWEEP_LOG ?
								    "log" : "lin"));
			json_object_set_new(o, "steps", I(p->steps));
		}
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *point_json(const struct rr_sweep_data *d, const struct rr_sweep_analysis *a,
			  uint32_t p)
{
	json_t *o = json_object(), *coord = json_array(), *set = json_object();
	json_t *nodes = json_array(), *traces = json_array();
	uint32_t hz = d->nr_traces ? d->trace[0].hz : 250;
	size_t nt = (size_t)d->nr_traces;
	char label[512];

	for (int k = 0; p && k < d->spec.nr_params; k++) {
		double c = d->coord[(size_t)p * d->spec.nr_params + k];

		json_array_append_new(coord, json_real(c));
		json_object_set_new(set, d->spec.param[k].key,
				    value_json(d->spec.param[k].kind,
					       rr_sweep_point_value(d, p, k, hz)));
	}
	point_label(d, p, hz, label, sizeof(label), ",");
	json_object_set_new(o, "id", I(p));
	json_object_set_new(o, "mainline", json_boolean(!p));
	json_object_set_new(o, "label", json_string(label));
	json_object_set_new(o, "coord", coord);
	json_object_set_new(o, "settings", set);
	json_object_set_new(o, "pareto", json_boolean(a->on_front[p]));
	json_object_set_new(o, "recommended", json_boolean(p == a->recommended));
	json_object_set_new(o, "totals", fig_json(&a->total[p], 1));
	for (int k = 0; k < a->nr_nids; k++) {
		json_t *n = fig_json(&a->per_node[(size_t)p * (size_t)a->nr_nids + (size_t)k], 0);

		json_object_set_new(n, "nid", I(a->nids[k]));
		json_array_append_new(nodes, n);
	}
	json_object_set_new(o, "nodes", nodes);
	for (int t = 0; t < d->nr_traces; t++) {
		const struct rr_sweep_trace *tr = &d->trace[t];
		json_t *to = fig_json(&a->per_trace[(size_t)p * nt + (size_t)t], 1);
		json_t *tn = json_array();

		json_object_set_new(to, "input", I(t));
		for (int n = 0; n < tr->nr_nodes; n++) {
			json_t *f = fig_json(rr_sweep_fig_at(d, p, tr->node_off + n), 0);

			json_object_set_new(f, "nid", I(tr->nid[n]));
			json_array_append_new(tn, f);
		}
		json_object_set_new(to, "nodes", tn);
		json_array_append_new(traces, to);
	}
	json_object_set_new(o, "traces", traces);
	return o;
}

json_t *rr_sweep_json(const struct rr_sweep_data *d, const struct rr_sweep_analysis *a)
{
	json_t *o = json_object(), *pts = json_array(), *front = json_array();
	json_t *fixed = json_array(), *rob = json_array(), *traces = json_array();
	char desc[160];

	rr_objective_describe(&a->obj, desc, sizeof(desc));
	json_object_set_new(o, "scope", json_string("sweep"));
	json_object_set_new(o, "policy", json_string("parametric"));
	json_object_set_new(o, "parameters", params_json(&d->spec));
	for (int f = 0; f < d->spec.nr_fixed; f++)
		json_array_append_new(fixed, json_string(d->spec.fixed[f]));
	json_object_set_new(o, "fixed", fixed);
	json_object_set_new(o, "sample", json_pack("{s:s,s:I,s:I}",
		"method", rr_sweep_method_name(d->spec.method),
		"points", (json_int_t)(d->nr_points - 1), "seed", (json_int_t)d->spec.seed));
	json_object_set_new(o, "objective", json_pack("{s:s,s:s,s:f}", "name", a->obj.name,
		"description", desc, "bad_margin", a->obj.margin));
	for (int t = 0; t < d->nr_traces; t++) {
		json_t *nids = json_array();

		for (int n = 0; n < d->trace[t].nr_nodes; n++)
			json_array_append_new(nids, I(d->trace[t].nid[n]));
		json_array_append_new(traces, json_pack("{s:i,s:s,s:I,s:I,s:o}", "input", t,
			"path", d->trace[t].path, "hz", (json_int_t)d->trace[t].hz,
			"events", (json_int_t)d->trace[t].events, "nids", nids));
	}
	json_object_set_new(o, "traces", traces);
	json_object_set_new(o, "settings_hz", I(d->nr_traces ? d->trace[0].hz : 250));
	json_object_set_new(o, "hz_mixed", json_boolean(a->hz_mixed));
	for (uint32_t p = 0; p < d->nr_points; p++)
		json_array_append_new(pts, point_json(d, a, p));
	json_object_set_new(o, "points", pts);
	for (uint32_t i = 0; i < a->nr_front; i++)
		json_array_append_new(front, I(a->front[i]));
	json_object_set_new(o, "pareto_front", front);
	json_object_set_new(o, "mainline", I(0));
	json_object_set_new(o, "recommended", I(a->recommended));
	for (int t = 0; t < d->nr_traces; t++) {
		const struct rr_sweep_robust *r = &a->robust[t];

		json_array_append_new(rob, json_pack("{s:i,s:I,s:I,s:I,s:b,s:o,s:o}",
			"input", t, "rank", (json_int_t)r->rank, "of", (json_int_t)d->nr_points,
			"best", (json_int_t)r->best, "bad", r->bad,
			"recommended", fig_json(&r->rec, 1), "mainline", fig_json(&r->ref, 1)));
	}
	json_object_set_new(o, "robustness", rob);
	json_object_set_new(o, "flagged", json_boolean(a->nr_bad > 0));
	return o;
}

/* ---- table ---- */

static void print_spec(FILE *out, const struct rr_sweep_data *d)
{
	char pts[96];
	size_t n = 0;

	if (d->spec.method == RR_SAMPLE_GRID) {
		for (int k = 0; k < d->spec.nr_params && n < sizeof(pts); k++) {
			const struct rr_sweep_param *p = &d->spec.param[k];

			n += (size_t)snprintf(pts + n, sizeof(pts) - n, "%s%u", k ? " x " : "",
					      p->is_list ? p->nr_list : p->steps);
		}
		if (!d->spec.nr_params)
			snprintf(pts, sizeof(pts), "no parameter");
	} else {
		snprintf(pts, sizeof(pts), "%s:%u, seed %llu", rr_sweep_method_name(d->spec.method),
			 d->spec.samples, (unsigned long long)d->spec.seed);
	}
	fprintf(out, "%u points (%s) + mainline, %d trace%s, policy parametric\n",
		d->nr_points - 1, pts, d->nr_traces, d->nr_traces == 1 ? "" : "s");
	for (int k = 0; k < d->spec.nr_params; k++) {
		const struct rr_sweep_param *p = &d->spec.param[k];

		if (p->is_list)
			fprintf(out, "  %-27s %s\n", p->key, p->spec);
		else if (d->spec.method == RR_SAMPLE_GRID)
			fprintf(out, "  %-27s %s..%s, %s scale, %u steps\n", p->key, p->lo, p->hi,
				p->scale == RR_SWEEP_LOG ? "log" : "lin", p->steps);
		else
			fprintf(out, "  %-27s %s..%s, %s scale, sampled\n", p->key, p->lo, p->hi,
				p->scale == RR_SWEEP_LOG ? "log" : "lin");
	}
	for (int f = 0; f < d->spec.nr_fixed; f++)
		fprintf(out, "  %-27s (every point)\n", d->spec.fixed[f]);
}

/* A table row: marks, point, figures, then settings cut to the width. */
static void row(FILE *out, const struct rr_sweep_data *d, const struct rr_sweep_analysis *a,
		uint32_t p)
{
	const struct rr_sweep_fig *f = &a->total[p];
	char label[512], marks[4];
	int room;

	snprintf(marks, sizeof(marks), "%c%c%c", !p ? 'M' : ' ', a->on_front[p] ? '*' : ' ',
		 p == a->recommended ? 'R' : ' ');
	point_label(d, p, d->nr_traces ? d->trace[0].hz : 250, label, sizeof(label), " ");
	/* 3 + 7 + 12 + 10 + 14 + 2 = 48 columns before the settings */
	room = RR_SWEEP_TABLE_WIDTH - 48;
	if ((int)strlen(label) > room)
		memcpy(label + room - 3, "...", 4);
	fprintf(out, "%s %6u %11.1f %9.2f %13llu  %s\n", marks, p, rr_ms(f->stall_ns),
		rr_ms(f->p99_ns), (unsigned long long)f->wasted, label);
}

static void print_points(FILE *out, const struct rr_sweep_data *d,
			 const struct rr_sweep_analysis *a, int all, int color)
{
	rr_heading(out, color, "%s", all ? "every point, summed over traces and nodes" :
		   "the Pareto front of stall against wasted scanning, mainline and the "
		   "recommendation");
	fprintf(out, "M mainline  * on the Pareto front  R recommended; p99 is the largest node "
		"p99\n");
	fprintf(out, "%-3s %6s %11s %9s %13s  %s\n", "", "point", "stall ms", "p99 ms",
		"wasted pages", "settings");
	if (all) {
		for (uint32_t p = 0; p < d->nr_points; p++)
			row(out, d, a, p);
		return;
	}
	if (!a->on_front[0])
		row(out, d, a, 0);
	for (uint32_t i = 0; i < a->nr_front; i++)
		row(out, d, a, a->front[i]);
	if (!a->on_front[a->recommended] && a->recommended)
		row(out, d, a, a->recommended);
}

static void print_recommendation(FILE *out, const struct rr_sweep_data *d,
				 const struct rr_sweep_analysis *a, int color)
{
	uint32_t r = a->recommended;
	char desc[160];
	int col;

	rr_objective_describe(&a->obj, desc, sizeof(desc));
	rr_heading(out, color, "recommended: point %u", r);
	fprintf(out, "objective %s: %s\n", a->obj.name, desc);
	if (!r) {
		fprintf(out, "no point beats mainline under this objective: keep mainline\n");
		return;
	}
	col = fprintf(out, "  reclaim-replay replay -P parametric");
	for (int f = 0; f < d->spec.nr_fixed; f++) {
		int w = (int)strlen(d->spec.fixed[f]) + 7;

		if (col + w > RR_SWEEP_TABLE_WIDTH - 2) {
			fprintf(out, " \\\n     ");
			col = 5;
		}
		col += fprintf(out, " --set %s", d->spec.fixed[f]);
	}
	for (int k = 0; k < d->spec.nr_params; k++) {
		char v[32];
		int w;

		rr_sweep_value_exact(d->spec.param[k].kind,
				     rr_sweep_point_value(d, r, k, d->trace[0].hz), v, sizeof(v));
		w = (int)(strlen(d->spec.param[k].key) + strlen(v)) + 8;
		if (col + w > RR_SWEEP_TABLE_WIDTH - 2) {
			fprintf(out, " \\\n     ");
			col = 5;
		}
		col += fprintf(out, " --set %s=%s", d->spec.param[k].key, v);
	}
	fprintf(out, "\n");
	if (a->hz_mixed)
		fprintf(out, "(values at HZ=%u, the first trace's; jiffy values differ on "
			"traces of another HZ)\n", d->trace[0].hz);
}

static void node_rows(FILE *out, const struct rr_sweep_analysis *a, uint32_t p, const char *who)
{
	for (int k = 0; k < a->nr_nids; k++) {
		const struct rr_sweep_fig *f = &a->per_node[(size_t)p * (size_t)a->nr_nids +
							     (size_t)k];

		fprintf(out, "  node %-3d %-12s %11.1f %9.2f %13llu %13llu\n", a->nids[k], who,
			rr_ms(f->stall_ns), rr_ms(f->p99_ns), (unsigned long long)f->wasted,
			(unsigned long long)f->scanned);
	}
}

static void print_nodes(FILE *out, const struct rr_sweep_analysis *a, int color)
{
	rr_heading(out, color, "per node, summed over traces");
	fprintf(out, "  %-21s %11s %9s %13s %13s\n", "", "stall ms", "p99 ms", "wasted pages",
		"scanned");
	node_rows(out, a, 0, "mainline");
	if (a->recommended)
		node_rows(out, a, a->recommended, "recommended");
}

static void print_robustness(FILE *out, const struct rr_sweep_data *d,
			     const struct rr_sweep_analysis *a, int color)
{
	rr_heading(out, color, "robustness: the recommendation on each trace alone");
	fprintf(out, "rank among %u points on that trace; BAD: worse than mainline there by more "
		"than %g%%\n", d->nr_points, a->obj.margin * 100);
	fprintf(out, "  %-26s %11s %10s %10s %13s %13s\n", "trace", "rank", "p99 ms", "mainline",
		"wasted", "mainline");
	for (int t = 0; t < d->nr_traces; t++) {
		const struct rr_sweep_robust *r = &a->robust[t];
		char rank[24], name[27];

		snprintf(rank, sizeof(rank), "%u/%u", r->rank, d->nr_points);
		snprintf(name, sizeof(name), "%s", d->trace[t].label);
		fprintf(out, "  %-26s %11s %10.2f %10.2f %13llu %13llu%s\n", name, rank,
			rr_ms(r->rec.p99_ns), rr_ms(r->ref.p99_ns),
			(unsigned long long)r->rec.wasted, (unsigned long long)r->ref.wasted,
			r->bad ? " BAD" : "");
	}
	if (a->nr_bad)
		fprintf(out, "flagged: the recommendation wins overall but loses badly on %d of %d "
			"trace%s\n", a->nr_bad, d->nr_traces, d->nr_traces == 1 ? "" : "s");
	else
		fprintf(out, "not flagged: no trace is worse than mainline by more than %g%%\n",
			a->obj.margin * 100);
}

void rr_sweep_print_table(FILE *out, const struct rr_sweep_data *d,
			  const struct rr_sweep_analysis *a, int all, int color)
{
	/* rr_heading() starts each section with a blank line */
	if (color)
		fputs("\033[1m", out);
	fputs("sweep", out);
	fputs(color ? "\033[0m\n" : "\n", out);
	print_spec(out, d);
	print_points(out, d, a, all, color);
	print_recommendation(out, d, a, color);
	print_nodes(out, a, color);
	print_robustness(out, d, a, color);
}

/* ---- CSV ---- */

static void csv_values(FILE *out, const struct rr_sweep_data *d, uint32_t p, uint32_t hz)
{
	for (int k = 0; k < d->spec.nr_params; k++) {
		uint64_t v = p ? rr_sweep_point_value(d, p, k, hz) : 0;

		if (!p)
			fprintf(out, ",");
		else if (d->spec.param[k].kind == RR_SWEEP_RATIO)
			fprintf(out, ",%.6f", (double)v / 1e6);
		else
			fprintf(out, ",%llu", (unsigned long long)v);
	}
}

static void csv_row(FILE *out, const struct rr_sweep_data *d, const struct rr_sweep_analysis *a,
		    uint32_t p, uint32_t hz, const char *trace, const char *nid,
		    const struct rr_sweep_fig *f)
{
	fprintf(out, "%u,%d,%d,%d", p, !p, a->on_front[p], p == a->recommended);
	csv_values(out, d, p, hz);
	/* RFC 4180: the trace in quotes, a quote in it doubled */
	fputs(",\"", out);
	for (const char *c = trace; *c; c++)
		fputs(*c == '"' ? "\"\"" : (char[]){ *c, 0 }, out);
	fprintf(out, "\",%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", nid,
		(unsigned long long)f->stall_ns, (unsigned long long)f->p99_ns,
		(unsigned long long)f->episodes, (unsigned long long)f->sleep_ns,
		(unsigned long long)f->scanned, (unsigned long long)f->reclaimed,
		(unsigned long long)f->wasted);
}

int rr_sweep_write_csv(FILE *out, const struct rr_sweep_data *d,
		       const struct rr_sweep_analysis *a)
{
	uint32_t hz0 = d->nr_traces ? d->trace[0].hz : 250;
	size_t nt = (size_t)d->nr_traces;

	fprintf(out, "point,mainline,pareto,recommended");
	for (int k = 0; k < d->spec.nr_params; k++)
		fprintf(out, ",%s%s", d->spec.param[k].key,
			d->spec.param[k].kind == RR_SWEEP_DURATION ? "_ns" : "");
	fprintf(out, ",trace,nid,stall_ns,p99_ns,episodes,sleep_ns,scanned,reclaimed,wasted\n");
	for (uint32_t p = 0; p < d->nr_points; p++) {
		char nid[16];

		csv_row(out, d, a, p, hz0, "*", "*", &a->total[p]);
		for (int k = 0; k < a->nr_nids; k++) {
			snprintf(nid, sizeof(nid), "%d", a->nids[k]);
			csv_row(out, d, a, p, hz0, "*", nid,
				&a->per_node[(size_t)p * (size_t)a->nr_nids + (size_t)k]);
		}
		for (int t = 0; t < d->nr_traces; t++)
			csv_row(out, d, a, p, d->trace[t].hz, d->trace[t].path, "*",
				&a->per_trace[(size_t)p * nt + (size_t)t]);
	}
	return ferror(out) ? -1 : 0;
}
