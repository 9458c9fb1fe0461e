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

/*
 * Write @data to a new temporary file in $TMPDIR (default /tmp); 0 and @path
 * filled (caller unlinks), or -1. tests/fuzz/run-target.sh points TMPDIR at
 * the build directory, so a run never depends on the size of /tmp.
 */
#define RR_FUZZ_PATH_MAX 4096
int rr_fuzz_tempfile(const uint8_t *data, size_t size, char path[RR_FUZZ_PATH_MAX]);
/* Silence rr_error()/rr_warn() (a fuzz run would print millions of lines). */
void rr_fuzz_quiet(void);
/* Model, stats and a replay under @policy (NULL: none) of @t; frees nothing of @t. */
void rr_fuzz_analyze(struct rr_trace *t, const char *policy);

#endif
