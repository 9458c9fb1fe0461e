/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `validate`: a manifest is ground truth for one recording only. Its
 * trace_file_bytes and trace_file_sha256 must describe the trace it is
 * paired with, or the vmstat and PSI comparison is about another run.
 */
#ifndef RR_CLI_VALIDATE_MANIFEST_H
#define RR_CLI_VALIDATE_MANIFEST_H

/*
 * 0 when the manifest at @manifest names the file at @trace (or names no
 * file at all: then a warning says it could not be matched, and it is
 * used), RR_EXIT_BAD_INPUT with a one-line message naming both files and
 * what differs otherwise. A manifest that is not JSON is left to the
 * ground-truth check, which reports it.
 */
int rr_validate_manifest_match(const char *manifest, const char *trace);

#endif
