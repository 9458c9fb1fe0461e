/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets: bytes to a temporary file, and one
 * decoded trace carried through the model, the stats and a replay, so the
 * analyzer sees whatever values a damaged input produced.
 */
#ifndef RR_FUZZ_COMMON_H
#define RR_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "reclaim_replay/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write @data to a new temporary file; 0 and @path filled (caller unlinks), or -1. */
int rr_fuzz_tempfile(const uint8_t *data, size_t size, char path[32]);
/* Silence rr_error()/rr_warn() (a fuzz run would print millions of lines). */
void rr_fuzz_quiet(void);
/* Model, stats and a replay under @policy (NULL: none) of @t; frees nothing of @t. */
void rr_fuzz_analyze(struct rr_trace *t, const char *policy);

#endif
