#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ftrace text reader must give the same statistics as the trace.dat
# reader: for each real recording, `trace-cmd report -t` (ns timestamps)
# must match exactly, and the default `trace-cmd report` (us timestamps)
# must match in every count and page sum, with times within 1 us per event.
#
# Environment: RR_BIN (default: tests/lib.sh's, the build in $O),
# RR_T0200_TRACES (space-separated .dat paths; default: the bundled set, else
# $RR_SHARED/traces).

set -u
. "$(dirname "$0")/../lib.sh"
bin=$RR_BIN
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t0200.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# lib.sh's TAP lines, closed by the "1..N" plan; exit 1 if any check failed
finish() {
	tap_done
	exit
}

# Compare two `stats --json` outputs. $3: "exact" or "us".
compare_json() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys

dat = json.load(open(sys.argv[1]))
txt = json.load(open(sys.argv[2]))
mode = sys.argv[3]
problems = []

# Describe the input, not the decoded trace.
IGNORED_INPUT_KEYS = {"path", "format", "size_bytes", "sha256", "missing_fields"}
# One timestamp or one interval: each end is off by < 0.5 us in us mode.
SINGLE_NS = {"max_ns", "p50_ns", "p90_ns", "p99_ns", "first_ts_ns", "last_ts_ns",
             "duration_ns"}

def intervals(inp):
    # Every begin/end record can add 1 us of rounding to a sum of intervals.
    ev = inp.get("events", {})
    return max(1, sum(c for k, c in ev.items()
                      if k.endswith(("_begin", "_end", "_wake", "_sleep", "throttled"))))

def tolerance(key, n_events):
    if mode == "exact" or not key.endswith("_ns"):
        return 0
    return 1000 if key in SINGLE_NS else 1000 * n_events

def cmp(a, b, path, key, n_events):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                problems.append(f"{path}.{k}: only in {'text' if k in b else 'trace.dat'}")
            else:
                cmp(a[k], b[k], f"{path}.{k}", k, n_events)
    elif isinstance(a, list) and isinstance(b, list):
        if key == "top_tasks":
            cmp_tasks(a, b, path, n_events)
            return
        if len(a) != len(b):
            problems.append(f"{path}: {len(a)} vs {len(b)} entries")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            cmp(x, y, f"{path}[{i}]", key, n_events)
    elif isinstance(a, bool) or not isinstance(a, (int, float)) or \
            not isinstance(b, (int, float)):
        if a != b:
            problems.append(f"{path}: {a!r} vs {b!r}")
    elif abs(a - b) > tolerance(key, n_events):
        problems.append(f"{path}: {a} vs {b} (tolerance {tolerance(key, n_events)})")

def cmp_tasks(a, b, path, n_events):
    # With us timestamps near-equal stalls may swap places, or swap the last
    # place of the list: match tasks by pid.
    ta = {t["pid"]: t for t in a}
    tb = {t["pid"]: t for t in b}
    tol = tolerance("stall_ns", n_events)
    for pid in sorted(set(ta) | set(tb)):
        if pid in ta and pid in tb:
            cmp(ta[pid], tb[pid], f"{path}[pid {pid}]", "", n_events)
            continue
        t, other = (ta[pid], b) if pid in ta else (tb[pid], a)
        floor = min((x["stall_ns"] for x in other), default=0)
        if mode == "exact" or t["stall_ns"] > floor + tol:
            problems.append(f"{path}: pid {pid} listed for one reader only")
    if [t["pid"] for t in a] != [t["pid"] for t in b] and mode == "exact":
        problems.append(f"{path}: order differs")

def normalize_warnings(doc, inp):
    path = inp.get("path", "")
    # The text cannot show fields its print format omits (zid) or prints
    # symbolically with kernel-specific bits (gfp masks): those are
    # reported as missing fields, which trace.dat has.
    return sorted(w.replace(path, "INPUT") for w in doc.get("warnings", [])
                  if "has no field" not in w)

din, tin = dat["inputs"][0], txt["inputs"][0]
n_events = intervals(din)
for k in sorted(set(din) | set(tin)):
    if k in IGNORED_INPUT_KEYS:
        continue
    if k not in din or k not in tin:
        problems.append(f"inputs[0].{k}: only in one")
        continue
    cmp(din[k], tin[k], f"inputs[0].{k}", k, n_events)
# A field trace.dat lacks is lacking from the text too.
for f in din.get("missing_fields", {}):
    if f not in tin.get("missing_fields", {}):
        problems.append(f"missing field {f} not reported for text")
cmp(dat.get("results"), txt.get("results"), "results", "results", n_events)
wd, wt = normalize_warnings(dat, din), normalize_warnings(txt, tin)
if wd != wt:
    problems.append(f"warnings differ: {sorted(set(wd) ^ set(wt))[:3]}")

for p in problems[:10]:
    print("#   " + p)
if len(problems) > 10:
    print(f"#   ... and {len(problems) - 10} more")
sys.exit(1 if problems else 0)
EOF
}

# stats --json of one input; "" on failure, with stderr kept for the log.
stats() {
	"$bin" stats --json "$1" >"$2" 2>"$2.err"
}

check_trace() {
	local dat=$1 name mode opt txt
	name=$(basename "$dat" .dat)

	if ! stats "$dat" "$tmp/$name.dat.json"; then
		not_ok "$name: stats on trace.dat failed: $(head -1 "$tmp/$name.dat.json.err")"
		return
	fi
	for mode in exact us; do
		opt=-t
		[ "$mode" = us ] && opt=
		txt="$tmp/$name.$mode.txt"
		if ! trace-cmd report $opt -i "$dat" >"$txt" 2>"$tmp/report.err"; then
			not_ok "$name: trace-cmd report $opt failed: $(head -1 "$tmp/report.err")"
			continue
		fi
		if ! stats "$txt" "$tmp/$name.$mode.json"; then
			not_ok "$name: stats on 'trace-cmd report $opt' text failed: $(head -1 "$tmp/$name.$mode.json.err")"
		elif compare_json "$tmp/$name.dat.json" "$tmp/$name.$mode.json" "$mode"; then
			if [ "$mode" = exact ]; then
				ok "$name: report -t text gives the trace.dat statistics exactly"
			else
				ok "$name: report (us) text gives the same counts, times within 1 us/event"
			fi
		else
			not_ok "$name: text ($mode timestamps) and trace.dat statistics differ"
		fi
		rm -f "$txt"
	done
}

if [ ! -x "$bin" ]; then
	not_ok "reclaim-replay binary '$bin' not found (set RR_BIN)"
	finish
fi
if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "text equivalence" "trace-cmd or python3 not installed"
	finish
fi

if [ -n "${RR_T0200_TRACES:-}" ]; then
	read -r -a traces <<<"$RR_T0200_TRACES"
else
	shopt -s nullglob
	traces=("$TOP"/traces/*.dat)
	[ ${#traces[@]} -eq 0 ] && traces=("$SHARED"/traces/*.dat)
	shopt -u nullglob
fi
if [ ${#traces[@]} -eq 0 ]; then
	skip "text equivalence" "no traces/*.dat nor $SHARED/traces/*.dat to convert"
	finish
fi

for dat in "${traces[@]}"; do
	check_trace "$dat"
done
finish
