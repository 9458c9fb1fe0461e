#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Corruption matrix: every bundled trace (v7, zstd), a v6 and an uncompressed
# v7 from the generator, cut at each section boundary of the pre-check's map
# and at random points, bit flips in header, formats and data pages, wrong
# endianness flag, absurd sizes. Exit 0 or 4 with one line naming the file;
# never a signal, a sanitizer report or a hang (tests/cli/corruption_matrix.py).
. "$(dirname "$0")/../lib.sh"
O=${O:-build}
case $O in /*) OD=$O ;; *) OD=$TOP/$O ;; esac
SECTIONS=${RR_SECTIONS:-$OD/fuzz/rr-sections}
RR_GEN=${RR_GEN:-$OD/rr-gen}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$SECTIONS" ]; then
	not_ok "rr-sections helper" "$SECTIONS missing (make check builds it)"
	tap_done; exit
fi
inputs=$(ls "$TOP"/traces/*.dat)
# A missing rr-gen or trace-cmd is a skip (a trace-cmd convert that fails too,
# as in t0100); an rr-gen that fails on a bundled scenario is a failure.
if [ ! -x "$RR_GEN" ]; then
	skip "generated v6 input" "no rr-gen at $RR_GEN"
elif ! "$RR_GEN" -o "$tmp/gen-v6.dat" -e "$tmp/gen.json" \
	"$TOP/tests/gen/scenarios/lost.scn" >/dev/null 2>"$tmp/gen.err"; then
	not_ok "rr-gen writes tests/gen/scenarios/lost.scn" "$(head -c 300 "$tmp/gen.err")"
else
	inputs="$inputs $tmp/gen-v6.dat"
	if ! command -v trace-cmd >/dev/null; then
		skip "generated uncompressed v7 input" "trace-cmd is not on PATH"
	elif trace-cmd convert --file-version 7 --compression none -i "$tmp/gen-v6.dat" \
		-o "$tmp/gen-v7.dat" >/dev/null 2>"$tmp/convert.err"; then
		inputs="$inputs $tmp/gen-v7.dat"
	else
		skip "generated uncompressed v7 input" \
			"trace-cmd convert failed: $(head -n 1 "$tmp/convert.err" | cut -c1-200)"
	fi
fi
mkdir -p "$tmp/work"
# shellcheck disable=SC2086
tap_check "$tmp/out" "$TOP/tests/cli/corruption_matrix.py" "$RR_BIN" "$SECTIONS" "$tmp/work" $inputs
tap_done
