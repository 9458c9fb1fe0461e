// SPDX-License-Identifier: GPL-2.0
/*
 * The `--plot` document (plot.h), drawn with svg.h. Each input is one block:
 * a title line, the two bar charts side by side, then one cumulative-stall
 * plot per node. Every series group carries data-* attributes (policy,
 * node, final value) so tests can check the drawing against the JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "sort_u64.h"
#include "svg.h"

#define WIDTH 1000.0
#define HEAD 44.0		/* the document title */
#define BLOCK_TITLE 50.0	/* one input's path, then the legend */
#define BARS_H 300.0
#define NODE_H 270.0
#define SAMPLES 480		/* points per cumulative line */

struct stall_span {
	uint64_t begin, end;
	int32_t nid;
};

struct policy_spans {
	struct stall_span *v;
	size_t n, cap;
};

struct rr_plot {
	struct rr_svg *svg;
	FILE *f;
	double y;		/* where the next block starts */
	int nr_policies, cur;
	struct policy_spans *spans;
};

static double block_height(const struct rr_input *in)
{
	return BLOCK_TITLE + BARS_H + NODE_H * in->trace->nr_nodes;
}

struct rr_plot *rr_plot_open(FILE *f, const char *title, const struct rr_input *inputs,
			     int nr_inputs, int nr_policies)
{
	struct rr_plot *p = calloc(1, sizeof(*p));
	double h = HEAD + 10;

	if (!p)
		return NULL;
	p->spans = calloc((size_t)nr_policies, sizeof(*p->spans));
	for (int i = 0; i < nr_inputs; i++)
		h += block_height(&inputs[i]);
	p->svg = p->spans ? rr_svg_begin(f, WIDTH, h, title) : NULL;
	if (!p->svg) {
		free(p->spans);
		free(p);
		return NULL;
	}
	p->f = f;
	p->nr_policies = nr_policies;
	p->y = HEAD;
	return p;
}

void rr_plot_policy_begin(struct rr_plot *p, int k)
{
	p->cur = k;
}

/* The episodes the stall figures count: completed direct, memcg, node reclaim. */
static int counts_as_stall(const struct rr_replay_span *s)
{
	return s->kind == RR_SPAN_EPISODE && !(s->flags & RR_SPAN_OPEN) &&
	       (s->ctx == RR_CTX_DIRECT || s->ctx == RR_CTX_MEMCG || s->ctx == RR_CTX_NODE);
}

int rr_plot_span(void *data, const struct rr_replay_span *s)
{
	struct rr_plot *p = data;
	struct policy_spans *ps;

	if (p->cur < 0 || p->cur >= p->nr_policies || !counts_as_stall(s))
		return 0;
	ps = &p->spans[p->cur];
	if (ps->n == ps->cap) {
		size_t ncap = ps->cap ? ps->cap * 2 : 256;
		struct stall_span *nv = realloc(ps->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		ps->v = nv;
		ps->cap = ncap;
	}
	ps->v[ps->n++] = (struct stall_span){ s->begin_ns, s->end_ns, s->nid };
	return 0;
}

static const char *policy_color(const struct rr_replay_result *r, int k)
{
	/* `recorded` is what happened: the reference line, in black. */
	if (!strcmp(r->policy, "recorded"))
		return "#000000";
	return rr_svg_color(k);
}

/*
 * Cumulative stall of one policy on node @nid at @n evenly spaced times
 * t0 + i * step: each episode adds (t - begin) while open, its whole
 * length after. With begins and ends sorted, that is
 * sum(t - b, b <= t) - sum(t - e, e <= t), one sweep over both.
 */
static int cumulative(const struct policy_spans *ps, int nid, uint64_t t0, double step_ns,
		      double *x, double *y, int n, uint64_t *total_ns)
{
	uint64_t *b, *e;
	size_t m = 0, ib = 0, ie = 0;
	double sb = 0, se = 0;

	*total_ns = 0;
	for (size_t i = 0; i < ps->n; i++)
		m += ps->v[i].nid == nid;
	b = malloc((m ? m : 1) * sizeof(*b));
	e = malloc((m ? m : 1) * sizeof(*e));
	if (!b || !e) {
		free(b);
		free(e);
		return -ENOMEM;
	}
	m = 0;
	for (size_t i = 0; i < ps->n; i++) {
		if (ps->v[i].nid != nid)
			continue;
		b[m] = ps->v[i].begin;
		e[m] = ps->v[i].end > ps->v[i].begin ? ps->v[i].end : ps->v[i].begin;
		*total_ns += e[m] - b[m];
		m++;
	}
	rr_sort_u64(b, m);
	rr_sort_u64(e, m);
	for (int i = 0; i < n; i++) {
		double t = (double)t0 + step_ns * i;

		/* The last point lies past every end: it is the exact total. */
		if (i == n - 1)
			t = INFINITY;
		while (ib < m && (double)b[ib] <= t)
			sb += (double)(b[ib++] - t0);
		while (ie < m && (double)e[ie] <= t)
			se += (double)(e[ie++] - t0);
		x[i] = step_ns * i / 1e9;
		y[i] = i == n - 1 ? (double)*total_ns / 1e6 :
		       ((double)ib * (t - (double)t0) - sb - ((double)ie * (t - (double)t0) - se)) /
		       1e6;
	}
	free(b);
	free(e);
	return 0;
}

static void bars(struct rr_plot *p, const struct rr_replay_result *res, int nr, double x,
		 double w, int wasted)
{
	int nodes = res[0].nr_nodes;
	const char **cats = calloc((size_t)nodes, sizeof(*cats));
	char (*names)[24] = calloc((size_t)nodes, sizeof(*names));
	double *v = calloc((size_t)nodes * (size_t)nr, sizeof(*v));
	struct rr_svg_style *st = calloc((size_t)nr, sizeof(*st));
	struct rr_svg_axis xa = { 0 }, ya = { .label = wasted ? "wasted scanning" : "stall time",
					      .unit = wasted ? "pages" : "ms" };
	struct rr_svg_plot pl;
	double ymax = 0, div = 1;

	if (!cats || !names || !v || !st)
		goto out;
	for (int n = 0; n < nodes; n++) {
		snprintf(names[n], sizeof(names[n]), "node %d", res[0].nodes[n].nid);
		cats[n] = names[n];
		for (int k = 0; k < nr; k++) {
			const struct rr_replay_node *rn = &res[k].nodes[n];
			double val = wasted ? (double)rn->wasted : (double)rn->stall_ns / 1e6;

			v[n * nr + k] = val;
			if (val > ymax)
				ymax = val;
		}
	}
	for (int k = 0; k < nr; k++)
		st[k].color = policy_color(&res[k], k);
	/* Stall summed over tasks reaches hours: seconds read better then. */
	if (!wasted && ymax >= 1e4) {
		div = 1e3;
		ya.unit = "s";
	}
	xa.categories = cats;
	xa.nr_categories = nodes;
	ya.min = 0;
	/* Room above the tallest bar for its value. */
	ya.max = ymax / div * 1.06;
	rr_svg_plot_begin(p->svg, &pl, &(struct rr_svg_rect){ x, p->y, w, BARS_H }, &xa, &ya,
			  wasted ? "Wasted scanning per node (scanned - reclaimed)" :
				   "Stall time per node (direct, memcg, node reclaim)");
	fprintf(p->f, "<g class=\"bars\" data-metric=\"%s\">\n", wasted ? "wasted" : "stall_ms");
	for (int n = 0; n < nodes; n++)
		for (int k = 0; k < nr; k++) {
			fprintf(p->f, "<desc class=\"bar-value\" data-node=\"%d\" data-policy=\"",
				res[0].nodes[n].nid);
			rr_svg_escape(p->f, res[k].policy);
			fprintf(p->f, "\" data-value=\"%.6f\"></desc>\n", v[n * nr + k]);
		}
	for (size_t i = 0; i < (size_t)nodes * (size_t)nr; i++)
		v[i] /= div;
	rr_svg_bars(p->svg, &pl, v, nr, st, 1, NULL);
	fputs("</g>\n", p->f);
out:
	free(cats);
	free(names);
	free(v);
	free(st);
}

/* The policies' colours once per input, right of its heading. */
static void legend_row(struct rr_plot *p, const struct rr_replay_result *res, int nr)
{
	struct rr_svg_style *st = calloc((size_t)nr, sizeof(*st));
	const char **labels = calloc((size_t)nr, sizeof(*labels));

	if (st && labels) {
		for (int k = 0; k < nr; k++) {
			st[k].color = policy_color(&res[k], k);
			labels[k] = res[k].policy;
		}
		rr_svg_legend_row(p->svg, WIDTH - 12, p->y + 42, labels, st, nr, 1);
	}
	free(st);
	free(labels);
}

static int node_curves(struct rr_plot *p, const struct rr_replay_result *res, int nr,
		       const struct rr_input *in, int n)
{
	int nid = res[0].nodes[n].nid, ret = 0;
	uint64_t t0 = in->model->first_ts, t1 = in->model->last_ts;
	double *x = malloc(SAMPLES * sizeof(*x)), *y = malloc((size_t)nr * SAMPLES * sizeof(*y));
	struct rr_svg_style *st = calloc((size_t)nr, sizeof(*st));
	const char **labels = calloc((size_t)nr, sizeof(*labels));
	struct rr_svg_axis xa = { .label = "time since the trace's first record", .unit = "s" };
	struct rr_svg_axis ya = { .label = "cumulative stall", .unit = "ms" };
	struct rr_svg_plot pl;
	double ymax = 0, div = 1;
	char title[96];
	uint64_t total;

	if (!x || !y || !st || !labels) {
		ret = -ENOMEM;
		goto out;
	}
	/* Replayed slices may end after the recording did (longer sleeps). */
	for (int k = 0; k < nr; k++)
		for (size_t i = 0; i < p->spans[k].n; i++)
			if (p->spans[k].v[i].nid == nid && p->spans[k].v[i].end > t1)
				t1 = p->spans[k].v[i].end;
	if (t1 <= t0)
		t1 = t0 + 1;
	xa.min = 0;
	xa.max = (double)(t1 - t0) / 1e9;
	for (int k = 0; k < nr && !ret; k++) {
		ret = cumulative(&p->spans[k], nid, t0, (double)(t1 - t0) / (SAMPLES - 1), x,
				 y + (size_t)k * SAMPLES, SAMPLES, &total);
		if (y[(size_t)k * SAMPLES + SAMPLES - 1] > ymax)
			ymax = y[(size_t)k * SAMPLES + SAMPLES - 1];
		st[k].color = policy_color(&res[k], k);
		st[k].width = !strcmp(res[k].policy, "recorded") ? 2.5 : 1.6;
		st[k].dashed = k > 0 && strcmp(res[k].policy, "recorded") && (k % 2 == 0);
		labels[k] = res[k].policy;
	}
	if (ret)
		goto out;
	if (ymax >= 1e4) {
		div = 1e3;
		ya.unit = "s";
	}
	ya.min = 0;
	ya.max = ymax / div;
	snprintf(title, sizeof(title), "Node %d: cumulative stall over time, recorded and replayed",
		 nid);
	rr_svg_plot_begin(p->svg, &pl, &(struct rr_svg_rect){ 0, p->y, WIDTH, NODE_H }, &xa, &ya,
			  title);
	for (int k = 0; k < nr; k++) {
		fprintf(p->f, "<g class=\"stall-curve\" data-node=\"%d\" data-policy=\"", nid);
		rr_svg_escape(p->f, res[k].policy);
		fprintf(p->f, "\" data-final-ms=\"%.6f\">\n", y[(size_t)k * SAMPLES + SAMPLES - 1]);
		for (int i = 0; i < SAMPLES; i++)
			y[(size_t)k * SAMPLES + i] /= div;
		rr_svg_line(p->svg, &pl, x, y + (size_t)k * SAMPLES, SAMPLES, &st[k]);
		fputs("</g>\n", p->f);
	}
	if (ymax <= 0)
		rr_svg_note(p->svg, &pl, "no completed stall episode on this node");
	rr_svg_legend(p->svg, &pl, labels, st, nr, 0);
out:
	free(x);
	free(y);
	free(st);
	free(labels);
	return ret;
}

int rr_plot_input(struct rr_plot *p, const struct rr_replay_result *res, int nr,
		  const struct rr_input *in)
{
	char buf[512];
	int ret = 0;

	fprintf(p->f, "<g class=\"input\" data-path=\"");
	rr_svg_escape(p->f, in->trace->path);
	fprintf(p->f, "\" data-nodes=\"%d\">\n", res[0].nr_nodes);
	snprintf(buf, sizeof(buf), "%s (%s node curves)", in->trace->path,
		 res[0].sampled ? "sampled" : "reconstructed");
	rr_svg_text(p->svg, 12, p->y + 20, "start", 14, buf);
	legend_row(p, res, nr);
	p->y += BLOCK_TITLE;
	bars(p, res, nr, 0, WIDTH / 2, 0);
	bars(p, res, nr, WIDTH / 2, WIDTH / 2, 1);
	p->y += BARS_H;
	for (int n = 0; n < res[0].nr_nodes && !ret; n++) {
		ret = node_curves(p, res, nr, in, n);
		p->y += NODE_H;
	}
	fputs("</g>\n", p->f);
	/* The next input's slices start from nothing. */
	for (int k = 0; k < p->nr_policies; k++)
		p->spans[k].n = 0;
	/* Results may have fewer nodes than the trace claimed: keep the layout. */
	p->y += NODE_H * (in->trace->nr_nodes - res[0].nr_nodes);
	return ret;
}

int rr_plot_close(struct rr_plot *p)
{
	int ret;

	if (!p)
		return 0;
	ret = rr_svg_end(p->svg);
	for (int k = 0; k < p->nr_policies; k++)
		free(p->spans[k].v);
	free(p->spans);
	free(p);
	return ret;
}
