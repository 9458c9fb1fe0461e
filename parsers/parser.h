/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal parser interface: each reader turns one recording into the
 * normalized struct rr_trace through the shared builder (trace_builder.h).
 */
#ifndef RR_PARSERS_PARSER_H
#define RR_PARSERS_PARSER_H

#include "reclaim_replay/event.h"

struct rr_parser {
	const char *name;
	/* 1 when the first bytes of the file look like this format */
	int (*probe)(const unsigned char *head, size_t len);
	/* fill @trace from @path; 0 or a negative RR_EXIT_* style error */
	int (*parse)(const char *path, struct rr_trace *trace);
};

extern const struct rr_parser rr_tracedat_parser;
extern const struct rr_parser rr_text_parser;

#endif
