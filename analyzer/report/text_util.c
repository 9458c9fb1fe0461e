// SPDX-License-Identifier: GPL-2.0
/* Headings and the per-input header of every table. */
#include <stdarg.h>
#include <string.h>

#include "report/text_util.h"

void rr_heading(FILE *out, int color, const char *fmt, ...)
{
	va_list ap;

	fputs(color ? "\n\033[1m" : "\n", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputs(color ? "\033[0m\n" : "\n", out);
}

void rr_print_input_header(FILE *out, const struct rr_input *in, int color)
{
	const struct rr_trace *t = in->trace;
	const struct rr_model *m = in->model;
	uint64_t lost = 0, gaps = 0, ignored_kinds = 0;

	for (int c = 0; c < t->nr_cpus; c++) {
		lost += t->lost_per_cpu[c];
		gaps += t->loss_marks_per_cpu[c];
	}
	for (size_t i = 0; i < t->nr_names; i++)
		ignored_kinds += !t->names[i].used;
	rr_heading(out, color, "%s", t->path);
	fprintf(out, "  %s, kernel %s, %d node%s, %d cpus, %.3f s, counter samples: %s\n",
		t->format ? t->format : "?", t->kernel[0] ? t->kernel : "unknown", t->nr_nodes,
		t->nr_nodes == 1 ? "" : "s", t->nr_cpus,
		(double)(m->last_ts - m->first_ts) / 1e9, t->nr_samples ? "yes" : "no");
	fprintf(out, "  records: %llu read, %llu used, %llu ignored (%llu event kinds), "
		"%llu undecodable; lost: ", (unsigned long long)t->records_read,
		(unsigned long long)t->records_used, (unsigned long long)t->records_ignored,
		(unsigned long long)ignored_kinds, (unsigned long long)t->records_undecodable);
	if (gaps)
		fprintf(out, "%llu events in %llu gaps\n", (unsigned long long)lost,
			(unsigned long long)gaps);
	else
		fprintf(out, "none\n");
}

void rr_print_wrapped(FILE *out, const char *lead, int indent, int width, const char *s)
{
	int col = (int)strlen(lead);

	fputs(lead, out);
	/* Word-wrap with a hanging indent; a word longer than a line stays whole. */
	while (*s) {
		int len = (int)strcspn(s, " ");

		if (col > indent && col + 1 + len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, s);
		col += len;
		s += len;
		while (*s == ' ')
			s++;
	}
	fputc('\n', out);
}

void rr_warnings_print_width(FILE *out, const struct rr_warnings *w, int width)
{
	if (width < 40)
		width = 40;
	if (!w->nr)
		return;
	fprintf(out, "\nwarnings:\n");
	for (size_t i = 0; i < w->nr; i++)
		rr_print_wrapped(out, "  -", 4, width, w->msg[i]);
}

void rr_warnings_print(FILE *out, const struct rr_warnings *w)
{
	/* Tables keep within 100 columns; so do the warnings under them. */
	rr_warnings_print_width(out, w, 100);
}
