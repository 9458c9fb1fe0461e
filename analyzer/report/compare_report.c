// SPDX-License-Identifier: GPL-2.0
/*
 * `compare` results: per node, several policies side by side with absolute
 * and relative differences to the first one, per trace and over all traces.
 * Figures and their meaning: docs/report-schema.md ("compare") and
 * docs/model.md section 1.
 */
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/text_util.h"

#define I(x) ((json_int_t)(x))

enum fig_kind { K_MS, K_PAGES, K_FRACTION };

enum fig_id { FIG_STALL, FIG_P99, FIG_SLEEP, FIG_WASTED, FIG_EFF, FIG_SCANNED, NR_FIGS };

struct fig_desc {
	const char *text, *total_text;	/* table row, per node and in totals */
	const char *json, *total_json;	/* vs_baseline keys */
	const char *unit, *diff_unit;
	enum fig_kind kind;
	int decimals;
	int lower_is_better;
	int in_table;
};

/* The table's order is the issue's: stall first, then p99, sleep, waste, efficiency. */
static const struct fig_desc figs[NR_FIGS] = {
	[FIG_STALL] = { "stall", "stall", "stall_ns", "stall_ns", "ms", "ms", K_MS, 1, 1, 1 },
	[FIG_P99] = { "p99 episode", "max node p99", "p99_ns", "max_node_p99_ns", "ms", "ms",
		      K_MS, 2, 1, 1 },
	[FIG_SLEEP] = { "sleep", "sleep", "sleep_ns", "sleep_ns", "ms", "ms", K_MS, 1, 1, 1 },
	[FIG_WASTED] = { "wasted", "wasted", "wasted", "wasted", "pages", "pages", K_PAGES, 0, 1,
			 1 },
	[FIG_EFF] = { "efficiency", "efficiency", "efficiency", "efficiency", "%", "points",
		      K_FRACTION, 2, 0, 1 },
	[FIG_SCANNED] = { "scanned", "scanned", "scanned", "scanned", "pages", "pages", K_PAGES, 0,
			  1, 0 },
};

#define LABEL_W 20	/* row labels; "node N" and "all nodes" titles */
#define COL_W 16	/* one policy */
#define HEAD_LINES 6	/* lines of a policy's column header */
#define MAX_COLS 64	/* per table; more policies go to further tables */

static double efficiency(const struct rr_compare_fig *f)
{
	return f->scanned ? (double)f->reclaimed / (double)f->scanned : 0.0;
}

static int64_t fig_int(const struct rr_compare_fig *f, enum fig_id id)
{
	switch (id) {
	case FIG_STALL:
		return (int64_t)f->stall_ns;
	case FIG_P99:
		return (int64_t)f->p99_ns;
	case FIG_SLEEP:
		return (int64_t)f->sleep_ns;
	case FIG_WASTED:
		return (int64_t)f->wasted;
	case FIG_SCANNED:
		return (int64_t)f->scanned;
	default:
		return 0;
	}
}

static double fig_real(const struct rr_compare_fig *f, enum fig_id id)
{
	return id == FIG_EFF ? efficiency(f) : (double)fig_int(f, id);
}

static double fig_diff(const struct rr_compare_fig *f, const struct rr_compare_fig *base,
		       enum fig_id id)
{
	/* Integer figures subtract exactly before the one rounding to double. */
	if (figs[id].kind == K_FRACTION)
		return fig_real(f, id) - fig_real(base, id);
	return (double)(fig_int(f, id) - fig_int(base, id));
}

/* (policy - baseline) / baseline; 0 when undefined (the baseline is 0), flagged by *ok. */
static double fig_rel(const struct rr_compare_fig *f, const struct rr_compare_fig *base,
		      enum fig_id id, int *ok)
{
	double b = fig_real(base, id);

	*ok = b != 0.0;
	return *ok ? fig_diff(f, base, id) / b : 0.0;
}

void rr_compare_fig_from_node(struct rr_compare_fig *f, const struct rr_replay_node *n)
{
	memset(f, 0, sizeof(*f));
	f->stall_ns = n->stall_ns;
	f->p99_ns = n->stall.p99_ns;
	f->episodes = n->stall.count;
	/* Tasks' sleeps only, as `replay` counts them: kswapd's are no user stall. */
	for (int k = 0; k < RR_NR_REASONS; k++) {
		f->sleep_ns += n->sleeps[k].sleep_ns;
		f->sleeps += n->sleeps[k].count;
	}
	f->scanned = n->scanned;
	f->reclaimed = n->reclaimed;
	f->wasted = n->wasted;
}

int rr_compare_totals_init(struct rr_compare_totals *t, int nr_policies)
{
	memset(t, 0, sizeof(*t));
	t->fig = calloc((size_t)nr_policies, sizeof(*t->fig));
	t->label = calloc((size_t)nr_policies, sizeof(*t->label));
	if (!t->fig || !t->label) {
		rr_compare_totals_release(t);
		return -1;
	}
	t->nr_policies = nr_policies;
	return 0;
}

void rr_compare_totals_add(struct rr_compare_totals *t, const struct rr_replay_result *r)
{
	for (int p = 0; p < t->nr_policies; p++) {
		struct rr_compare_fig *sum = &t->fig[p];

		snprintf(t->label[p], sizeof(t->label[p]), "%s", r[p].policy);
		for (int n = 0; n < r[p].nr_nodes; n++) {
			struct rr_compare_fig f;

			rr_compare_fig_from_node(&f, &r[p].nodes[n]);
			sum->stall_ns += f.stall_ns;
			/* A percentile of the union cannot be had from per-node ones. */
			if (f.p99_ns > sum->p99_ns)
				sum->p99_ns = f.p99_ns;
			sum->episodes += f.episodes;
			sum->sleep_ns += f.sleep_ns;
			sum->sleeps += f.sleeps;
			sum->scanned += f.scanned;
			sum->reclaimed += f.reclaimed;
			sum->wasted += f.wasted;
		}
	}
	t->nr_inputs++;
	t->nr_nodes += r[0].nr_nodes;
}

void rr_compare_totals_release(struct rr_compare_totals *t)
{
	free(t->fig);
	free(t->label);
	memset(t, 0, sizeof(*t));
}

/* JSON */

static json_t *fig_json(const struct rr_compare_fig *f, const struct rr_compare_fig *base,
			const char *label, int totals)
{
	json_t *o = json_object(), *vs = json_object();

	json_object_set_new(o, "policy", json_string(label));
	json_object_set_new(o, "stall_ns", json_integer(I(f->stall_ns)));
	json_object_set_new(o, totals ? "max_node_p99_ns" : "p99_ns", json_integer(I(f->p99_ns)));
	json_object_set_new(o, "episodes", json_integer(I(f->episodes)));
	json_object_set_new(o, "sleep_ns", json_integer(I(f->sleep_ns)));
	json_object_set_new(o, "sleeps", json_integer(I(f->sleeps)));
	json_object_set_new(o, "scanned", json_integer(I(f->scanned)));
	json_object_set_new(o, "reclaimed", json_integer(I(f->reclaimed)));
	json_object_set_new(o, "wasted", json_integer(I(f->wasted)));
	json_object_set_new(o, "efficiency", json_real(efficiency(f)));
	for (int id = 0; id < NR_FIGS; id++) {
		int ok;
		double rel = fig_rel(f, base, id, &ok);
		json_t *abs = figs[id].kind == K_FRACTION ? json_real(fig_diff(f, base, id)) :
			      json_integer(I(fig_int(f, id) - fig_int(base, id)));

		json_object_set_new(vs, totals ? figs[id].total_json : figs[id].json,
				    json_pack("{s:o,s:o}", "abs", abs,
					      "rel", ok ? json_real(rel) : json_null()));
	}
	json_object_set_new(o, "vs_baseline", vs);
	return o;
}

static json_t *policies_json(const struct rr_compare_policy *pol, char (*label)[RR_POLICY_LABEL_MAX],
			     const struct rr_replay_result *r, int nr)
{
	json_t *a = json_array();

	for (int p = 0; p < nr; p++) {
		json_t *set = json_array();

		for (uint32_t i = 0; i < pol[p].nr_settings; i++)
			json_array_append_new(set, json_string(pol[p].settings[i]));
		json_array_append_new(a, json_pack("{s:s,s:s,s:o}", "label",
						   r ? r[p].policy : label[p], "name", pol[p].name,
						   "settings", set));
	}
	return a;
}

json_t *rr_compare_trace_json(const struct rr_replay_result *r, int nr,
			      const struct rr_compare_policy *pol, const struct rr_input *in,
			      int input)
{
	json_t *o = json_object(), *nodes = json_array();
	int hz_inferred;
	uint32_t hz = rr_model_hz(in->model, &hz_inferred);

	for (int n = 0; n < r[0].nr_nodes; n++) {
		json_t *fa = json_array();
		struct rr_compare_fig base, f;

		rr_compare_fig_from_node(&base, &r[0].nodes[n]);
		for (int p = 0; p < nr; p++) {
			rr_compare_fig_from_node(&f, &r[p].nodes[n]);
			json_array_append_new(fa, fig_json(&f, &base, r[p].policy, 0));
		}
		json_array_append_new(nodes, json_pack("{s:i,s:o}", "nid", n, "figures", fa));
	}
	json_object_set_new(o, "scope", json_string("trace"));
	json_object_set_new(o, "input", json_integer(input));
	json_object_set_new(o, "path", json_string(in->trace->path));
	json_object_set_new(o, "baseline", json_string(r[0].policy));
	json_object_set_new(o, "policies", policies_json(pol, NULL, r, nr));
	json_object_set_new(o, "node_state", json_string(r[0].sampled ? "sampled" :
							 "reconstructed"));
	json_object_set_new(o, "hz", json_integer(hz));
	json_object_set_new(o, "hz_inferred", json_boolean(hz_inferred));
	json_object_set_new(o, "nodes", nodes);
	return o;
}

json_t *rr_compare_totals_json(const struct rr_compare_totals *t,
			       const struct rr_compare_policy *pol)
{
	json_t *o = json_object(), *fa = json_array(), *ins = json_array();

	for (int p = 0; p < t->nr_policies; p++)
		json_array_append_new(fa, fig_json(&t->fig[p], &t->fig[0], t->label[p], 1));
	for (int i = 0; i < t->nr_inputs; i++)
		json_array_append_new(ins, json_integer(i));
	json_object_set_new(o, "scope", json_string("totals"));
	json_object_set_new(o, "inputs", ins);
	json_object_set_new(o, "nodes", json_integer(t->nr_nodes));
	json_object_set_new(o, "baseline", json_string(t->nr_policies ? t->label[0] : ""));
	json_object_set_new(o, "policies", policies_json(pol, t->label, NULL, t->nr_policies));
	json_object_set_new(o, "figures", fa);
	return o;
}

/* Tables */

/*
 * Split @label into pieces of at most COL_W - 2 characters for a header of
 * several lines. Breaks go after ':' or ',' (between settings), else after
 * '.' or before '=', so parametric labels that differ only in one setting
 * stay readable and distinguishable; a label too long even so ends in '~'.
 */
static int wrap_label(const char *label, char lines[HEAD_LINES][COL_W])
{
	const int w = COL_W - 2;
	int nr = 0;

	while (*label && nr < HEAD_LINES) {
		int len = (int)strlen(label), cut = len;

		if (len > w) {
			cut = 0;
			for (int i = w; i > 1 && !cut; i--)
				if (label[i - 1] == ':' || label[i - 1] == ',')
					cut = i;
			for (int i = w; i > 1 && !cut; i--)
				if (label[i - 1] == '.' || label[i] == '=')
					cut = i;
			if (!cut)
				cut = w;
			if (nr == HEAD_LINES - 1) {	/* out of lines: mark the cut */
				snprintf(lines[nr++], COL_W, "%.*s~", w - 1, label);
				break;
			}
		}
		snprintf(lines[nr++], COL_W, "%.*s", cut, label);
		label += cut;
	}
	return nr;
}

/* NAME:KEY=VALUE,... in full; the engine's own label stops at 47 characters. */
/*
 * A column's label: the replayed policy's own label (its name and settings,
 * so a plugin shows its name, not its path), else the command line's.
 */
static char *full_label(const struct rr_compare_policy *p, const char *fallback)
{
	size_t len;
	char *s;

	if (fallback && *fallback)
		return strdup(fallback);
	if (!p)
		return strdup("");
	len = strlen(p->name) + 1;

	for (uint32_t i = 0; i < p->nr_settings; i++)
		len += strlen(p->settings[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, p->name);
	for (uint32_t i = 0; i < p->nr_settings; i++) {
		strcat(s, i ? "," : ":");
		strcat(s, p->settings[i]);
	}
	return s;
}

static void header(FILE *out, const struct rr_compare_layout *lay, const char *title,
		   const char *const *labels, const int *cols, int nr_cols)
{
	char lines[MAX_COLS][HEAD_LINES][COL_W];
	int depth = 1, n[MAX_COLS];

	memset(lines, 0, sizeof(lines));
	for (int c = 0; c < nr_cols; c++) {
		n[c] = wrap_label(labels[cols[c]], lines[c]);
		if (n[c] > depth)
			depth = n[c];
	}
	fputc('\n', out);
	/* Labels sit on the bottom lines, right above their numbers. */
	for (int l = 0; l < depth; l++) {
		fprintf(out, "%s%-*s", lay->color ? "\033[1m" : "", LABEL_W, l ? "" : title);
		for (int c = 0; c < nr_cols; c++) {
			int k = l - (depth - n[c]);

			fprintf(out, "%*s", COL_W, k >= 0 ? lines[c][k] : "");
		}
		fputs(lay->color ? "\033[0m\n" : "\n", out);
	}
}

static void value_cell(char *buf, size_t len, enum fig_id id, const struct rr_compare_fig *f)
{
	const struct fig_desc *d = &figs[id];

	if (d->kind == K_MS)
		snprintf(buf, len, "%.*f", d->decimals, rr_ms((uint64_t)fig_int(f, id)));
	else if (d->kind == K_PAGES)
		snprintf(buf, len, "%lld", (long long)fig_int(f, id));
	else
		snprintf(buf, len, "%.*f", d->decimals, 100.0 * efficiency(f));
}

static void diff_cell(char *buf, size_t len, enum fig_id id, const struct rr_compare_fig *f,
		      const struct rr_compare_fig *base)
{
	const struct fig_desc *d = &figs[id];
	double diff = fig_diff(f, base, id);

	if (d->kind == K_MS)
		snprintf(buf, len, "%+.*f", d->decimals, diff / 1e6);
	else if (d->kind == K_PAGES)
		snprintf(buf, len, "%+lld", (long long)(fig_int(f, id) - fig_int(base, id)));
	else
		snprintf(buf, len, "%+.*f", d->decimals, 100.0 * diff);
}

/* Red when the policy does worse than the baseline, green when better. */
static const char *tone(enum fig_id id, const struct rr_compare_fig *f,
			const struct rr_compare_fig *base)
{
	double diff = fig_diff(f, base, id);

	if (diff == 0.0)
		return NULL;
	return (diff > 0) == figs[id].lower_is_better ? "\033[31m" : "\033[32m";
}

enum row_kind { ROW_VALUE, ROW_DIFF, ROW_REL };

static void row(FILE *out, const struct rr_compare_layout *lay, enum fig_id id,
		enum row_kind kind, const struct rr_compare_fig *f, const int *cols, int nr_cols,
		int totals)
{
	const struct fig_desc *d = &figs[id];
	char label[LABEL_W + 1], cell[64];

	if (kind == ROW_VALUE)
		snprintf(label, sizeof(label), "  %s %s", totals ? d->total_text : d->text,
			 d->unit);
	else
		snprintf(label, sizeof(label), "    diff %s", kind == ROW_REL ? "%" : d->diff_unit);
	fprintf(out, "%-*s", LABEL_W, label);
	for (int c = 0; c < nr_cols; c++) {
		const struct rr_compare_fig *x = &f[cols[c]];
		const char *color = NULL;
		int ok = 1;

		if (kind == ROW_VALUE) {
			value_cell(cell, sizeof(cell), id, x);
		} else if (!cols[c]) {
			cell[0] = '\0';	/* the baseline against itself says nothing */
		} else if (kind == ROW_DIFF) {
			diff_cell(cell, sizeof(cell), id, x, &f[0]);
			color = tone(id, x, &f[0]);
		} else {
			double rel = fig_rel(x, &f[0], id, &ok);

			if (ok)
				snprintf(cell, sizeof(cell), "%+.2f%%", 100.0 * rel);
			else
				snprintf(cell, sizeof(cell), "n/a");
			color = ok ? tone(id, x, &f[0]) : NULL;
		}
		/* Pad first, then colour, so escapes never count as columns. */
		if (lay->color && color)
			fprintf(out, "%*s%s%s\033[0m", COL_W - (int)strlen(cell), "", color, cell);
		else
			fprintf(out, "%*s", COL_W, cell);
	}
	fputc('\n', out);
}

/*
 * One table: the baseline column, then as many policies as the width takes;
 * the rest follow in further tables that repeat the baseline column.
 */
static void table(FILE *out, const struct rr_compare_layout *lay, const char *title,
		  const struct rr_compare_fig *f, const char *const *labels, int nr, int totals)
{
	int cap = (lay->width - LABEL_W) / COL_W - 1, cols[MAX_COLS];

	if (cap < 1)
		cap = 1;
	if (cap > MAX_COLS - 1)
		cap = MAX_COLS - 1;
	for (int start = 1; start < nr || start == 1; start += cap) {
		int nr_cols = 0;

		cols[nr_cols++] = 0;
		for (int p = start; p < nr && p < start + cap; p++)
			cols[nr_cols++] = p;
		header(out, lay, title, labels, cols, nr_cols);
		for (int id = 0; id < NR_FIGS; id++) {
			if (!figs[id].in_table)
				continue;
			row(out, lay, id, ROW_VALUE, f, cols, nr_cols, totals);
			if (nr > 1) {
				row(out, lay, id, ROW_DIFF, f, cols, nr_cols, totals);
				row(out, lay, id, ROW_REL, f, cols, nr_cols, totals);
			}
		}
		if (nr <= 1)
			break;
	}
}

static void print_baseline(FILE *out, const char *label)
{
	fprintf(out, "  baseline: %s; diff = policy - baseline, diff %% = diff / baseline\n",
		label);
}

static char **labels_new(const struct rr_compare_policy *pol,
			 char (*fallback)[RR_POLICY_LABEL_MAX], int nr)
{
	char **l = calloc((size_t)nr, sizeof(*l));

	for (int p = 0; l && p < nr; p++) {
		l[p] = full_label(pol ? &pol[p] : NULL, fallback[p]);
		if (!l[p]) {
			while (p--)
				free(l[p]);
			free(l);
			return NULL;
		}
	}
	return l;
}

static void labels_free(char **l, int nr)
{
	for (int p = 0; l && p < nr; p++)
		free(l[p]);
	free(l);
}

void rr_compare_print_trace(FILE *out, const struct rr_replay_result *r, int nr,
			    const struct rr_compare_policy *pol, const struct rr_input *in,
			    const struct rr_compare_layout *lay)
{
	struct rr_compare_fig *f = calloc((size_t)nr, sizeof(*f));
	char (*names)[RR_POLICY_LABEL_MAX] = calloc((size_t)nr, sizeof(*names)), **labels = NULL, title[32];

	for (int p = 0; names && p < nr; p++)
		snprintf(names[p], sizeof(names[p]), "%s", r[p].policy);
	if (names)
		labels = labels_new(pol, names, nr);
	if (!f || !labels)
		goto out;
	rr_print_input_header(out, in, lay->color);
	fprintf(out, "  node state: %s\n", r[0].sampled ? "from counter samples" :
		"reconstructed from events (no counter samples)");
	print_baseline(out, r[0].policy);
	for (int n = 0; n < r[0].nr_nodes; n++) {
		for (int p = 0; p < nr; p++)
			rr_compare_fig_from_node(&f[p], &r[p].nodes[n]);
		snprintf(title, sizeof(title), "node %d", n);
		table(out, lay, title, f, (const char *const *)labels, nr, 0);
	}
out:
	labels_free(labels, nr);
	free(names);
	free(f);
}

void rr_compare_print_totals(FILE *out, const struct rr_compare_totals *t,
			     const struct rr_compare_policy *pol,
			     const struct rr_compare_layout *lay)
{
	char **labels = labels_new(pol, t->label, t->nr_policies);

	if (!labels || !t->nr_policies) {
		labels_free(labels, t->nr_policies);
		return;
	}
	rr_heading(out, lay->color, "totals over %d trace%s, %d node%s", t->nr_inputs,
		   t->nr_inputs == 1 ? "" : "s", t->nr_nodes, t->nr_nodes == 1 ? "" : "s");
	fprintf(out, "  sums over every node; max node p99 is the largest per-node p99\n");
	print_baseline(out, t->label[0]);
	table(out, lay, "all nodes", t->fig, (const char *const *)labels, t->nr_policies, 1);
	labels_free(labels, t->nr_policies);
}

void rr_compare_print_warnings(FILE *out, const struct rr_warnings *w,
			       const struct rr_compare_layout *lay)
{
	rr_warnings_print_width(out, w, lay->width);
}
