#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one libFuzzer target for a fixed time and judge the run (make fuzz-run-*).
#   run-target.sh BIN CORPUS_DIR LOG SECONDS [libFuzzer flags...]
# Fails on a sanitizer or libFuzzer report (crash, leak, timeout, OOM), and on
# a run that ends without libFuzzer's closing "DONE" line. On failure it
# prints the fuzzer's exit status, the head of its report (what and where)
# and the end of its log, so a CI transcript alone says what happened. A run killed by SIGKILL with no report at all
# (the only thing that kills silently: an out-of-memory killer or a
# supervisor outside the process) is said as such and tried once more with a
# fresh log; a second silent kill fails.
set -u
bin=$1 corpus=$2 log=$3 seconds=$4
shift 4
supp=$(cd "$(dirname "$0")/.." && pwd)/lsan.supp

# One allocation over the RSS limit fails (returns NULL), as it does on a
# machine that does not overcommit, instead of being reported as an
# out-of-memory: libtracecmd 1.3 allocates sizes it reads from decompressed
# metadata (a format's 8-byte size inside a zstd section) before any check
# of ours can see them, since the pre-check cannot decompress without its
# own zstd. The binary then fails that input cleanly (exit 4); under ASan
# the attempt alone poisoned 1.8 GB of shadow memory
# (tests/fuzz/corpus/v7-compressed-format-size-huge.dat, docs/robustness.md).
# The RSS limit itself stays 2048 MB.

# the targets' temporary input files (tests/fuzz/fuzz_common.c), beside the log
tmp=$(dirname "$log")/tmp
mkdir -p "$tmp"

# Sanitizer reports go to files of their own as well as being judged here:
# whatever a target or a library does with fd 2, a report reaches the log
# (the reader once muted fd 2 while libtracecmd parsed headers, and a SEGV
# report written then was lost, leaving only ASan's exit status 1).
reports=$(dirname "$log")/sanitizer-report

run() {
	status=0
	rm -f "$reports".*
	TMPDIR=$tmp \
	LSAN_OPTIONS="suppressions=$supp" \
	ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=2048:quarantine_size_mb=64:log_path=$reports" \
	UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports" \
		"$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=20 -print_final_stats=1 -artifact_prefix="$(dirname "$log")/" \
		"$@" "$corpus" >"$log" 2>&1 || status=$?
	for r in "$reports".*; do
		[ -f "$r" ] || continue
		echo "== sanitizer report file $r:" >>"$log"
		cat "$r" >>"$log"
	done
	grep -E '^(stat::|#[0-9]+[[:space:]]+DONE)' "$log"
}

explain() {
	echo "$(basename "$bin"): $1 (exit status $status; from $log:)"
	# the report's head (what and where), then the end of the log
	grep -m1 -A 20 -E '^==[0-9]+== ?ERROR|^SUMMARY|deadly signal' "$log" | sed 's/^/  | /'
	echo "  | ..."
	grep -vE '^(Suppressions used:|  count +bytes template|-{20,}|$)' "$log" |
		grep -vE '^ +[0-9]+ +[0-9]+ +[a-z_]' | tail -n 12 | sed 's/^/  | /'
}

reported() {
	grep -qE '^==[0-9]+== ?ERROR|^SUMMARY|deadly signal|Test unit written' "$log"
}

run "$@"
if ! reported && [ "$status" -eq 137 ] && ! grep -qE '^#[0-9]+[[:space:]]+DONE' "$log"; then
	explain "killed by SIGKILL from outside, with no report; running once more"
	run "$@"
fi
if reported; then
	explain "the fuzzer reported a failure"
	exit 1
fi
if ! grep -qE '^#[0-9]+[[:space:]]+DONE' "$log"; then
	explain "the run did not finish"
	exit 1
fi
if [ "$status" -ne 0 ]; then
	explain "the fuzzer finished but exited non-zero"
	exit 1
fi
exit 0
