#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check rr-gen against trace-cmd: every scenario in tests/gen/scenarios is
# generated, read back with trace-cmd report (plain and -R), converted to
# trace.dat v7, and compared with the generator's own expected.json.
#
#   sh tests/gen/check.sh [PATH/TO/rr-gen]
#
# Without an argument rr-gen is compiled into a temporary directory with
# cc -O2 -Wall -Wextra (a warning is a failure). Needs trace-cmd and jq.
# RR_GEN_SCALE (default 2000000) sets the size of the scale run.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rr-gen-check.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
N=0
PASS=0
FAIL=0
SCALE=${RR_GEN_SCALE:-2000000}

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $*"; }
notok() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N - $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}

for tool in trace-cmd jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		notok "$tool is installed"
		echo "$PASS passed, $FAIL failed"
		exit 1
	fi
done

if [ $# -ge 1 ]; then
	GEN=$1
	check "rr-gen binary $GEN exists" test -x "$GEN"
else
	GEN=$TMP/rr-gen
	${CC:-cc} -O2 -Wall -Wextra -o "$GEN" "$HERE"/rr-gen*.c 2>"$TMP/cc.err"
	rc=$?
	check "rr-gen compiles (cc -O2 -Wall -Wextra)" test $rc -eq 0
	check "rr-gen compiles without warnings" test ! -s "$TMP/cc.err"
	[ -s "$TMP/cc.err" ] && sed 's/^/# /' "$TMP/cc.err"
fi

# event name counts from trace-cmd report output on stdin: "name count"
report_counts() {
	sed -n 's/^.*\[[0-9]*\] *[0-9]*\.[0-9]*: \([A-Za-z0-9_]*\):.*$/\1/p' | sort | uniq -c |
		awk '{ print $2, $1 }'
}
expected_counts() {
	jq -r '.events | to_entries[] | "\(.key) \(.value)"' "$1" | sort
}
# sums from trace-cmd report -R: "nr_scanned nr_reclaimed usec_delayed"
raw_sums() {
	awk '
	/ mm_vmscan_lru_shrink_inactive: / {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^nr_scanned=/) { split($i, a, "="); sc += a[2] }
			if ($i ~ /^nr_reclaimed=/) { split($i, a, "="); re += a[2] }
		}
	}
	/ (mm_vmscan_throttled|writeback_congestion_wait|writeback_wait_iff_congested): / {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^usec_delayed=/) { split($i, a, "="); us += a[2] }
	}
	END { printf "%d %d %d\n", sc, re, us }'
}
stderr_clean() {
	! grep -Eqi 'error|failed|bad' "$1"
}

HAVE_CONVERT=0
trace-cmd convert --help 2>&1 | grep -q -- '--file-version' && HAVE_CONVERT=1

for scn in "$HERE"/scenarios/*.scn; do
	name=$(basename "$scn" .scn)
	dat=$TMP/$name.dat
	exp=$TMP/$name.expected.json
	if ! "$GEN" -o "$dat" -e "$exp" "$scn" 2>"$TMP/$name.gen.err"; then
		notok "$name: rr-gen runs"
		sed 's/^/# /' "$TMP/$name.gen.err"
		continue
	fi
	ok "$name: rr-gen runs"
	check "$name: written file is trace.dat version 6" \
		sh -c "head -c 12 '$dat' | od -An -c | tr -d ' \n' | grep -q 'tracing6'"
	trace-cmd report -i "$dat" >"$TMP/$name.txt" 2>"$TMP/$name.err"
	rc=$?
	check "$name: trace-cmd report exits 0" test $rc -eq 0
	check "$name: trace-cmd report stderr has no error/failed/bad" stderr_clean "$TMP/$name.err"
	report_counts <"$TMP/$name.txt" >"$TMP/$name.got"
	expected_counts "$exp" >"$TMP/$name.want"
	if cmp -s "$TMP/$name.got" "$TMP/$name.want"; then
		ok "$name: event counts by name match expected.json"
	else
		notok "$name: event counts by name match expected.json"
		diff "$TMP/$name.want" "$TMP/$name.got" | sed 's/^/# /'
	fi
	lost_want=$(jq '.lost_events' "$exp")
	lost_got=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$TMP/$name.txt" |
		awk '{ s += $1 } END { print s + 0 }')
	check "$name: lost events reported by trace-cmd ($lost_got) = expected ($lost_want)" \
		test "$lost_got" = "$lost_want"

	trace-cmd report -R -i "$dat" 2>"$TMP/$name.rerr" | raw_sums >"$TMP/$name.sums"
	want_sums=$(jq -r '"\(.totals.nr_scanned) \(.totals.nr_reclaimed) \(.totals.usec_delayed)"' "$exp")
	got_sums=$(cat "$TMP/$name.sums")
	check "$name: report -R sums nr_scanned/nr_reclaimed/usec_delayed ($got_sums) = expected ($want_sums)" \
		test "$got_sums" = "$want_sums"
	# per node: shrink_inactive sums by nid and throttle usec_delayed by nid
	node_want=$(jq -r '.per_node | to_entries[] | "\(.key) \(.value.shrink_inactive.nr_scanned) \(.value.shrink_inactive.nr_reclaimed)"' "$exp" | sort)
	node_got=$(trace-cmd report -R -i "$dat" 2>/dev/null | awk -v nodes="$(jq .nodes "$exp")" '
		/ mm_vmscan_lru_shrink_inactive: / {
			for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			sc[v["nid"]] += v["nr_scanned"]; re[v["nid"]] += v["nr_reclaimed"]
		}
		END { for (n = 0; n < nodes; n++) printf "%d %d %d\n", n, sc[n], re[n] }' | sort)
	check "$name: shrink_inactive sums per nid match expected.json" test "$node_got" = "$node_want"
	thr_want=$(jq -r '[.per_node[] | .throttle | to_entries[] | select(.key | test("^(WRITEBACK|ISOLATED|NOPROGRESS|CONGESTED)$")) | .value.count] | add // 0' "$exp")
	thr_got=$(grep -c ' mm_vmscan_throttled: ' "$TMP/$name.txt")
	check "$name: mm_vmscan_throttled count ($thr_got) = per-node throttle counts ($thr_want)" \
		test "$thr_got" = "$thr_want"

	if [ $HAVE_CONVERT = 1 ]; then
		trace-cmd convert --file-version 7 -i "$dat" -o "$TMP/$name.v7.dat" >/dev/null 2>"$TMP/$name.cerr"
		rc=$?
		check "$name: trace-cmd convert to v7 exits 0" test $rc -eq 0
		ver=$(trace-cmd dump --summary -i "$TMP/$name.v7.dat" 2>/dev/null | awk '/\[Version\]/ { print $1 }')
		check "$name: converted file is version 7 (got '$ver')" test "$ver" = 7
		trace-cmd report -i "$TMP/$name.v7.dat" 2>/dev/null | report_counts >"$TMP/$name.v7.got"
		check "$name: v7 file has the same events" cmp -s "$TMP/$name.v7.got" "$TMP/$name.want"
		rm -f "$TMP/$name.v7.dat"
	fi
done

# scale mode
start=$(date +%s.%N)
"$GEN" --scale "$SCALE" -o "$TMP/big.dat" -e "$TMP/big.expected.json" 2>"$TMP/big.gen.err"
rc=$?
end=$(date +%s.%N)
secs=$(echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }')
rate=$(echo "$SCALE $secs" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2 / 1e6; else print "inf" }')
check "scale: rr-gen --scale $SCALE runs (${secs}s, ${rate}M events/s, $(du -m "$TMP/big.dat" 2>/dev/null | cut -f1) MB)" test $rc -eq 0
trace-cmd report -i "$TMP/big.dat" 2>"$TMP/big.err" | report_counts >"$TMP/big.got"
check "scale: trace-cmd report stderr has no error/failed/bad" stderr_clean "$TMP/big.err"
total=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/big.got")
check "scale: trace-cmd report shows $total events, want $SCALE" test "$total" = "$SCALE"
expected_counts "$TMP/big.expected.json" >"$TMP/big.want"
check "scale: event counts by name match expected.json" cmp -s "$TMP/big.got" "$TMP/big.want"
rm -f "$TMP/big.dat"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
