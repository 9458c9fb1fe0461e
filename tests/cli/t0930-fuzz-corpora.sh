#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Replays the seed and regression corpora of the text, counter-sample and
# option fuzz targets (tests/fuzz/corpus-*/) through their gcc builds
# ($O/fuzz/onefile-*, from `make check`): every file runs once under
# whatever sanitizers the build has. tests/fuzz/corpus/ (the trace.dat and
# loader target) is replayed by run-tests.sh itself.
. "$(dirname "$0")/../lib.sh"
O=${O:-build}
for t in text counters options; do
	bin=$TOP/$O/fuzz/onefile-$t
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
tap_done
