#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ingest memory: the trace.dat reader gives back the file pages it has
# consumed (parsers/page_release.c), so `stats` must not hold the file in
# its RSS on top of the events. On a generated 400 000-event trace its peak
# RSS must stay below file size + 48 bytes per event (the event array
# alone): holding the file pages and the events, as the reader did before,
# is above that. The event count comes from rr-gen's own accounting
# (NAME.expected.json), the file size from the file system.
# A v7 zstd copy of it is then read with and without opening the file
# again to give back libtracecmd's decompressed chunks (below).
# RR_GEN names the generator (default build/rr-gen).
set -u
. "$(dirname "$0")/../lib.sh"
RR_GEN=${RR_GEN:-$TOP/build/rr-gen}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if [ ! -x /usr/bin/time ]; then
	skip "ingest peak RSS" "/usr/bin/time is not installed"
	tap_done; exit
fi
# ASan's shadow memory and quarantine make RSS meaningless
if ldd "$RR_BIN" 2>/dev/null | grep -q 'libasan'; then
	skip "ingest peak RSS" "sanitizer build"
	tap_done; exit
fi
if ! "$RR_GEN" --scale 400000 -o "$tmp/s.dat" -e "$tmp/s.expected.json" \
	>/dev/null 2>"$tmp/gen.err"; then
	not_ok "rr-gen --scale 400000" "$(tail -n 2 "$tmp/gen.err")"
	tap_done; exit
fi
events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events_total"])' \
	"$tmp/s.expected.json")
size=$(stat -c %s "$tmp/s.dat")

if /usr/bin/time -f '%M' -o "$tmp/time" "$RR_BIN" stats --json -q "$tmp/s.dat" \
	>"$tmp/out.json" 2>"$tmp/err"; then
	ok "stats on a 400 000-event trace exits 0"
else
	not_ok "stats on a 400 000-event trace exits 0" "$(tail -n 2 "$tmp/err")"
fi
used=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["inputs"][0]["records"]["used"])' "$tmp/out.json" 2>/dev/null ||
	echo none)
if [ "$used" = "$events" ]; then
	ok "every generated event is kept ($events)"
else
	not_ok "every generated event is kept" "used $used, generated $events"
fi
peak_kib=$(tail -n 1 "$tmp/time")
limit_kib=$(( (size + 48 * events) / 1024 ))
if [ "$peak_kib" -le "$limit_kib" ] 2>/dev/null; then
	ok "peak RSS $peak_kib KiB <= file + 48 B x $events events = $limit_kib KiB"
else
	not_ok "peak RSS <= file size + 48 B per event" \
		"peak $peak_kib KiB, limit $limit_kib KiB: consumed file pages are held"
fi

# A compressed (v7 zstd) copy of the same trace: libtracecmd 1.3 keeps every
# decompressed chunk until the handle is closed (parsers/tracedat_reopen.c),
# so the reader opens the file again each RR_REOPEN_BYTES. Reading it without
# reopening holds about the whole uncompressed cpu data (which trace-cmd
# convert reports, cpu by cpu); with a 4 MiB budget at least half of that
# must be given back, with the same report.
if ! command -v trace-cmd >/dev/null 2>&1; then
	skip "compressed ingest peak RSS" "no trace-cmd"
	tap_done; exit
fi
if ! trace-cmd convert -i "$tmp/s.dat" -o "$tmp/z.dat" --file-version 7 --compression zstd \
	>"$tmp/convert.out" 2>&1; then
	not_ok "trace-cmd convert to v7 zstd" "$(tail -n 2 "$tmp/convert.out")"
	tap_done; exit
fi
uncompressed=$(sed -n 's/.*bytes in size (\([0-9]*\) uncompressed).*/\1/p' "$tmp/convert.out" |
	awk '{ s += $1 } END { print s + 0 }')
peak() {	# peak BUDGET OUT: peak RSS KiB of stats --json with that reopen budget
	RR_REOPEN_BYTES=$1 /usr/bin/time -f '%M' -o "$tmp/time" "$RR_BIN" stats --json -q \
		"$tmp/z.dat" >"$2" 2>/dev/null && tail -n 1 "$tmp/time"
}
held=$(peak 0 "$tmp/z-held.json") given=$(peak 4M "$tmp/z-given.json")
if [ "$uncompressed" -gt $((8 << 20)) ] && [ -n "$held" ] && [ -n "$given" ] &&
   [ $(( (held - given) * 1024 )) -ge $(( uncompressed / 2 )) ]; then
	ok "compressed copy: reopening every 4 MiB gives back $(( (held - given) / 1024 )) of" \
		"$(( uncompressed >> 20 )) MiB of decompressed data (peak $given KiB, $held without)"
else
	not_ok "compressed copy: reopening gives back half the decompressed data" \
		"uncompressed $uncompressed B, peak without $held KiB, with $given KiB"
fi
if cmp -s "$tmp/z-held.json" "$tmp/z-given.json"; then
	ok "compressed copy: the same report with and without reopening"
else
	not_ok "compressed copy: the same report with and without reopening" \
		"$(diff "$tmp/z-held.json" "$tmp/z-given.json" | head -4)"
fi
tap_done
