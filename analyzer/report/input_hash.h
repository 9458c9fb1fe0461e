/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inputs[].sha256 computed while the input is read: the hash of a 200 MiB
 * trace costs as much as half the read, and it needs nothing the read
 * produces, so it runs on its own thread from the moment the path is known.
 */
#ifndef RR_REPORT_INPUT_HASH_H
#define RR_REPORT_INPUT_HASH_H

/*
 * A command that will write inputs[].sha256 (any --json report) calls this
 * once, before loading; without it nothing is hashed ahead.
 */
void rr_input_hash_want(void);

/*
 * Start hashing @path on a thread of its own when rr_input_hash_want() was
 * called and @path is a non-empty regular file (rr_inputs_load() calls it
 * just before rr_trace_load()). rr_json_sha256() of the same path joins it; a path asked for
 * without a prefetch is hashed there and then, as before.
 */
void rr_input_hash_prefetch(const char *path);

#endif
