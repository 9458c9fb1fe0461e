/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small SVG chart writer of our own (no libraries): a document, plot areas
 * with linear or log axes and nice ticks, line, step and scatter series,
 * grouped bars, legends and titles. All text goes through XML escaping.
 *
 * Usage:
 *	struct rr_svg *s = rr_svg_begin(f, 900, 500, "title");
 *	struct rr_svg_axis xa = { .min = 0, .max = 12.5, .label = "time", .unit = "s" };
 *	struct rr_svg_axis ya = { .min = 0, .max = 300, .label = "stall", .unit = "ms" };
 *	struct rr_svg_plot p;
 *	rr_svg_plot_begin(s, &p, &(struct rr_svg_rect){ 0, 0, 900, 500 }, &xa, &ya, "Node 0");
 *	rr_svg_line(s, &p, xs, ys, n, &(struct rr_svg_style){ .color = rr_svg_color(0) });
 *	rr_svg_legend(s, &p, names, styles, nr);
 *	return rr_svg_end(s);	// 0, or -1 when a write failed
 *
 * Coordinates given to series are data values; the plot maps them into its
 * frame. Values outside the axis range are clamped to the frame's edge, and
 * on a log axis values <= 0 sit on the axis minimum. NaN points are skipped
 * (they break a line in two).
 */
#ifndef RR_REPORT_SVG_H
#define RR_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

struct rr_svg;

/* A rectangle in pixels, origin top left. */
struct rr_svg_rect {
	double x, y, w, h;
};

enum rr_svg_scale {
	RR_SVG_LINEAR,
	RR_SVG_LOG,		/* base 10; min must be > 0 (rr_svg_axis_fit makes it so) */
};

#define RR_SVG_MAX_TICKS 24

struct rr_svg_axis {
	double min, max;	/* data range; rr_svg_plot_begin widens it to nice ticks */
	enum rr_svg_scale scale;
	const char *label;	/* "stall", may be NULL */
	const char *unit;	/* "ms", shown as "stall (ms)"; may be NULL */
	/* Categorical axis (grouped bars): category names, one slot each; the
	 * numeric range is then ignored and slot i spans [i, i + 1). */
	const char *const *categories;
	int nr_categories;
	int no_nice;		/* keep min/max exactly, ticks inside them */
};

/* A plot area: the frame its axes and series are drawn in (filled by begin). */
struct rr_svg_plot {
	struct rr_svg_rect outer;	/* what was given, title and labels included */
	struct rr_svg_rect frame;	/* the data area */
	struct rr_svg_axis x, y;	/* ranges after widening to nice ticks */
	double xticks[RR_SVG_MAX_TICKS], yticks[RR_SVG_MAX_TICKS];
	int nr_xticks, nr_yticks;
	int legend_rows;		/* legends placed so far (they stack) */
};

enum rr_svg_marker {
	RR_SVG_MARK_NONE,
	RR_SVG_MARK_CIRCLE,
	RR_SVG_MARK_SQUARE,
	RR_SVG_MARK_TRIANGLE,
	RR_SVG_MARK_DIAMOND,
	RR_SVG_MARK_CROSS,
};

struct rr_svg_style {
	const char *color;	/* any SVG colour; NULL: black */
	double width;		/* stroke width in px; 0: 1.5 */
	int dashed;
	enum rr_svg_marker marker;	/* scatter, legend; lines draw none */
	double marker_size;	/* px; 0: 4 */
};

/* A fixed colour-blind-safe palette, cycled: rr_svg_color(i) for series i. */
const char *rr_svg_color(int i);

/* Start a document of @width x @height px on @f; @title may be NULL (else a
 * <title> element and a heading across the top). NULL on out of memory. */
struct rr_svg *rr_svg_begin(FILE *f, double width, double height, const char *title);
/* Close the document and free @s. Returns 0, or -1 when a write failed. */
int rr_svg_end(struct rr_svg *s);
/* Pixels below the document title where content may start. */
double rr_svg_top(const struct rr_svg *s);

/* Write @text with &, <, >, " and ' escaped; control characters dropped. */
void rr_svg_escape(FILE *f, const char *text);

/*
 * rr_svg_nice_ticks - round tick values covering [*min, *max]
 * Linear: steps of 1, 2, 2.5 or 5 x 10^k, at most @max_ticks of them, and
 * *min / *max widened to the outer ticks (unless @keep). Log: the decades,
 * with 2 and 5 between them when the range spans under three decades.
 * Returns the number of ticks written to @ticks (at most RR_SVG_MAX_TICKS).
 */
int rr_svg_nice_ticks(double *min, double *max, enum rr_svg_scale scale, int max_ticks,
		      int keep, double *ticks);
/* A tick label: "0", "2.5", "120", "15k", "1.2M", "1e-03"... */
void rr_svg_format_number(double v, char *buf, size_t len);

/*
 * rr_svg_plot_begin - lay out a plot in @area: title, frame, grid, ticks,
 * tick labels and axis labels ("label (unit)"). @xa / @ya are copied and
 * widened to nice ticks. @title may be NULL.
 */
void rr_svg_plot_begin(struct rr_svg *s, struct rr_svg_plot *p, const struct rr_svg_rect *area,
		       const struct rr_svg_axis *xa, const struct rr_svg_axis *ya,
		       const char *title);
/* Data value to pixel. */
double rr_svg_px(const struct rr_svg_plot *p, double x);
double rr_svg_py(const struct rr_svg_plot *p, double y);

/* A polyline through (@x[i], @y[i]). */
void rr_svg_line(struct rr_svg *s, const struct rr_svg_plot *p, const double *x, const double *y,
		 size_t n, const struct rr_svg_style *st);
/* A step line: y[i] holds from x[i] until x[i + 1], then jumps. */
void rr_svg_step(struct rr_svg *s, const struct rr_svg_plot *p, const double *x, const double *y,
		 size_t n, const struct rr_svg_style *st);
/* Markers at (@x[i], @y[i]), each with its label (@labels may be NULL, or
 * hold NULL entries) written beside it. */
void rr_svg_scatter(struct rr_svg *s, const struct rr_svg_plot *p, const double *x,
		    const double *y, const char *const *labels, size_t n,
		    const struct rr_svg_style *st);

/*
 * rr_svg_bars - grouped bars on a plot whose x axis is categorical
 * @values: @nr_series values per category, values[cat * nr_series + series]
 * @styles: one per series (the colour fills the bar)
 * @show_values: write each bar's value above it, formatted with @unit
 */
void rr_svg_bars(struct rr_svg *s, const struct rr_svg_plot *p, const double *values,
		 int nr_series, const struct rr_svg_style *styles, int show_values,
		 const char *unit);

/* A legend box in the frame's top-left corner: a swatch (line, marker or
 * bar) and the name of each series. */
void rr_svg_legend(struct rr_svg *s, struct rr_svg_plot *p, const char *const *names,
		   const struct rr_svg_style *styles, int n, int bars);

/* The same on one row, without a box, its names' baseline at @y px, ending
 * about at @right px (the width is estimated from the names' length): for
 * a heading shared by several plots. */
void rr_svg_legend_row(struct rr_svg *s, double right, double y, const char *const *names,
		       const struct rr_svg_style *styles, int n, int bars);

/* Free text at (@x, @y) px; @anchor "start", "middle" or "end"; @size px. */
void rr_svg_text(struct rr_svg *s, double x, double y, const char *anchor, double size,
		 const char *text);
/* A note across the middle of the frame, in grey (e.g. "no episodes"). */
void rr_svg_note(struct rr_svg *s, const struct rr_svg_plot *p, const char *text);

#endif
