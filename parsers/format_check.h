/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one check of event format text that libtraceevent 1.7 needs before it
 * parses a format: every REC->name of the print fmt must be a declared
 * field. Used by the pre-check on formats stored uncompressed (it can name
 * the file offset) and by the format guard on every format libtracecmd
 * hands to libtraceevent, compressed or not.
 */
#ifndef RR_PARSERS_FORMAT_CHECK_H
#define RR_PARSERS_FORMAT_CHECK_H

#include <stddef.h>

/*
 * 0 when the format @f (@n bytes) is safe to parse; otherwise 1, with
 * *@name and *@len set to the first undeclared REC-> name (length 0 for a
 * REC-> followed by no identifier).
 */
int rr_format_undeclared_field(const char *f, size_t n, const char **name, size_t *len);

/*
 * The event name of a format's first line, "name: NAME": sets *@name and
 * returns its length, which runs to the line's end (or the text's); 0 when
 * the text does not start so.
 */
size_t rr_format_name(const char *f, size_t n, const char **name);

#endif
