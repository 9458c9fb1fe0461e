/* SPDX-License-Identifier: GPL-2.0 */
/*
 * While armed on a thread, libtracecmd's opens on that thread do not build
 * libtraceevent's kernel symbol table from the file's kallsyms section
 * (symbol_skip.c says why and how).
 */
#ifndef RR_PARSERS_SYMBOL_SKIP_H
#define RR_PARSERS_SYMBOL_SKIP_H

void rr_symbol_skip_arm(void);
void rr_symbol_skip_disarm(void);

/* kallsyms sections skipped on this thread since the program started */
unsigned long rr_symbol_skip_count(void);

#endif
