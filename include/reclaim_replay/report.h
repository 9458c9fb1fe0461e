/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Report writers. A command fills its result structs, then calls exactly one
 * writer per output format; the JSON and the table come from the same data.
 */
#ifndef RECLAIM_REPLAY_REPORT_H
#define RECLAIM_REPLAY_REPORT_H

#include <stdio.h>
#include <jansson.h>

#include "reclaim_replay/event.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/stats.h"

#define RR_SCHEMA_VERSION 1

/* One analyzed input, as every command's report describes it. */
struct rr_input {
	const struct rr_trace *trace;
	const struct rr_model *model;
};

/* Warnings collected while analyzing; rendered by both writers. */
struct rr_warnings {
	char **msg;
	size_t nr, cap;
};

int rr_warnings_add(struct rr_warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rr_warnings_release(struct rr_warnings *w);
/* Everything a reader should know about what the recording lacked. */
int rr_warnings_for_input(struct rr_warnings *w, const struct rr_input *in);

/* The common top level: schema_version, tool, command, inputs, warnings. */
json_t *rr_json_report_new(const char *command, const struct rr_input *inputs, int nr_inputs,
			   const struct rr_warnings *w);
json_t *rr_json_input(const struct rr_input *in);
/* Dump with sorted keys, then check the stream; 0 or -1. */
int rr_json_print(json_t *doc, FILE *out, int pretty);

json_t *rr_stats_json(const struct rr_stats *s, const struct rr_input *in);
void rr_stats_print_table(FILE *out, const struct rr_stats *s, const struct rr_input *in,
			  int color);
void rr_warnings_print(FILE *out, const struct rr_warnings *w);
/* The same, word-wrapped at @width columns (at least 40). */
void rr_warnings_print_width(FILE *out, const struct rr_warnings *w, int width);

struct rr_replay_result;
struct rr_validation;

/* @results[0] is the `recorded` baseline; the others are compared to it. */
json_t *rr_replay_json(const struct rr_replay_result *results, int nr, const struct rr_input *in);
void rr_replay_print_table(FILE *out, const struct rr_replay_result *results, int nr,
			   const struct rr_input *in, int color);
json_t *rr_validation_json(const struct rr_validation *v, const struct rr_input *in);
void rr_validation_print(FILE *out, const struct rr_validation *v, const struct rr_input *in,
			 int color);

#endif
