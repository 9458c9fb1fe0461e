#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `sweep`: nonsense specs are refused (exit 2, a message naming the problem);
# the grid is the product of the specs and its values are the spec's, also in
# jiffies at the trace's HZ; a Latin hypercube puts one point in each stratum;
# the sums, the Pareto front, the recommendation and its robustness agree with
# an independent computation (sweep_check.py); point 0 equals `replay -P
# mainline` and another point equals `replay -P parametric` with its settings;
# the model's monotonicity holds along each timeout; -j1 and -j2 give the same
# bytes; CSV and table carry the JSON's figures; the JSON fits the schema.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
helper=tests/cli/sweep_check.py
traces=(traces/*.dat)
t0=${traces[0]}

# usage DESC MESSAGE ARGS...: exit 2 and MESSAGE on stderr, no report
usage() {
	local desc=$1 msg=$2; shift 2
	"$RR_BIN" sweep "$@" >"$tmp/u.out" 2>"$tmp/u.err"
	local rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$msg" "$tmp/u.err" && [ "$(wc -l <"$tmp/u.err")" -le 3 ]; then
		ok "sweep $desc: exit 2"
	else
		not_ok "sweep $desc: exit 2 naming '$msg'" "exit $rc: $(head -c 300 "$tmp/u.err")"
	fi
}
usage "unknown key" "unknown setting 'frob.timeout'" --vary frob.timeout=1ms..2ms "$t0"
usage "no =" "--vary wants KEY=" --vary writeback.timeout "$t0"
usage "backwards range" "backwards" --vary writeback.timeout=50ms..10ms "$t0"
usage "empty range" "empty or backwards" --vary writeback.timeout=10ms..10ms:lin:3 "$t0"
usage "log from 0" "log scale cannot start at 0" --vary writeback.timeout=0ms..10ms:log:3 "$t0"
usage "unknown scale" "scale 'cubic'" --vary writeback.timeout=1ms..10ms:cubic:3 "$t0"
usage "zero steps" "steps '0'" --vary writeback.timeout=1ms..10ms:lin:0 "$t0"
usage "bad unit" "'10xs' is not a duration" --vary writeback.timeout=10xs..50ms "$t0"
usage "ratio above 1" "'1.5' is not a ratio" --vary noprogress.wake_efficiency=0.1..1.5 "$t0"
usage "wake flag 2" "'2' is above 1" --vary isolated.wake=0,2 "$t0"
usage "fractional count" "not a whole number" --vary writeback.pages_per_waiter=1.5,2 "$t0"
usage "range and list" "mixes a range and a list" --vary writeback.timeout=1ms..2ms,3ms "$t0"
usage "key twice" "given twice" --vary isolated.wake=0,1 --vary isolated.wake=1 "$t0"
usage "--set and --vary" "both --set and --vary" --vary isolated.wake=0,1 --set isolated.wake=1 "$t0"
usage "--set unknown" "unknown parametric setting" --vary isolated.wake=0,1 --set frob=1 "$t0"
usage "--set bad value" "bad value in 'writeback.pages_per_waiter=abc'" --vary isolated.wake=0,1 \
	--set writeback.pages_per_waiter=abc "$t0"
usage "no --vary" "at least one --vary" "$t0"
usage "grid too big" "more than 100000 points" --vary writeback.timeout=1ms..2ms:lin:1000 \
	--vary isolated.timeout=1ms..2ms:lin:1000 "$t0"
usage "lhs without N" "lhs wants a number" --vary isolated.wake=0,1 --sample lhs "$t0"
usage "unknown sample" "--sample wants grid" --vary isolated.wake=0,1 --sample sobol:8 "$t0"
usage "bad objective" "--objective wants" --vary isolated.wake=0,1 --objective best "$t0"
usage "weighted above 1" "weighted:ALPHA wants" --vary isolated.wake=0,1 --objective weighted:2 "$t0"
usage "-j 0" "--jobs wants" --vary isolated.wake=0,1 -j 0 "$t0"
usage "no trace" "no TRACE" --vary isolated.wake=0,1

# run NAME ARGS...: the sweep's JSON in $tmp/NAME.json
run() {
	local name=$1; shift
	"$RR_BIN" sweep --json -q "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	local rc=$?
	[ $rc -eq 0 ] && ok "sweep $name: exit 0" ||
		not_ok "sweep $name: exit 0" "exit $rc: $(head -c 300 "$tmp/$name.err")"
}
chk() {	# chk ARGS...: one sweep_check.py run, reported
	tap_check "$tmp/chk.$RANDOM" "$helper" "$@"
}

# A grid over both bundled traces: isolated.* is what they throttle on.
g1=isolated.timeout=1ms..64ms:log:4
g2=isolated.wake=0,1
g3=noprogress.wake_efficiency=0.05..0.25:lin:2
run grid "${traces[@]}" --vary $g1 --vary $g2 --vary $g3 -j 2 --csv "$tmp/grid.csv"
chk grid "$tmp/grid.json" $g1 $g2 $g3
chk sums "$tmp/grid.json"
chk pareto "$tmp/grid.json"
chk objective "$tmp/grid.json"
chk csv "$tmp/grid.json" "$tmp/grid.csv"

# The other objectives on the same figures: merge re-decides without replaying.
for obj in min-stall min-p99 min-waste weighted:0.5 weighted:0.9; do
	"$RR_BIN" merge --json --objective $obj --bad-margin 5 "$tmp/grid.json" \
		>"$tmp/obj.json" 2>"$tmp/obj.err" ||
		not_ok "merge --objective $obj" "$(head -c 200 "$tmp/obj.err")"
	chk objective "$tmp/obj.json"
done

# -j1 and -j2: the same bytes
run j1 "${traces[@]}" --vary $g1 --vary $g2 --vary $g3 -j 1
cmp -s "$tmp/j1.json" "$tmp/grid.json" && ok "sweep -j1 and -j2: identical JSON" ||
	not_ok "sweep -j1 and -j2: identical JSON" "$(cmp "$tmp/j1.json" "$tmp/grid.json")"

# Point 0 is `replay -P mainline`; a sweep point is `replay -P parametric` with
# the settings the JSON gives it (in ns: no rounding between the two).
"$RR_BIN" replay --json "${traces[@]}" -P mainline >"$tmp/main.json" 2>/dev/null
chk mainline "$tmp/grid.json" "$tmp/main.json"
pid=5
sets=$(python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))["results"][0]["points"][int(sys.argv[2])]["settings"]
print(" ".join("--set %s=%s" % (k, ("%dns" % v) if k.endswith("timeout") else v)
               for k, v in sorted(p.items())))' \
	"$tmp/grid.json" $pid)
# shellcheck disable=SC2086
"$RR_BIN" replay --json "${traces[@]}" -P parametric $sets >"$tmp/point.json" 2>/dev/null
chk point "$tmp/grid.json" $pid "$tmp/point.json"

# Jiffies: 1j..4j at each trace's own HZ (inputs[].hz, else the replay's)
run jif "$t0" --vary isolated.timeout=1j..4j:lin:4
chk grid "$tmp/jif.json" isolated.timeout=1j..4j:lin:4

# Jiffies at each trace's own HZ: the same scenario generated at HZ 250 and
# 1000; each point must equal `replay -P parametric --set KEY=Nj` (which
# resolves jiffies per trace on its own), and hz_mixed must say so.
if [ -x "${RR_GEN:-}" ]; then
	sed 's/^hz 250$/hz 1000/' tests/gen/scenarios/numa2.scn >"$tmp/hz1000.scn"
	"$RR_GEN" -o "$tmp/hz250.dat" tests/gen/scenarios/numa2.scn >/dev/null 2>&1
	"$RR_GEN" -o "$tmp/hz1000.dat" "$tmp/hz1000.scn" >/dev/null 2>&1
	hzt=("$tmp/hz250.dat" "$tmp/hz1000.dat")
	run hz "${hzt[@]}" --vary writeback.timeout=2j,10j --vary isolated.timeout=1j..4j:lin:2
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["results"][0]
assert [t["hz"] for t in s["traces"]] == [250, 1000] and s["hz_mixed"]' "$tmp/hz.json" &&
		ok "hz: traces of HZ 250 and 1000, hz_mixed" || not_ok "hz: traces of HZ 250 and 1000, hz_mixed"
	# grid order: the last --vary fastest
	pid=0
	for wb in 2j 10j; do
		for iso in 1j 4j; do
			pid=$((pid + 1))
			"$RR_BIN" replay --json -q "${hzt[@]}" -P parametric --set writeback.timeout=$wb \
				--set isolated.timeout=$iso >"$tmp/hzr.json" 2>/dev/null
			chk point "$tmp/hz.json" $pid "$tmp/hzr.json"
		done
	done
else
	skip "hz: jiffies per trace" "rr-gen not built (RR_GEN)"
fi

# Latin hypercube: one point per stratum of each range; a seed repeats it
l1=isolated.timeout=1ms..100ms:log
l2=noprogress.wake_efficiency=0..1
l3=writeback.timeout=10ms..500ms:lin
run lhs "$t0" --sample lhs:12 --seed 7 --vary $l1 --vary $l2 --vary $l3 --vary isolated.wake=0,1
chk lhs "$tmp/lhs.json" 12 $l1 $l2 $l3 isolated.wake=0,1
run lhs2 "$t0" --sample lhs:12 --seed 7 --vary $l1 --vary $l2 --vary $l3 --vary isolated.wake=0,1
run lhs3 "$t0" --sample lhs:12 --seed 8 --vary $l1 --vary $l2 --vary $l3 --vary isolated.wake=0,1
cmp -s "$tmp/lhs.json" "$tmp/lhs2.json" && ! cmp -s "$tmp/lhs.json" "$tmp/lhs3.json" &&
	ok "lhs: the same seed gives the same points, another seed others" ||
	not_ok "lhs: the same seed gives the same points, another seed others"
run rnd "$t0" --sample random:9 --vary $l1 --vary $l2
n=$(python3 -c 'import json,sys
print(len(json.load(open(sys.argv[1]))["results"][0]["points"]))' "$tmp/rnd.json")
[ "$n" = 10 ] && ok "random:9: 9 points and mainline" ||
	not_ok "random:9: 9 points and mainline" "$n"
chk pareto "$tmp/lhs.json"
chk objective "$tmp/lhs.json"

# Monotone in each timeout where the model guarantees it (docs/model.md
# section 6: 2, 5, 25 and 125 jiffies, other settings at mainline's), on
# traces that hold the key's throttles, so stall or waste moves somewhere (a
# sweep where nothing moves is a skip): the bundled ones throttle on
# WRITEBACK and ISOLATED only; CONGESTED and NOPROGRESS come from generated
# scenarios. np-inside is rc516 with its NOPROGRESS throttles inside their
# episodes (where the kernel calls them from), so their timeout is stall.
for key in isolated.timeout writeback.timeout; do
	run mono "${traces[@]}" --vary $key=2j,5j,25j,125j
	chk monotone "$tmp/mono.json" $key
done
if [ -x "${RR_GEN:-}" ]; then
	sed -e 's/at=41000 reason=NOPROGRESS/at=20000 reason=NOPROGRESS/' \
	    -e 's/at=51000 reason=NOPROGRESS/at=30000 reason=NOPROGRESS/' \
		tests/gen/scenarios/rc516.scn >"$tmp/np-inside.scn"
	for scn in tests/gen/scenarios/{rc516,numa4,legacy510}.scn "$tmp/np-inside.scn"; do
		"$RR_GEN" -o "$tmp/mono-$(basename "$scn" .scn).dat" "$scn" >/dev/null 2>&1 ||
			not_ok "rr-gen $(basename "$scn")"
	done
	for kt in writeback.timeout:rc516,legacy510 isolated.timeout:numa4,legacy510 \
		  congested.timeout:numa4,legacy510 noprogress.timeout:rc516,np-inside; do
		key=${kt%%:*}
		IFS=, read -r -a names <<<"${kt#*:}"
		gt=()
		for n in "${names[@]}"; do gt+=("$tmp/mono-$n.dat"); done
		run mono-gen "${gt[@]}" --vary $key=2j,5j,25j,125j
		chk monotone "$tmp/mono-gen.json" $key
	done
else
	skip "monotone on generated traces (congested, noprogress)" "rr-gen not built (RR_GEN)"
fi

# The table: within 100 columns, mainline and the recommendation marked
"$RR_BIN" sweep "${traces[@]}" --vary $g1 --vary $g2 >"$tmp/table.txt" 2>"$tmp/table.err"
rc=$?
width=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$tmp/table.txt")
[ $rc -eq 0 ] && [ "$width" -le 100 ] && ok "sweep table: $width columns (<= 100)" ||
	not_ok "sweep table: <= 100 columns" "exit $rc, widest $width"
grep -qE '^M.{2} +0 ' "$tmp/table.txt" && grep -qE '^recommended: point [0-9]+' "$tmp/table.txt" &&
	grep -qE '^(not )?flagged' "$tmp/table.txt" &&
	ok "sweep table: mainline row, recommendation, robustness verdict" ||
	not_ok "sweep table: mainline row, recommendation, robustness verdict"
"$RR_BIN" sweep --all "${traces[@]}" --vary $g1 --vary $g2 >"$tmp/all.txt" 2>/dev/null
rows=$(grep -cE '^[M ][* ][R ] +[0-9]+ ' "$tmp/all.txt")
[ "$rows" -eq 9 ] && ok "sweep --all: a row for each of the 8 points and mainline" ||
	not_ok "sweep --all: a row for each of the 8 points and mainline" "$rows rows"
[ ! -s "$tmp/table.err" ] && ok "sweep: no progress bar when stderr is not a terminal" ||
	not_ok "sweep: no progress bar when stderr is not a terminal" "$(head -c 200 "$tmp/table.err")"

# --plot: an SVG document marking mainline, the recommendation and the front
"$RR_BIN" sweep -q --json "${traces[@]}" --vary $g1 --vary $g2 --plot "$tmp/plot.svg" \
	>"$tmp/plot.json" 2>&1
desc="sweep --plot: SVG with the front, mainline and the recommendation"
python3 - "$tmp/plot.svg" "$tmp/plot.json" <<'PY' && ok "$desc" || not_ok "$desc"
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
rec = json.load(open(sys.argv[2]))["results"][0]["recommended"]
assert root.tag.endswith("svg") and "Pareto front" in text and "mainline" in text
assert rec == 0 or "recommended (%d)" % rec in text, text
PY

# ... and a progress bar when stderr is a terminal (script(1) gives it one)
if command -v script >/dev/null; then
	script -qec "'$RR_BIN' sweep '$t0' --vary isolated.wake=0,1 -o '$tmp/tty.txt'" \
		"$tmp/typescript" >/dev/null 2>&1
	grep -q 'sweep \[#*' "$tmp/typescript" && grep -q '3/3 replays' "$tmp/typescript" &&
		! grep -q replays "$tmp/tty.txt" &&
		ok "sweep: a progress bar on a terminal's stderr, not in the report" ||
		not_ok "sweep: a progress bar on a terminal's stderr, not in the report"
else
	skip "sweep: progress bar on a terminal" "script(1) missing"
fi

# Schema: sweep and merge documents validate
if python3 -c 'import jsonschema' 2>/dev/null; then
	for name in grid lhs obj; do
		python3 tests/cli/report_schema_check.py schema docs/reclaim-replay-report.schema.json \
			"sweep-$name" "$tmp/$name.json" >"$tmp/schema.$name" 2>"$tmp/schema.$name.err"
		tap_report "$tmp/schema.$name"
	done
	# and the schema refuses what it should
	python3 - docs/reclaim-replay-report.schema.json "$tmp/grid.json" <<'PY' &&
import copy, json, sys, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def bad(f):
    d = copy.deepcopy(doc)
    f(d["results"][0])
    try:
        jsonschema.validate(d, schema)
    except jsonschema.ValidationError:
        return True
    return False
assert bad(lambda s: s["points"][1]["totals"].__setitem__("stall_ns", "12"))
assert bad(lambda s: s.pop("pareto_front"))
assert bad(lambda s: s["sample"].__setitem__("method", "sobol"))
assert bad(lambda s: s["robustness"][0].__setitem__("rank", 0))
assert bad(lambda s: s.__setitem__("mainline", 3))
PY
	ok "schema rejects a sweep with a string stall, no front, an unknown method, rank 0" ||
		not_ok "schema rejects a sweep with a string stall, no front, an unknown method, rank 0"
else
	skip "sweep schema" "python3 jsonschema module missing"
fi

tap_done
