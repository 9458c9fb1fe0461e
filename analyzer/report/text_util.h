/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the table writers. */
#ifndef RR_REPORT_TEXT_UTIL_H
#define RR_REPORT_TEXT_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "reclaim_replay/report.h"

static inline double rr_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void rr_heading(FILE *out, int color, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The lines that say which file this is and what was read, lost and ignored. */
void rr_print_input_header(FILE *out, const struct rr_input *in, int color);
/*
 * @lead, then the words of @text word-wrapped at @width columns, later
 * lines indented by @indent; ends with a newline.
 */
void rr_print_wrapped(FILE *out, const char *lead, int indent, int width, const char *text);

#endif
