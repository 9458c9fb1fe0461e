#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ingest memory: the trace.dat reader gives back the file pages it has
# consumed (parsers/page_release.c), so `stats` must not hold the file in
# its RSS on top of the events. On a generated 400 000-event trace its peak
# RSS must stay below file size + 48 bytes per event (the event array
# alone): holding the file pages and the events, as the reader did before,
# is above that. The event count comes from rr-gen's own accounting
# (NAME.expected.json), the file size from the file system.
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
tap_done
