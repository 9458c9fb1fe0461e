// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the SVG chart writer (analyzer/report/svg.h): nice ticks on
 * linear and log axes, tick labels, XML escaping of hostile text, data to
 * pixel mapping, and a write error reported by rr_svg_end(). TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"

#include "tap.h"

static int ticks_are(const double *t, int n, const double *want, int nw)
{
	if (n != nw)
		return 0;
	for (int i = 0; i < n; i++)
		if (fabs(t[i] - want[i]) > 1e-9 * (fabs(want[i]) + 1))
			return 0;
	return 1;
}

static void test_ticks(void)
{
	double t[RR_SVG_MAX_TICKS], lo, hi;
	int n;

	lo = 0, hi = 7.3;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 9, 0, t);
	check(ticks_are(t, n, (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8 }, 9) && hi == 8,
	      "linear 0..7.3, 9 ticks: 0..8 by 1, max widened to 8");
	lo = 0, hi = 1;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 6, 0, t);
	check(ticks_are(t, n, (double[]){ 0, 0.2, 0.4, 0.6, 0.8, 1 }, 6), "linear 0..1: by 0.2");
	lo = 0, hi = 1991.2;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 8, 0, t);
	check(ticks_are(t, n, (double[]){ 0, 500, 1000, 1500, 2000 }, 5) && hi == 2000,
	      "linear 0..1991.2: by 500 up to 2000");
	lo = 0, hi = 25;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 6, 0, t);
	check(ticks_are(t, n, (double[]){ 0, 5, 10, 15, 20, 25 }, 6), "linear 0..25: by 5");
	lo = -3, hi = 3;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 7, 0, t);
	check(ticks_are(t, n, (double[]){ -3, -2, -1, 0, 1, 2, 3 }, 7), "linear -3..3 crosses 0");
	lo = 0, hi = 0;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 6, 0, t);
	check(n >= 2 && lo == 0 && hi > 0, "linear, one value 0: a positive range from 0");
	lo = 0.5, hi = 9.5;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LINEAR, 10, 1, t);
	check(lo == 0.5 && hi == 9.5 && t[0] >= 0.5 && t[n - 1] <= 9.5,
	      "linear, keep: the range stays, ticks inside it");
	lo = 3, hi = 4500;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LOG, 8, 0, t);
	check(ticks_are(t, n, (double[]){ 1, 10, 100, 1000, 10000 }, 5) && lo == 1 && hi == 10000,
	      "log 3..4500: the decades 1..10^4");
	lo = 2, hi = 90;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LOG, 8, 0, t);
	check(ticks_are(t, n, (double[]){ 1, 2, 5, 10, 20, 50, 100 }, 7),
	      "log 2..90: 1-2-5 within two decades");
	lo = 0, hi = 50;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LOG, 8, 0, t);
	check(lo > 0 && n > 0, "log with min 0: a positive minimum");
	lo = 1e-6, hi = 1e12;
	n = rr_svg_nice_ticks(&lo, &hi, RR_SVG_LOG, 8, 0, t);
	check(n <= 8 && n >= 2, "log over 18 decades: at most 8 ticks");
}

static void test_format(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0, "0" }, { 2.5, "2.5" }, { 120, "120" }, { 1991.2, "1991" }, { 15000, "15k" },
		{ 1.2e6, "1.2M" }, { 3e9, "3G" }, { 0.0001, "1e-04" }, { -2500, "-2500" },
		{ 1e-17, "0" },
	};
	char buf[32], what[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rr_svg_format_number(cases[i].v, buf, sizeof(buf));
		snprintf(what, sizeof(what), "format %g -> \"%s\" (got \"%s\")", cases[i].v,
			 cases[i].want, buf);
		check(!strcmp(buf, cases[i].want), what);
	}
}

static char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return buf;
}

static void escape_fn(FILE *f, const void *arg)
{
	rr_svg_escape(f, arg);
}

static void test_escape(void)
{
	char *s = capture(escape_fn, "a&b<c>\"d'e\x01\tf\xff\xc3\xa9");

	check(s && !strcmp(s, "a&amp;b&lt;c&gt;&quot;d&apos;e f?\xc3\xa9"),
	      "escape: & < > \" ' escaped, control dropped, tab a space, bad UTF-8 '?', good kept");
	free(s);
	s = capture(escape_fn, "\xe2\x82");
	check(s && !strcmp(s, "??"), "escape: a truncated UTF-8 sequence becomes '?'s");
	free(s);
}

static void doc_fn(FILE *f, const void *arg)
{
	struct rr_svg *s = rr_svg_begin(f, 400, 300, arg);
	struct rr_svg_axis xa = { .min = 0, .max = 10, .label = "x", .unit = "s" };
	struct rr_svg_axis ya = { .min = 1, .max = 100, .scale = RR_SVG_LOG, .label = "y<" };
	struct rr_svg_plot p;
	double x[] = { 0, 5, 10 }, y[] = { 1, 10, 100 };
	const char *names[] = { "a&b" };
	struct rr_svg_style st = { .color = rr_svg_color(0), .marker = RR_SVG_MARK_DIAMOND };

	rr_svg_plot_begin(s, &p, &(struct rr_svg_rect){ 0, rr_svg_top(s), 400, 260 }, &xa, &ya,
			  "plot & title");
	rr_svg_line(s, &p, x, y, 3, &st);
	rr_svg_scatter(s, &p, x, y, names, 1, &st);
	rr_svg_legend(s, &p, names, &st, 1, 0);
	check(fabs(rr_svg_px(&p, 0) - p.frame.x) < 1e-9 &&
	      fabs(rr_svg_px(&p, 10) - (p.frame.x + p.frame.w)) < 1e-9,
	      "px maps the x range onto the frame");
	check(fabs(rr_svg_py(&p, 10) - (p.frame.y + p.frame.h / 2)) < 1e-9,
	      "log y: 10 lies halfway between 1 and 100");
	check(rr_svg_py(&p, 0) == p.frame.y + p.frame.h,
	      "log y: 0 sits on the axis minimum");
	check(rr_svg_px(&p, 1e9) == p.frame.x + p.frame.w, "values past the range clamp to the edge");
	check(rr_svg_end(s) == 0, "rr_svg_end: 0 when everything was written");
}

static void test_document(void)
{
	char *s = capture(doc_fn, "t<i>tle");
	size_t n = s ? strlen(s) : 0;

	check(s && !strncmp(s, "<?xml", 5) && n > 7 && !strcmp(s + n - 7, "</svg>\n"),
	      "document: XML declaration first, </svg> last");
	check(s && strstr(s, "<title>t&lt;i&gt;tle</title>") && strstr(s, "plot &amp; title") &&
	      strstr(s, "y&lt;") && !strstr(s, "a&b"), "document: every text is escaped");
	check(s && strstr(s, "x (s)"), "document: the axis label carries its unit");
	free(s);
}

static void test_write_error(void)
{
	FILE *f = fopen("/dev/full", "w");
	struct rr_svg *s;

	if (!f) {
		skip("write error", "no /dev/full");
		return;
	}
	s = rr_svg_begin(f, 100, 100, "x");
	check(s && rr_svg_end(s) == -1, "rr_svg_end: -1 when the stream failed (/dev/full)");
	fclose(f);
}

int main(void)
{
	test_ticks();
	test_format();
	test_escape();
	test_document();
	test_write_error();
	return tap_done();
}
