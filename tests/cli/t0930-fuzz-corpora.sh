#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Replays the seed and regression corpora of the text, counter-sample and
# option fuzz targets (tests/fuzz/corpus-*/) through their gcc builds
# ($O/fuzz/onefile-*, from `make check`): every file runs once under
# whatever sanitizers the build has. tests/fuzz/corpus/ (the trace.dat and
# loader target) is replayed by run-tests.sh itself.
. "$(dirname "$0")/../lib.sh"
O=${O:-build}
case $O in /*) OD=$O ;; *) OD=$TOP/$O ;; esac
for t in text counters options; do
	bin=$OD/fuzz/onefile-$t
	dir=$TOP/tests/fuzz/corpus-$t
	if [ ! -x "$bin" ]; then
		not_ok "fuzz corpus $t" "$bin missing (make check builds it)"
		continue
	fi
	out=$("$bin" "$dir"/* 2>&1)
	rc=$?
	n=$(ls "$dir" | wc -l)
	replayed=$(printf '%s\n' "$out" | grep -c '^ok ')
	if [ $rc -ne 0 ] || [ "$replayed" -ne "$n" ] ||
	   printf '%s\n' "$out" | grep -qE 'AddressSanitizer|runtime error|LeakSanitizer'; then
		not_ok "fuzz corpus $t: $n files replayed cleanly" \
			"exit $rc, $replayed of $n: $(printf '%s\n' "$out" | grep -m2 -E 'ERROR|runtime error|not ok')"
	else
		ok "fuzz corpus $t: $n files replayed cleanly"
	fi
done
# A fuzz find (docs/robustness.md): a v7 buffer option names cpu 17 while the
# header says 2 cpus. The cpu count must cover every cpu with events (17 + 1),
# or the model's per-cpu arrays are too short (seen only under ASan).
f=$TOP/tests/fuzz/corpus/v7-cpu-beyond-header.dat
line=$("$RR_BIN" stats "$f" 2>&1 | grep -m1 'cpus,')
case $line in
*" 18 cpus,"*) ok "cpu beyond the header's count raises the cpu count" ;;
*) not_ok "cpu beyond the header's count raises the cpu count" "got: $line" ;;
esac
tap_done
