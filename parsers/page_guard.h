/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check of decompressed data pages (page_guard.c): the pre-check walks
 * the records of uncompressed pages in the file, but a v7 file's zstd or
 * zlib pages exist only once libtracecmd has decompressed them.
 */
#ifndef RR_PARSERS_PAGE_GUARD_H
#define RR_PARSERS_PAGE_GUARD_H

#include "precheck.h"

/* Check every page handed to kbuffer, by any thread, as @map's pages. */
void rr_page_guard_arm(const struct rr_section_map *map);
/* Stop checking; 1 when a page was refused since rr_page_guard_arm(), once. */
int rr_page_guard_disarm(void);
/* What was wrong with the first page refused. */
const char *rr_page_guard_refusal(void);

#endif
