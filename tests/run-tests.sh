#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test: unit binaries, cli scripts, manifest checks on the bundled
# traces and on ../shared/traces when present, and the trace generator's
# checks. Each prints TAP; this prints a closing "N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
O=${O:-build}
export RR_BIN=${RR_BIN:-$top/$O/reclaim-replay}
export RR_GEN=${RR_GEN:-$top/$O/rr-gen}
export RR_SHARED=${RR_SHARED:-$top/../shared}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}
log=$(mktemp); trap 'rm -f "$log"' EXIT
passed=0 failed=0 skipped=0

run() {	# run NAME COMMAND...
	local name=$1; shift
	echo "# $name"
	"$@" >"$log" 2>&1
	local rc=$?
	cat "$log"
	local p f s
	p=$(grep -cE '^ok ' "$log"); s=$(grep -cE '^ok .*# SKIP' "$log")
	f=$(grep -cE '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited $rc without a failing check"
		f=1
	fi
	passed=$((passed + p - s)); skipped=$((skipped + s)); failed=$((failed + f))
}

for t in "$O"/tests/unit/*_test; do
	[ -x "$t" ] && run "$(basename "$t")" "$t"
done
for t in tests/cli/t*.sh; do
	run "$(basename "$t")" bash "$t"
done
# Every trace's checker must exit 0: a crash on any of them (a traceback, no
# "not ok" line) fails the run, not just one on the last trace.
manifest_traces() {
	local rc=0 dat
	for dat in traces/*.dat; do
		if [ ! -f "${dat%.dat}.manifest.json" ]; then
			echo "ok 1 - $dat # SKIP no ${dat%.dat}.manifest.json"
			continue
		fi
		python3 tests/manifest/check_manifest.py "$RR_BIN" "$dat" \
			"${dat%.dat}.manifest.json" || rc=1
	done
	return $rc
}
run "manifest checks (bundled traces)" manifest_traces
shared_traces() {
	if ! ls "$RR_SHARED"/traces/*.manifest.json >/dev/null 2>&1; then
		echo "ok 1 - shared traces # SKIP $RR_SHARED/traces is absent"
		return 0
	fi
	local rc=0
	for man in "$RR_SHARED"/traces/*.manifest.json; do
		python3 tests/manifest/check_manifest.py "$RR_BIN" "${man%.manifest.json}.dat" "$man" || rc=1
	done
	return $rc
}
run "manifest checks (shared traces)" shared_traces
if [ -x "$O/fuzz/onefile" ]; then
	run "fuzz corpus replay" "$O/fuzz/onefile" tests/fuzz/corpus/*
fi
if [ -x tests/gen/check.sh ] || [ -f tests/gen/check.sh ]; then
	run "trace generator" bash tests/gen/check.sh "$RR_GEN"
fi

echo "# skipped: $skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
