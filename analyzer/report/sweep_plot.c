// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's trade-off plot (--plot FILE.svg): every point's total stall
 * against its wasted scanning, the Pareto front as a line, mainline and the
 * recommendation marked. Drawn with the chart API of report/svg.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/svg.h"
#include "report/sweep_report.h"

#define W 900.0
#define H 560.0

static void range(const double *v, uint32_t n, double *lo, double *hi)
{
	*lo = *hi = n ? v[0] : 0;
	for (uint32_t i = 1; i < n; i++) {
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
	/* a flat figure still needs an axis: widen it around the value */
	if (*hi <= *lo) {
		*lo = *lo > 1 ? *lo * 0.9 : 0;
		*hi = *hi > 1 ? *hi * 1.1 : 1;
	}
}

static int draw(FILE *f, const struct rr_sweep_data *d, const struct rr_sweep_analysis *a)
{
	uint32_t n = d->nr_points, r = a->recommended;
	double *x = calloc(n, sizeof(*x)), *y = calloc(n, sizeof(*y));
	double *fx = calloc(n, sizeof(*fx)), *fy = calloc(n, sizeof(*fy));
	struct rr_svg_axis xa = { .label = "wasted scanning", .unit = "pages" };
	struct rr_svg_axis ya = { .label = "stall, summed over traces and nodes", .unit = "ms" };
	const struct rr_svg_style st[4] = {
		{ .color = "#999999", .marker = RR_SVG_MARK_CIRCLE, .marker_size = 3 },
		{ .color = rr_svg_color(0), .width = 1.5 },
		{ .color = rr_svg_color(1), .marker = RR_SVG_MARK_SQUARE, .marker_size = 6 },
		{ .color = rr_svg_color(2), .marker = RR_SVG_MARK_DIAMOND, .marker_size = 7 },
	};
	const char *names[4] = { "points", "Pareto front", "mainline", "recommended" };
	char title[160], rlabel[32];
	const char *lab[1];
	struct rr_svg_plot p;
	struct rr_svg *s;
	int ret = -1;

	if (!x || !y || !fx || !fy)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		x[i] = (double)a->total[i].wasted;
		y[i] = (double)a->total[i].stall_ns / 1e6;
	}
	/* the front runs by stall ascending, so waste descending: a clean line */
	for (uint32_t i = 0; i < a->nr_front; i++) {
		fx[i] = x[a->front[i]];
		fy[i] = y[a->front[i]];
	}
	range(x, n, &xa.min, &xa.max);
	range(y, n, &ya.min, &ya.max);
	snprintf(title, sizeof(title), "sweep: stall against wasted scanning, %u points + "
		 "mainline, %d trace%s", n - 1, d->nr_traces, d->nr_traces == 1 ? "" : "s");
	s = rr_svg_begin(f, W, H, title);
	if (!s)
		goto out;
	rr_svg_plot_begin(s, &p, &(struct rr_svg_rect){ 0, rr_svg_top(s), W, H - rr_svg_top(s) },
			  &xa, &ya, a->obj.name);
	rr_svg_scatter(s, &p, x + 1, y + 1, NULL, n - 1, &st[0]);
	rr_svg_line(s, &p, fx, fy, a->nr_front, &st[1]);
	lab[0] = "mainline";
	rr_svg_scatter(s, &p, x, y, lab, 1, &st[2]);
	snprintf(rlabel, sizeof(rlabel), "recommended (%u)", r);
	lab[0] = rlabel;
	if (r)
		rr_svg_scatter(s, &p, x + r, y + r, lab, 1, &st[3]);
	rr_svg_legend(s, &p, names, st, r ? 4 : 3, 0);
	ret = rr_svg_end(s);
out:
	free(x);
	free(y);
	free(fx);
	free(fy);
	return ret;
}

int rr_sweep_write_svg(const char *path, const struct rr_sweep_data *d,
		       const struct rr_sweep_analysis *a)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = draw(f, d, a);
	if (fclose(f))
		ret = -1;
	return ret;
}
