#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Report schema v1 and `compare`: every command's --json validates against
# docs/reclaim-replay-report.schema.json (and the schema rejects what it
# should); inputs[].sha256 is the file's sha256sum; compare's `recorded`
# figures equal `stats`, its differences are B-A and (B-A)/A recomputed
# independently, and its tables keep within 100 columns and colour only on
# request.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
schema=docs/reclaim-replay-report.schema.json
helper=tests/cli/report_schema_check.py
traces=(traces/*.dat)
pols=(-P recorded -P mainline -P none -P parametric --set isolated.timeout=10ms)

# The helper's tab-separated lines become numbered TAP lines through lib.sh's
# tap_check, which also fails a helper that exits non-zero or prints nothing.

# run NAME EXPECTED-EXIT ARGS...: the report in $tmp/NAME.json
run() {
	local name=$1 want=$2; shift 2
	"$RR_BIN" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	if [ "$rc" -eq "$want" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$tmp/$name.json" 2>/dev/null; then
		ok "$name: exit $want and one JSON document"
	else
		not_ok "$name: exit $want and one JSON document" "exit $rc: $(head -c 300 "$tmp/$name.err")"
	fi
}

python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$schema" &&
	ok "schema is JSON" || not_ok "schema is JSON"
if ! python3 -c 'import jsonschema' 2>/dev/null; then
	skip "schema checks" "python3 jsonschema module missing (apt-get install python3-jsonschema)"
fi

run stats 0 stats --json "${traces[@]}"
run replay 0 replay --json "${traces[@]}" -P mainline -P parametric --set writeback.timeout=20ms
run validate 0 validate --json "${traces[@]}"
run policies 0 policies --json
run compare 0 compare --json "${traces[@]}" "${pols[@]}"
run compare-one 0 compare --pretty traces/counters-writer.dat -P none -P legacy-broken
run error 4 stats --json "$tmp/missing.dat"

for name in stats replay validate policies compare compare-one error; do
	tap_check "$tmp/$name.schema.chk" "$helper" schema "$schema" "$name" "$tmp/$name.json"
done
for m in top-level-extra tool-extra input-extra input-no-sha256 input-bad-sha256 \
	schema-version-2 unknown-command summary-on-stats compare-stall-string compare-bad-scope; do
	tap_check "$tmp/rejects-$m.chk" "$helper" rejects "$schema" compare "$tmp/compare.json" "$m"
done
tap_check "$tmp/rejects-stats.chk" "$helper" rejects "$schema" stats "$tmp/stats.json" \
	stats-negative-stall

# inputs[].sha256 against sha256sum, for every input of every command
bad=
for name in stats replay validate compare; do
	i=0
	for t in "${traces[@]}"; do
		want=$(sha256sum "$t" | cut -d' ' -f1)
		got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["inputs"][int(sys.argv[2])].get("sha256"))' \
			"$tmp/$name.json" "$i")
		[ "$got" = "$want" ] || bad="$bad $name:$t($got)"
		i=$((i + 1))
	done
done
[ -z "$bad" ] && ok "inputs[].sha256 equals sha256sum (${#traces[@]} traces, 4 commands)" ||
	not_ok "inputs[].sha256 equals sha256sum" "$bad"

# compare's numbers, checked against stats and recomputed
tap_check "$tmp/compare.chk" "$helper" compare "$tmp/compare.json" "$tmp/stats.json"

# Tables: within 100 columns, no escapes when not on a terminal or with
# --no-color, escapes with --color that do not count as columns.
"$RR_BIN" compare "${traces[@]}" "${pols[@]}" >"$tmp/table.txt" 2>"$tmp/table.err"
rc=$?
width=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$tmp/table.txt")
if [ $rc -eq 0 ] && [ "$width" -le 100 ] && [ "$width" -gt 60 ]; then
	ok "compare table: $width columns (<= 100)"
else
	not_ok "compare table: <= 100 columns" "exit $rc, widest line $width"
fi
grep -q $'\033' "$tmp/table.txt" && not_ok "compare table: no colour off a terminal" ||
	ok "compare table: no colour off a terminal"
# A table per node of every trace, then the totals; five figures each.
nodes=$(python3 -c 'import json,sys; print(sum(len(r["nodes"]) for r in json.load(open(sys.argv[1]))["results"]))' "$tmp/stats.json")
heads=$(grep -c '^node 0 ' "$tmp/table.txt")
rows=$(grep -cE '^  (stall ms|p99 episode ms|max node p99 ms|sleep ms|wasted pages|efficiency %) ' \
	"$tmp/table.txt")
totals=$(grep -c '^all nodes ' "$tmp/table.txt")
[ "$heads" -eq "${#traces[@]}" ] && [ "$rows" -eq $((5 * (nodes + 1))) ] && [ "$totals" -eq 1 ] &&
	ok "compare table: a block per trace, five figures per node, then totals" ||
	not_ok "compare table: a block per trace, five figures per node, then totals" \
		"node 0 headers $heads, figure rows $rows, totals $totals"

# The text shows the JSON's numbers: recorded's stall on the first trace's node 0.
want=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f" % (d["results"][0]["nodes"][0]["stall_ns"] / 1e6))' "$tmp/stats.json")
got=$(awk '/^  stall ms/ { print $3; exit }' "$tmp/table.txt")
[ "$got" = "$want" ] && ok "compare table: recorded stall $got ms = stats" ||
	not_ok "compare table: recorded stall = stats" "table $got, stats $want"

"$RR_BIN" compare --color "${traces[0]}" "${pols[@]}" >"$tmp/color.txt" 2>/dev/null
plain=$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/color.txt" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
if grep -q $'\033\[3[12]m' "$tmp/color.txt" && [ "$plain" -le 100 ]; then
	ok "compare --color: coloured differences, still $plain columns"
else
	not_ok "compare --color: coloured differences within 100 columns" "widest $plain"
fi
"$RR_BIN" compare --color --no-color "${traces[0]}" "${pols[@]}" 2>/dev/null | grep -q $'\033' &&
	not_ok "compare --no-color after --color: no escapes" ||
	ok "compare --no-color after --color: no escapes"

# --width: narrower tables repeat the baseline column in further tables.
"$RR_BIN" compare --width 60 "${traces[0]}" "${pols[@]}" >"$tmp/narrow.txt" 2>/dev/null
w=$(grep -E '^(node |  [a-z]+ .*(ms|pages|%) |    diff )' "$tmp/narrow.txt" |
	awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
n=$(grep -c '^node 0 ' "$tmp/narrow.txt")
[ "$w" -le 60 ] && [ "$n" -ge 2 ] && ok "compare --width 60: tables of $w columns, $n of them" ||
	not_ok "compare --width 60" "widest table line $w, $n tables"

# Usage errors: exit 2 and a message, nothing replayed.
usage() {	# usage DESC MESSAGE ARGS...
	local desc=$1 msg=$2; shift 2
	"$RR_BIN" compare "$@" >"$tmp/u.out" 2>"$tmp/u.err"
	local rc=$?
	[ $rc -eq 2 ] && grep -qF -- "$msg" "$tmp/u.err" && ok "compare $desc: exit 2" ||
		not_ok "compare $desc: exit 2 naming '$msg'" "exit $rc: $(head -c 200 "$tmp/u.err")"
}
usage "with one policy" "at least 2" -P mainline "${traces[0]}"
usage "with an unknown policy" "frob" -P recorded -P frob "${traces[0]}"
usage "--set before --policy" "before any --policy" --set a=b -P recorded -P none "${traces[0]}"
usage "--width too small" "--width" --width 20 -P recorded -P none "${traces[0]}"
usage "without a trace" "no TRACE" -P recorded -P none

tap_done
