/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The format guard: while armed on a thread, every event format libtracecmd
 * hands to libtraceevent on that thread passes rr_format_undeclared_field()
 * first (format_guard.c says how). The pre-check can check formats only
 * where the file stores them uncompressed; the guard sees them after
 * libtracecmd decompressed them, so a zstd or zlib file is as safe as a
 * plain one.
 */
#ifndef RR_PARSERS_FORMAT_GUARD_H
#define RR_PARSERS_FORMAT_GUARD_H

#include <traceevent/event-parse.h>

/* Start checking formats parsed on this thread; forgets an earlier refusal. */
void rr_format_guard_arm(void);

/* Stop checking: 0 when every format passed since arming, 1 if one was refused. */
int rr_format_guard_disarm(void);

/*
 * What the first format refused on this thread since the last arming got
 * wrong, or NULL: for example "event format 'dax/dax_pmd_insert_mapping':
 * the print fmt uses REC->dfn_val, which is not a field".
 */
const char *rr_format_guard_refusal(void);

/*
 * libtraceevent's own tep_parse_event(), unchecked, one call at a time
 * (its tokenizer keeps its state in static variables): for formats
 * parsed after the open (format_defer.c).
 */
enum tep_errno rr_format_parse(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys);

/*
 * Holds off every other thread's rr_format_parse() (the lock is recursive,
 * so the holder's own parses go through): for the whole of an open on a
 * reading thread while the other reading threads parse, because
 * tracecmd_open_head() also runs the tokenizer outside tep_parse_event(),
 * in tep_parse_header_page().
 */
void rr_libtraceevent_hold(void);
void rr_libtraceevent_release(void);

/* Formats handed to libtraceevent's parser so far, by any thread (for the tests). */
unsigned long rr_format_parse_count(void);

#endif
