/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a recording: pick the parser by the file's first bytes and return
 * the decoded trace, sorted and indexed.
 */
#ifndef RECLAIM_REPLAY_TRACE_H
#define RECLAIM_REPLAY_TRACE_H

#include "reclaim_replay/event.h"

/**
 * rr_trace_load - read a trace.dat or ftrace text file
 * @path: file to read
 * @out:  set to a new trace on success; free with rr_trace_free()
 *
 * Returns 0, or a positive RR_EXIT_* code after printing one line that
 * names the file and the problem.
 */
int rr_trace_load(const char *path, struct rr_trace **out);

#endif
