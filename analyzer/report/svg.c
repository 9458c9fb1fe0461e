// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG chart writer (svg.h). Everything is written as it is drawn; the
 * only state is the stream, the document size and where the title ends.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

struct rr_svg {
	FILE *f;
	double width, height;
	double top;		/* below the document title */
};

#define FONT "font-family=\"DejaVu Sans,Verdana,Arial,sans-serif\""
#define GREY "#666666"

/* Okabe-Ito, without its yellow (too pale on white), then two darker extras. */
static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000", "#7F3C8D",
};

const char *rr_svg_color(int i)
{
	int n = (int)(sizeof(palette) / sizeof(palette[0]));

	return palette[((i % n) + n) % n];
}

/* Length of the valid UTF-8 sequence at @p, or 0 when it is not one. */
static int utf8_len(const unsigned char *p)
{
	int n;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0 && p[0] >= 0xc2)
		n = 2;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((p[0] & 0xf8) == 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void rr_svg_escape(FILE *f, const char *text)
{
	const unsigned char *p = (const unsigned char *)(text ? text : "");

	while (*p) {
		int n = utf8_len(p);

		/* Task names are bytes from the kernel: an invalid sequence would
		 * make the whole document unreadable, so it becomes '?'. */
		if (!n) {
			fputc('?', f);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters, even escaped. */
			if (*p >= 0x20 && *p != 0x7f)
				fputc(*p, f);
			else if (*p == '\t')
				fputc(' ', f);
		}
		p++;
	}
}

struct rr_svg *rr_svg_begin(FILE *f, double width, double height, const char *title)
{
	struct rr_svg *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->f = f;
	s->width = width;
	s->height = height;
	s->top = 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", width, height, width, height);
	if (title) {
		fputs("<title>", f);
		rr_svg_escape(f, title);
		fputs("</title>\n", f);
	}
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		width, height);
	if (title) {
		rr_svg_text(s, width / 2, 24, "middle", 16, title);
		s->top = 34;
	}
	return s;
}

int rr_svg_end(struct rr_svg *s)
{
	int ret;

	fputs("</svg>\n", s->f);
	ret = (fflush(s->f) || ferror(s->f)) ? -1 : 0;
	free(s);
	return ret;
}

double rr_svg_top(const struct rr_svg *s)
{
	return s->top;
}

void rr_svg_text(struct rr_svg *s, double x, double y, const char *anchor, double size,
		 const char *text)
{
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" " FONT
		">", x, y, anchor, size);
	rr_svg_escape(s->f, text);
	fputs("</text>\n", s->f);
}

void rr_svg_format_number(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a < 1e-12)
		snprintf(buf, len, "0");
	else if (a >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else if (a < 1e-3)
		snprintf(buf, len, "%.0e", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static int linear_ticks(double *min, double *max, int max_ticks, int keep, double *ticks)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double lo = *min, hi = *max, mag, step = 0;
	int n = 0;

	if (max_ticks < 2)
		max_ticks = 2;
	if (max_ticks > RR_SVG_MAX_TICKS)
		max_ticks = RR_SVG_MAX_TICKS;
	if (!(hi > lo)) {
		/* One value (often 0): show a unit range around it. */
		double pad = lo ? fabs(lo) / 2 : 1;

		lo = lo >= 0 && lo - pad < 0 ? 0 : lo - pad;
		hi = hi + pad;
		keep = 0;
	}
	mag = pow(10, floor(log10((hi - lo) / (max_ticks - 1))));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * mag;
		if (ceil(hi / step - 1e-9) - floor(lo / step + 1e-9) <= max_ticks - 1)
			break;
	}
	if (!keep) {
		lo = floor(lo / step + 1e-9) * step;
		hi = ceil(hi / step - 1e-9) * step;
	}
	for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 &&
	     n < RR_SVG_MAX_TICKS; t += step)
		ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	*min = lo;
	*max = hi;
	return n;
}

static int log_ticks(double *min, double *max, int max_ticks, int keep, double *ticks)
{
	double lo = *min, hi = *max;
	int dlo, dhi, every, n = 0;

	if (!(hi > 0))
		hi = 1;
	if (!(lo > 0) || lo >= hi)
		lo = hi / 1000;
	dlo = (int)floor(log10(lo) + 1e-9);
	dhi = (int)ceil(log10(hi) - 1e-9);
	if (dhi == dlo)
		dhi++;
	if (!keep) {
		lo = pow(10, dlo);
		hi = pow(10, dhi);
	}
	every = (dhi - dlo + max_ticks - 1) / (max_ticks > 1 ? max_ticks - 1 : 1);
	if (every < 1)
		every = 1;
	for (int d = dlo; d <= dhi && n < RR_SVG_MAX_TICKS; d += every) {
		static const double sub[] = { 1, 2, 5 };
		int nsub = dhi - dlo < 3 ? 3 : 1;

		for (int k = 0; k < nsub && n < RR_SVG_MAX_TICKS; k++) {
			double t = sub[k] * pow(10, d);

			if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9))
				ticks[n++] = t;
		}
	}
	*min = lo;
	*max = hi;
	return n;
}

int rr_svg_nice_ticks(double *min, double *max, enum rr_svg_scale scale, int max_ticks,
		      int keep, double *ticks)
{
	if (scale == RR_SVG_LOG)
		return log_ticks(min, max, max_ticks, keep, ticks);
	return linear_ticks(min, max, max_ticks, keep, ticks);
}

static double frac(const struct rr_svg_axis *a, double v)
{
	double f;

	if (a->nr_categories)
		return v / a->nr_categories;
	if (a->scale == RR_SVG_LOG) {
		if (!(v > a->min))
			return 0;
		f = (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	} else {
		f = a->max > a->min ? (v - a->min) / (a->max - a->min) : 0;
	}
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

double rr_svg_px(const struct rr_svg_plot *p, double x)
{
	return p->frame.x + frac(&p->x, x) * p->frame.w;
}

double rr_svg_py(const struct rr_svg_plot *p, double y)
{
	return p->frame.y + p->frame.h - frac(&p->y, y) * p->frame.h;
}

static void axis_title(char *buf, size_t len, const struct rr_svg_axis *a)
{
	if (a->label && a->unit)
		snprintf(buf, len, "%s (%s)", a->label, a->unit);
	else
		snprintf(buf, len, "%s", a->label ? a->label : (a->unit ? a->unit : ""));
}

void rr_svg_plot_begin(struct rr_svg *s, struct rr_svg_plot *p, const struct rr_svg_rect *area,
		       const struct rr_svg_axis *xa, const struct rr_svg_axis *ya,
		       const char *title)
{
	FILE *f = s->f;
	char buf[160];
	double top = title ? 26 : 10, bottom = xa->nr_categories ? 58 : 46;

	memset(p, 0, sizeof(*p));
	p->outer = *area;
	p->x = *xa;
	p->y = *ya;
	p->frame.x = area->x + 72;
	p->frame.y = area->y + top;
	p->frame.w = area->w - 72 - 16;
	p->frame.h = area->h - top - bottom;
	if (!xa->nr_categories)
		p->nr_xticks = rr_svg_nice_ticks(&p->x.min, &p->x.max, p->x.scale,
						 p->frame.w > 500 ? 11 : 6, p->x.no_nice,
						 p->xticks);
	p->nr_yticks = rr_svg_nice_ticks(&p->y.min, &p->y.max, p->y.scale,
					 p->frame.h > 250 ? 8 : 5, p->y.no_nice, p->yticks);

	fprintf(f, "<g class=\"plot\">\n");
	if (title)
		rr_svg_text(s, p->frame.x + p->frame.w / 2, area->y + 17, "middle", 13, title);
	fprintf(f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#fafafa\" stroke=\"#333333\" stroke-width=\"1\"/>\n",
		p->frame.x, p->frame.y, p->frame.w, p->frame.h);
	/* y grid, ticks and labels */
	for (int i = 0; i < p->nr_yticks; i++) {
		double y = rr_svg_py(p, p->yticks[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\" "
			"stroke-width=\"1\"/>\n", p->frame.x, y, p->frame.x + p->frame.w, y);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
			"stroke-width=\"1\"/>\n", p->frame.x - 4, y, p->frame.x, y);
		rr_svg_format_number(p->yticks[i], buf, sizeof(buf));
		rr_svg_text(s, p->frame.x - 7, y + 4, "end", 11, buf);
	}
	/* x ticks: numeric or one label per category */
	for (int i = 0; i < p->nr_xticks; i++) {
		double x = rr_svg_px(p, p->xticks[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\" "
			"stroke-width=\"1\"/>\n", x, p->frame.y, x, p->frame.y + p->frame.h);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
			"stroke-width=\"1\"/>\n", x, p->frame.y + p->frame.h, x,
			p->frame.y + p->frame.h + 4);
		rr_svg_format_number(p->xticks[i], buf, sizeof(buf));
		rr_svg_text(s, x, p->frame.y + p->frame.h + 17, "middle", 11, buf);
	}
	for (int i = 0; i < xa->nr_categories; i++)
		rr_svg_text(s, rr_svg_px(p, i + 0.5), p->frame.y + p->frame.h + 17, "middle", 12,
			    xa->categories[i]);
	axis_title(buf, sizeof(buf), xa);
	if (*buf)
		rr_svg_text(s, p->frame.x + p->frame.w / 2, area->y + area->h - 8, "middle", 12,
			    buf);
	axis_title(buf, sizeof(buf), ya);
	if (*buf) {
		double x = area->x + 16, y = p->frame.y + p->frame.h / 2;

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
			FONT " transform=\"rotate(-90 %.1f %.1f)\">", x, y, x, y);
		rr_svg_escape(f, buf);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

static void stroke_attrs(FILE *f, const struct rr_svg_style *st)
{
	fprintf(f, "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-linejoin=\"round\"%s",
		st && st->color ? st->color : "#000000", st && st->width > 0 ? st->width : 1.5,
		st && st->dashed ? " stroke-dasharray=\"6 3\"" : "");
}

/* Write polyline points, starting a new <polyline> at each NaN. */
static void polyline(struct rr_svg *s, const struct rr_svg_plot *p, const double *x,
		     const double *y, size_t n, const struct rr_svg_style *st, int step)
{
	FILE *f = s->f;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		double px, py;

		if (isnan(x[i]) || isnan(y[i])) {
			if (open)
				fputs("\"/>\n", f);
			open = 0;
			continue;
		}
		px = rr_svg_px(p, x[i]);
		py = rr_svg_py(p, y[i]);
		if (!open) {
			fputs("<polyline ", f);
			stroke_attrs(f, st);
			fprintf(f, " points=\"%.1f,%.1f", px, py);
			open = 1;
			continue;
		}
		/* A step holds the previous value until this x, then jumps. */
		if (step)
			fprintf(f, " %.1f,%.1f", px, rr_svg_py(p, y[i - 1]));
		fprintf(f, " %.1f,%.1f", px, py);
	}
	if (open)
		fputs("\"/>\n", f);
}

void rr_svg_line(struct rr_svg *s, const struct rr_svg_plot *p, const double *x, const double *y,
		 size_t n, const struct rr_svg_style *st)
{
	polyline(s, p, x, y, n, st, 0);
}

void rr_svg_step(struct rr_svg *s, const struct rr_svg_plot *p, const double *x, const double *y,
		 size_t n, const struct rr_svg_style *st)
{
	polyline(s, p, x, y, n, st, 1);
}

static void marker(FILE *f, double x, double y, const struct rr_svg_style *st)
{
	const char *c = st && st->color ? st->color : "#000000";
	double r = st && st->marker_size > 0 ? st->marker_size : 4;

	switch (st ? st->marker : RR_SVG_MARK_CIRCLE) {
	case RR_SVG_MARK_NONE:
		break;
	case RR_SVG_MARK_SQUARE:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			x - r, y - r, 2 * r, 2 * r, c);
		break;
	case RR_SVG_MARK_TRIANGLE:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
			x, y - r * 1.2, x - r * 1.1, y + r * 0.8, x + r * 1.1, y + r * 0.8, c);
		break;
	case RR_SVG_MARK_DIAMOND:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
			"fill=\"%s\"/>\n", x, y - r * 1.3, x + r, y, x, y + r * 1.3, x - r, y, c);
		break;
	case RR_SVG_MARK_CROSS:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n", x - r, y - r, x + r, y + r, x - r, y + r, x + r,
			y - r, c);
		break;
	case RR_SVG_MARK_CIRCLE:
	default:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x, y, r, c);
	}
}

void rr_svg_scatter(struct rr_svg *s, const struct rr_svg_plot *p, const double *x,
		    const double *y, const char *const *labels, size_t n,
		    const struct rr_svg_style *st)
{
	struct rr_svg_style def = { .marker = RR_SVG_MARK_CIRCLE };

	if (st && st->marker == RR_SVG_MARK_NONE) {
		def = *st;
		def.marker = RR_SVG_MARK_CIRCLE;
		st = &def;
	}
	for (size_t i = 0; i < n; i++) {
		double px, py;

		if (isnan(x[i]) || isnan(y[i]))
			continue;
		px = rr_svg_px(p, x[i]);
		py = rr_svg_py(p, y[i]);
		marker(s->f, px, py, st ? st : &def);
		if (labels && labels[i])
			rr_svg_text(s, px + 7, py - 6, "start", 10, labels[i]);
	}
}

void rr_svg_bars(struct rr_svg *s, const struct rr_svg_plot *p, const double *values,
		 int nr_series, const struct rr_svg_style *styles, int show_values,
		 const char *unit)
{
	double slot = p->frame.w / (p->x.nr_categories ? p->x.nr_categories : 1);
	double bw = slot * 0.8 / (nr_series ? nr_series : 1);
	double base = rr_svg_py(p, p->y.scale == RR_SVG_LOG ? p->y.min : 0);
	char buf[64], lab[80];

	for (int c = 0; c < p->x.nr_categories; c++) {
		for (int k = 0; k < nr_series; k++) {
			double v = values[c * nr_series + k];
			double x = p->frame.x + c * slot + slot * 0.1 + k * bw;
			double y = rr_svg_py(p, v);

			if (isnan(v))
				continue;
			fprintf(s->f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>\n",
				x, y < base ? y : base, bw, fabs(base - y),
				styles[k].color ? styles[k].color : rr_svg_color(k));
			if (!show_values)
				continue;
			rr_svg_format_number(v, buf, sizeof(buf));
			snprintf(lab, sizeof(lab), "%s%s%s", buf, unit ? " " : "", unit ? unit : "");
			/* Narrow bars: the value would overlap its neighbours'. */
			if (bw >= 7.0 * (double)strlen(lab) * 0.9)
				rr_svg_text(s, x + bw / 2, y - 3, "middle", 10, lab);
			else if (bw >= 11)
				fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" "
					"font-size=\"10\" " FONT " transform=\"rotate(-90 %.1f %.1f)\">"
					"%s</text>\n", x + bw / 2 + 3, y - 3, x + bw / 2 + 3, y - 3,
					buf);
		}
	}
}

void rr_svg_legend(struct rr_svg *s, struct rr_svg_plot *p, const char *const *names,
		   const struct rr_svg_style *styles, int n, int bars)
{
	FILE *f = s->f;
	size_t longest = 0;
	double x = p->frame.x + 8, y = p->frame.y + 8 + p->legend_rows * 16, w;

	for (int i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) > longest)
			longest = strlen(names[i]);
	w = 34 + 6.6 * (double)longest;
	fprintf(f, "<g class=\"legend\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#bbbbbb\"/>\n",
		x, y, w, 16.0 * n + 6);
	for (int i = 0; i < n; i++) {
		double cy = y + 11 + 16.0 * i;

		if (bars) {
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" "
				"fill=\"%s\"/>\n", x + 5, cy - 5,
				styles[i].color ? styles[i].color : rr_svg_color(i));
		} else if (styles[i].marker != RR_SVG_MARK_NONE) {
			marker(f, x + 14, cy, &styles[i]);
		} else {
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ",
				x + 5, cy, x + 23, cy);
			stroke_attrs(f, &styles[i]);
			fputs("/>\n", f);
		}
		rr_svg_text(s, x + 29, cy + 4, "start", 11, names[i] ? names[i] : "");
	}
	fputs("</g>\n", f);
	p->legend_rows += n + 1;
}

void rr_svg_legend_row(struct rr_svg *s, double right, double y, const char *const *names,
		       const struct rr_svg_style *styles, int n, int bars)
{
	double w = 0, x;

	for (int i = 0; i < n; i++)
		w += 30 + 6.6 * (double)strlen(names[i] ? names[i] : "");
	x = right - w;
	fputs("<g class=\"legend\">\n", s->f);
	for (int i = 0; i < n; i++) {
		double cy = y - 4;

		if (bars) {
			fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" "
				"fill=\"%s\"/>\n", x, cy - 5,
				styles[i].color ? styles[i].color : rr_svg_color(i));
		} else if (styles[i].marker != RR_SVG_MARK_NONE) {
			marker(s->f, x + 9, cy, &styles[i]);
		} else {
			fprintf(s->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ",
				x, cy, x + 18, cy);
			stroke_attrs(s->f, &styles[i]);
			fputs("/>\n", s->f);
		}
		rr_svg_text(s, x + 23, y, "start", 11, names[i] ? names[i] : "");
		x += 30 + 6.6 * (double)strlen(names[i] ? names[i] : "");
	}
	fputs("</g>\n", s->f);
}

void rr_svg_note(struct rr_svg *s, const struct rr_svg_plot *p, const char *text)
{
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
		"fill=\"" GREY "\" " FONT ">", p->frame.x + p->frame.w / 2,
		p->frame.y + p->frame.h / 2);
	rr_svg_escape(s->f, text);
	fputs("</text>\n", s->f);
}
