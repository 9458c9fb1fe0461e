#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Hostile values (docs/robustness.md): usec_delayed 2^31, nr_scanned 2^63,
# timestamps going backwards, a reused pid, begins without ends and ends
# without begins, 200000 tasks, and --max-memory. Results stay defined and
# the warnings say what was clamped or ignored. Expected figures come from
# the scenario files (tests/gen/hostile/hostile.scn, many-tasks.scn) and
# the text below, by hand.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
SAN='AddressSanitizer|runtime error|LeakSanitizer'

# run NAME ARGS...: stats -j into $tmp/NAME.json, stderr in $tmp/NAME.err, exit in $rc
run() {
	local name=$1; shift
	timeout 300 "$RR_BIN" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
}
clean() {	# clean NAME DESC
	if grep -qE "$SAN" "$tmp/$1.err"; then
		not_ok "$2: no sanitizer report" "$(grep -m1 -E "$SAN" "$tmp/$1.err")"
	elif [ "$rc" -ne 0 ]; then
		not_ok "$2: exit 0" "exit $rc: $(head -n 2 "$tmp/$1.err")"
	else
		ok "$2: exit 0, no sanitizer report"
	fi
}
# jcheck NAME DESC PYTHON-EXPR (d = the document, n = node 0 of result 0,
# w = the warnings, t(REASON) = node 0's throttle row)
jcheck() {
	python3 - "$tmp/$1.json" "$3" >/dev/null 2>"$tmp/py.err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = d["results"][0]["nodes"][0]
w = "\n".join(d["warnings"])
t = lambda r: n["throttles"][r]
assert eval(sys.argv[2]), (sys.argv[2], d["warnings"])
PY
	if [ $? -eq 0 ]; then ok "$2"; else not_ok "$2" "$(tail -n 2 "$tmp/py.err")"; fi
}

# --- text: backwards time, reused pid, orphan begins and ends, 2^31, 2^63
cat >"$tmp/hostile.txt" <<'TXT'
cpus=2
  dd-1 [000] 1.000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
  dd-1 [000] 1.000020: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=9223372036854775808 nr_reclaimed=3 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE
  dd-1 [000] 1.002000: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=2147483648 reason=VMSCAN_THROTTLE_WRITEBACK
  dd-1 [000] 1.003000: mm_vmscan_direct_reclaim_end: nr_reclaimed=3
  dd-1 [000] 0.500000: mm_vmscan_direct_reclaim_end: nr_reclaimed=3
  dd-1 [000] 0.400000: mm_vmscan_direct_reclaim_end: nr_reclaimed=3
  xx-7 [001] 2.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
  yy-7 [001] 2.100000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
  yy-7 [001] 2.200000: mm_vmscan_throttled: nid=0 usec_timeout=20000 usect_delayed=20000 reason=VMSCAN_THROTTLE_NOPROGRESS
TXT
run text stats -j "$tmp/hostile.txt"
clean text "text with hostile values"
# 0.5 and 0.4 come after 1.003: two records out of order
jcheck text "text: two records out of order, said" \
	'"2 records had a timestamp earlier" in w'
jcheck text "text: nr_scanned 2^63 clamped to 0 and said" \
	'n["scan"]["scanned"] == 0 and "1 events had a field out of range" in w'
# 2^31 us on a 100 ms timeout: counted as the timeout, the excess reported
jcheck text "text: usec_delayed 2^31 clamped to its 100 ms timeout and said" \
	'n["throttles"]["WRITEBACK"]["total_delayed_us"] == 100000 and "slept past their timeout" in w'
# begins: 1.000001 (dd), 2.1 (yy); ends without a begin: 0.4, 0.5 (dd), 2.0 (xx)
jcheck text "text: orphan begins and ends kept out of the durations (begun 2, 1 completed)" \
	'n["episodes"]["direct"]["begun"] == 2 and n["episodes"]["direct"]["completed"] == 1'
jcheck text "text: NOPROGRESS of the reused pid counted once (20 ms)" \
	't("NOPROGRESS")["count"] == 1 and t("NOPROGRESS")["total_delayed_us"] == 20000'

run textreplay replay -j "$tmp/hostile.txt" -P mainline -P legacy-broken -P parametric
clean textreplay "replay of the hostile text"

# --- trace.dat from the generator: the same values through the binary reader
if [ ! -x "${RR_GEN:-}" ]; then
	skip "generated hostile trace.dat" "no rr-gen (RR_GEN)"
else
	"$RR_GEN" -o "$tmp/hostile.dat" -e "$tmp/hostile.exp.json" \
		"$TOP/tests/gen/hostile/hostile.scn" >/dev/null 2>&1
	run dat stats -j "$tmp/hostile.dat"
	clean dat "trace.dat with hostile values"
	# scenario: isolate nr_scanned 2^63 and usec_delayed 2^31 (an int: reads -2^31) clamped
	jcheck dat "dat: the two out-of-range fields clamped and said" \
		'"2 events had a field out of range" in w'
	# 2^31-1 on 100000 -> 100000; -2^31 -> 0; 4000: total 104000 over 3 throttles
	jcheck dat "dat: WRITEBACK 3 throttles, 104000 us after clamping" \
		't("WRITEBACK")["count"] == 3 and t("WRITEBACK")["total_delayed_us"] == 104000'
	jcheck dat "dat: the sleep past its timeout said" \
		'"1 mm_vmscan_throttled events slept past their timeout" in w'
	run datreplay replay -j "$tmp/hostile.dat" -P mainline -P none
	clean datreplay "replay of the hostile trace.dat"

	# --- 200000 tasks, one episode each (many-tasks.scn)
	"$RR_GEN" -o "$tmp/many.dat" -e "$tmp/many.exp.json" \
		"$TOP/tests/gen/hostile/many-tasks.scn" >/dev/null 2>&1
	run many stats -j "$tmp/many.dat"
	clean many "200000 tasks"
	jcheck many "200000 tasks: 200000 episodes begun and completed, 6400000 scanned" \
		'(n["episodes"]["direct"]["begun"] == 200000 and
		  n["episodes"]["direct"]["completed"] == 200000 and n["scan"]["scanned"] == 6400000)'
	# --- --max-memory: 800000 events of 48 bytes cannot fit in 8 MiB
	run mem8 stats -j --max-memory 8M "$tmp/many.dat"
	if [ "$rc" -eq 4 ] && [ "$(grep -v ': warning: ' "$tmp/mem8.err" | wc -l)" -eq 1 ] &&
	   grep -qF "$tmp/many.dat" "$tmp/mem8.err" && grep -q -- '--max-memory' "$tmp/mem8.err" &&
	   grep -q '"error"' "$tmp/mem8.json" && ! grep -qE "$SAN" "$tmp/mem8.err"; then
		ok "--max-memory 8M: exit 4, one line naming the file and the limit, JSON error"
	else
		not_ok "--max-memory 8M: exit 4 with the limit message" "exit $rc: $(head -n 3 "$tmp/mem8.err")"
	fi
	run mem1g stats -j --max-memory 1G "$tmp/many.dat"
	clean mem1g "--max-memory 1G is enough for 200000 tasks"
fi
run badsize stats --max-memory 12 "$TOP/traces/counters-writer.dat"
if [ "$rc" -eq 2 ] && grep -q "bad --max-memory '12'" "$tmp/badsize.err"; then
	ok "--max-memory 12 (below 1M): usage error, exit 2"
else
	not_ok "--max-memory 12: exit 2" "exit $rc: $(head -n 2 "$tmp/badsize.err")"
fi
tap_done
