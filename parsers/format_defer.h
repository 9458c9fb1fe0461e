/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event formats parsed when first needed. A trace.dat carries the format of
 * every event the kernel has (about 2 000 on the traces of ../shared), and
 * libtracecmd parses each of them with tep_parse_event() while it opens the
 * file, for every reading thread's own open; a trace's records use a few
 * dozen. While a table is armed on a thread (around the reader's opens),
 * the format guard's tep_parse_event() (format_guard.c) hands each format
 * that passed its check to rr_format_defer_offer(), which keeps a copy
 * instead of parsing it; the reading thread parses a kept format with
 * rr_format_defer_parse() when the first record of its id arrives. Records
 * of an id that has no format are found as before: tep_find_event() fails,
 * and so does the table.
 *
 * The outcome is the one of parsing at open: the same text goes to the same
 * libtraceevent parser on the same handle; formats with a damaged id line,
 * a repeated id, and the ftrace system's (libtracecmd itself looks some of
 * them up) are parsed at once, in file order. libtraceevent's tokenizer
 * keeps its state in static variables, so every parse goes through
 * rr_format_parse() (format_guard.c), which serializes them.
 */
#ifndef RR_PARSERS_FORMAT_DEFER_H
#define RR_PARSERS_FORMAT_DEFER_H

#include <stddef.h>
#include <traceevent/event-parse.h>

struct rr_format_defer;

/* An empty table, or NULL when out of memory. */
struct rr_format_defer *rr_format_defer_new(void);
void rr_format_defer_free(struct rr_format_defer *df);

/* Formats the guard passes on this thread go to @df (NULL: parse them). */
void rr_format_defer_arm(struct rr_format_defer *df);
void rr_format_defer_disarm(void);

/*
 * Called by the guard for a format about to be parsed on @tep: 1 when the
 * armed table kept it (the guard returns success), 0 when it must be parsed
 * now (nothing armed, out of memory, or a format the table parses at once).
 */
int rr_format_defer_offer(struct tep_handle *tep, const char *buf, unsigned long size,
			  const char *sys);

/* The largest id the table holds a format of (-1: none). */
int rr_format_defer_max_id(const struct rr_format_defer *df);

/*
 * The event of @id on @tep: parses its kept format (once; its text is then
 * freed) and returns what tep_find_event() finds, NULL when the table has
 * no format for @id or libtraceevent failed it. Call from the one thread
 * that uses @tep.
 */
struct tep_event *rr_format_defer_parse(struct rr_format_defer *df, struct tep_handle *tep,
					int id);

/* Formats kept, and those of them parsed since (for the tests). */
size_t rr_format_defer_kept(const struct rr_format_defer *df);
size_t rr_format_defer_parsed(const struct rr_format_defer *df);

#endif
