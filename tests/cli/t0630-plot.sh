#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --plot FILE.svg on replay and compare: the SVG renders with rsvg-convert
# (so it is well formed for a real renderer), parses as XML, carries one bar
# per (node, policy) equal to the --json figures of the same run, and each
# cumulative-stall curve (built from the engine's slices) ends at the JSON
# stall_ns (built from the result structs). A trace path full of XML
# specials must come back unchanged. Bad --plot paths fail with exit 1.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
checker=tests/cli/svg_check.py
pols=(-P none -P legacy-broken -P mainline -P parametric --set isolated.timeout=10ms)

have_rsvg=1
command -v rsvg-convert >/dev/null || have_rsvg=0

# plot NAME ARGS...: run with --plot and --json, render, check
plot() {
	local name=$1; shift
	if ! "$RR_BIN" "$@" --json -q --plot "$tmp/$name.svg" >"$tmp/$name.json" 2>"$tmp/$name.err"; then
		not_ok "$name: exits 0 with --plot" "$(head -c 300 "$tmp/$name.err")"
		return
	fi
	ok "$name: exits 0 with --plot"
	if [ "$have_rsvg" = 0 ]; then
		skip "$name: rsvg-convert renders the SVG" "rsvg-convert missing (librsvg2-bin)"
		return
	fi
	if rsvg-convert "$tmp/$name.svg" -o "$tmp/$name.png" 2>"$tmp/$name.rsvg"; then
		ok "$name: rsvg-convert renders the SVG"
	else
		not_ok "$name: rsvg-convert renders the SVG" "$(head -c 300 "$tmp/$name.rsvg")"
		return
	fi
	tap_check "$tmp/$name.chk" "$checker" "$tmp/$name.svg" "$tmp/$name.json" "$tmp/$name.png" \
		"${PLOT_PATH:-}"
	[ -n "${RR_KEEP_PLOTS:-}" ] && cp "$tmp/$name.svg" "$tmp/$name.png" "$RR_KEEP_PLOTS/"
}

plot replay-one replay traces/isolated-noswap-a.dat "${pols[@]}"
plot replay-all replay traces/*.dat -P none -P mainline
plot compare-all compare traces/*.dat -P recorded "${pols[@]}"

# XML specials in the path: the title, the heading and data-path escape them.
odd="$tmp/a&b <\"c'>.dat"
cp traces/counters-writer.dat "$odd"
PLOT_PATH=$odd plot odd-path replay "$odd" -P none

# The plot does not change the report: same JSON with and without it.
"$RR_BIN" replay --json -q traces/counters-writer.dat -P none >"$tmp/plain.json" 2>/dev/null
"$RR_BIN" replay --json -q traces/counters-writer.dat -P none --plot "$tmp/x.svg" \
	>"$tmp/with.json" 2>/dev/null
if cmp -s "$tmp/plain.json" "$tmp/with.json"; then
	ok "--plot leaves the JSON report unchanged"
else
	not_ok "--plot leaves the JSON report unchanged"
fi

# Unwritable plot file: one line naming it, exit 1, no crash.
"$RR_BIN" replay traces/counters-writer.dat -P none --plot "$tmp/no/such/dir/p.svg" \
	>/dev/null 2>"$tmp/bad.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q "no/such/dir/p.svg" "$tmp/bad.err"; then
	ok "unwritable --plot: exit 1 and one line naming the file"
else
	not_ok "unwritable --plot: exit 1 and one line naming the file" "exit $rc: $(cat "$tmp/bad.err")"
fi
# A full disk is a write error too, not a silent truncated drawing.
if [ -w /dev/full ]; then
	"$RR_BIN" compare traces/counters-writer.dat -P none -P mainline --plot /dev/full \
		>/dev/null 2>"$tmp/full.err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "/dev/full" "$tmp/full.err"; then
		ok "--plot /dev/full: exit 1 naming the file"
	else
		not_ok "--plot /dev/full: exit 1 naming the file" "exit $rc: $(cat "$tmp/full.err")"
	fi
else
	skip "--plot /dev/full: exit 1 naming the file" "/dev/full is missing or not writable here"
fi
tap_done
