#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# replay: `recorded` reproduces `stats` and the recorder's manifest exactly
# (identity), `none` never sleeps, `legacy-broken` sleeps whole timeouts,
# `parametric` is monotone in each timeout (with a strict change somewhere, or
# a skip), option errors exit 2, and a
# what-if on a generated 5.10 (legacy) trace. Checks live in replay_checks.py.
# RR_GEN names the generator (default build/rr-gen).
set -u
. "$(dirname "$0")/../lib.sh"
RR_GEN=${RR_GEN:-$TOP/build/rr-gen}
CHK=$(dirname "$0")/replay_checks.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t_start=$(date +%s.%N)

# run OUT ARGS...: reclaim-replay ARGS > OUT; 0 when it exited 0 without a
# sanitizer report, else a not ok line and 1
run() {
	local o=$1 rc; shift
	"$RR_BIN" "$@" >"$o" 2>"$o.err"
	rc=$?
	if [ $rc -ne 0 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$o.err"; then
		not_ok "reclaim-replay $* exits 0" "exit $rc: $(head -c 300 "$o.err")"
		return 1
	fi
	return 0
}

if [ ! -x "$RR_BIN" ]; then
	skip "replay" "no reclaim-replay at $RR_BIN (make)"
	tap_done; exit
fi

# --- identity, none, legacy-broken on every real trace ------------------------
traces=("$TOP"/traces/*.dat)
# an empty or absent shared directory is a skip, never a literal '*.dat'
shopt -s nullglob
shared=("$SHARED"/traces/*.dat)
shopt -u nullglob
if [ ${#shared[@]} -gt 0 ]; then
	traces+=("${shared[@]}")
else
	skip "shared traces: identity, none, legacy-broken" "no trace in $SHARED/traces"
fi
i=0
for f in "${traces[@]}"; do
	i=$((i + 1))
	case $f in "$SHARED"/*) n=shared/$(basename "$f" .dat) ;; *) n=$(basename "$f" .dat) ;; esac
	d=$tmp/t$i
	mkdir -p "$d"
	run "$d/replay.json" replay --json -P recorded -P none -P legacy-broken "$f" || continue
	run "$d/stats.json" stats --json "$f" || continue
	tap_check "$d/id.out" "$CHK" identity "$n" "$d/replay.json" "$d/stats.json"
	man=${f%.dat}.manifest.json
	if [ -f "$man" ]; then
		tap_check "$d/man.out" "$CHK" manifest "$n" "$d/replay.json" "$man"
	else
		skip "$n: recorded replay = manifest" "no $(basename "$man")"
	fi
	tap_check "$d/none.out" "$CHK" none "$n" "$d/replay.json" "$d/stats.json"
	tap_check "$d/whole.out" "$CHK" whole "$n" "$d/replay.json"
	# hand-computed: msleep(100) per recorded ISOLATED throttle (bundled copy)
	[ "$f" = "$TOP/traces/isolated-noswap-a.dat" ] &&
		tap_check "$d/iso.out" "$CHK" isolated "$n" "$d/replay.json" "$d/stats.json"
done

# --- running ahead between decisions changes nothing ---------------------------
# A task runs through its batches and episode edges without yielding to
# others (engine.c, run_task()): they touch only its own state. Yielding
# before every item (RR_REPLAY_YIELD_EACH_ITEM=1, the engine's old walk) must
# give the same figures under every policy, the same validate report, and
# on generated traces the same timeline slices (in another order: only each
# task's own order is promised). A batch whose outcome depended on other
# tasks' progress would differ here.
# gen_into NAME SCN: rr-gen SCN into $tmp/gen/NAME.dat; 0 when written, else
# a not ok line and 1
gen_into() {
	"$RR_GEN" -o "$tmp/gen/$1.dat" "$2" >"$tmp/gen/$1.out" 2>&1 && return 0
	not_ok "$1: rr-gen writes the trace" "$(head -c 300 "$tmp/gen/$1.out")"
	return 1
}
# every scenario, generated once: NAME:PATH (the monotone checks below reuse them)
gen_traces=()
ahead_traces=("${traces[@]}")
if [ -x "$RR_GEN" ]; then
	mkdir -p "$tmp/gen"
	for scn in "$TOP"/tests/gen/scenarios/*.scn; do
		g=$(basename "$scn" .scn)
		if gen_into "$g" "$scn"; then
			gen_traces+=("$g:$tmp/gen/$g.dat")
			ahead_traces+=("$tmp/gen/$g.dat")
		fi
	done
else
	skip "run-ahead on generated traces" "no rr-gen at $RR_GEN"
fi
all_policies=(-P recorded -P none -P legacy-broken -P legacy-intended -P mainline-5.16rc
	      -P mainline -P parametric --set writeback.timeout=5j --set isolated.timeout=1j)
i=0
for f in "${ahead_traces[@]}"; do
	i=$((i + 1))
	case $f in
	"$SHARED"/*) n=shared/$(basename "$f" .dat) ;;
	"$tmp"/*) n=gen/$(basename "$f" .dat) ;;
	*) n=$(basename "$f" .dat) ;;
	esac
	d=$tmp/ahead$i
	mkdir -p "$d"
	# timelines of the generated traces only: a real one's export runs to
	# 100 MB (isolated-noswap-a) and more
	tl_ahead=() tl_each=() what="figures (7 policies) and validate"
	case $n in
	gen/*) tl_ahead=(--export-timeline "$d/ahead.tl") tl_each=(--export-timeline "$d/each.tl")
	   what="figures (7 policies), validate and timeline" ;;
	esac
	run "$d/ahead.json" replay --json "${all_policies[@]}" "${tl_ahead[@]}" "$f" &&
	RR_REPLAY_YIELD_EACH_ITEM=1 run "$d/each.json" replay --json "${all_policies[@]}" \
		"${tl_each[@]}" "$f" &&
	run "$d/ahead.val" validate --json "$f" &&
	RR_REPLAY_YIELD_EACH_ITEM=1 run "$d/each.val" validate --json "$f" || continue
	if ! cmp -s "$d/ahead.json" "$d/each.json"; then
		not_ok "$n: replay figures with and without running ahead" \
			"$(diff "$d/each.json" "$d/ahead.json" | head -c 400)"
	elif ! cmp -s "$d/ahead.val" "$d/each.val"; then
		not_ok "$n: validate report with and without running ahead" \
			"$(diff "$d/each.val" "$d/ahead.val" | head -c 400)"
	elif [ ${#tl_ahead[@]} -gt 0 ] && ! python3 -c 'import json,sys
a, b = (sorted(json.dumps(e, sort_keys=True) for e in json.load(open(p))["traceEvents"]) for p in sys.argv[1:3])
sys.exit(0 if a == b and a else 1)' "$d/ahead.tl" "$d/each.tl"; then
		not_ok "$n: timeline slices with and without running ahead" "the sets differ, or are empty"
	else
		ok "$n: running ahead between decisions: same $what"
	fi
done

# --- parametric: monotone in each timeout --------------------------------------
# docs/model.md section 6: 2, 5, 25 and 125 jiffies, the other settings at
# mainline's. Each key runs on traces that hold its throttles: the bundled
# ones (WRITEBACK on counters-writer, ISOLATED on isolated-noswap-a) and
# generated scenarios (rc516: WRITEBACK and NOPROGRESS; numa4 and legacy510:
# CONGESTED and ISOLATED). rc516's NOPROGRESS sleeps come after the episode
# they end, so they cannot change stall or waste (the check skips there);
# np-inside moves them into the episode, where the kernel calls
# reclaim_throttle(NOPROGRESS) from, so the timeout matters.
f=$TOP/traces/counters-writer.dat
vals="2j 5j 25j 125j"
mono_traces=("counters-writer:$f" "isolated-noswap-a:$TOP/traces/isolated-noswap-a.dat"
	     "${gen_traces[@]}")
if [ -x "$RR_GEN" ]; then
	sed -e 's/at=41000 reason=NOPROGRESS/at=20000 reason=NOPROGRESS/' \
	    -e 's/at=51000 reason=NOPROGRESS/at=30000 reason=NOPROGRESS/' \
		"$TOP/tests/gen/scenarios/rc516.scn" >"$tmp/gen/np-inside.scn"
	gen_into np-inside "$tmp/gen/np-inside.scn" &&
		mono_traces+=("np-inside:$tmp/gen/np-inside.dat")
else
	skip "monotone on generated traces" "no rr-gen at $RR_GEN"
fi
# key: the traces (names above) holding its throttles
declare -A mono_on=(
	[writeback.timeout]="counters-writer rc516 legacy510"
	[isolated.timeout]="isolated-noswap-a numa4 legacy510"
	[congested.timeout]="numa4 legacy510"
	[noprogress.timeout]="rc516 np-inside"
)
for key in writeback.timeout isolated.timeout congested.timeout noprogress.timeout; do
	for want in ${mono_on[$key]}; do
		path=
		for nt in "${mono_traces[@]}"; do
			[ "${nt%%:*}" = "$want" ] && path=${nt#*:}
		done
		[ -n "$path" ] || continue	# generated and rr-gen missing: skipped above
		args=()
		for v in $vals; do args+=(-P parametric --set "$key=$v"); done
		o=$tmp/mono.$want.$key
		if run "$o.json" replay --json "${args[@]}" "$path"; then
			# shellcheck disable=SC2086
			tap_check "$o.out" "$CHK" monotone "$want" "$o.json" "$key" $vals
			[ "$key/$want" = writeback.timeout/counters-writer ] && cp "$o.json" "$tmp/param.json"
		fi
	done
done

# --- option errors ----------------------------------------------------------------
# expect_fail DESC CODE TEXT-IN-MESSAGE ARGS...
expect_fail() {
	local desc=$1 code=$2 text=$3 rc; shift 3
	"$RR_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne "$code" ]; then
		not_ok "$desc: exit $code" "got exit $rc: $(head -c 300 "$tmp/err")"
	elif grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$tmp/err"; then
		not_ok "$desc: no sanitizer report" "$(head -c 300 "$tmp/err")"
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; then
		not_ok "$desc: message names '$text'" "$(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		not_ok "$desc: nothing on stdout" "$(head -c 300 "$tmp/out")"
	else
		ok "$desc: exit $code, $(head -n1 "$tmp/err" | cut -c1-90)"
	fi
}
expect_fail "unknown policy" 2 "frobnicate" replay -P frobnicate "$f"
expect_fail "--set before --policy" 2 "writeback.timeout=1j" \
	replay --set writeback.timeout=1j -P parametric "$f"
expect_fail "bad duration" 2 "writeback.timeout" \
	replay -P parametric --set writeback.timeout=fast "$f"
expect_fail "unknown setting on parametric" 2 "bogus.timeout" \
	replay -P parametric --set bogus.timeout=1j "$f"
expect_fail "--set on none" 2 "none" replay -P none --set writeback.timeout=1j "$f"
# out of range or not a number: refused, never converted (undefined behaviour)
for v in 1e12s 1e300j nan inf -1ms; do
	expect_fail "duration $v" 2 "writeback.timeout=$v" \
		replay -P parametric --set "writeback.timeout=$v" "$f"
done
expect_fail "ratio nan" 2 "noprogress.wake_efficiency=nan" \
	replay -P parametric --set noprogress.wake_efficiency=nan "$f"
expect_fail "no --policy" 2 "--policy" replay "$f"

# --json parses, schema_version 1 (reuses the parametric run)
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d.get("schema_version") == 1 and d.get("command") == "replay" else 1)' \
   "$tmp/param.json" 2>"$tmp/err"; then
	ok "replay --json parses, schema_version 1, command replay"
else
	not_ok "replay --json parses, schema_version 1, command replay" \
		"$(tail -n 2 "$tmp/err") $(head -c 200 "$tmp/param.json")"
fi

# --- what-if on a generated legacy (5.10) trace -------------------------------
if [ ! -x "$RR_GEN" ]; then
	skip "what-if on legacy510" "no rr-gen at $RR_GEN (make build/rr-gen)"
else
	d=$tmp/legacy510
	mkdir -p "$d"
	if ! "$RR_GEN" -o "$d/legacy510.dat" -e "$d/legacy510.expected.json" \
	     "$TOP/tests/gen/scenarios/legacy510.scn" >"$d/gen.out" 2>&1; then
		not_ok "legacy510: rr-gen writes the trace" "$(head -c 300 "$d/gen.out")"
	elif run "$d/plain.out" replay -P mainline -P legacy-broken "$d/legacy510.dat" &&
	     run "$d/replay.json" replay --json -P mainline -P legacy-broken "$d/legacy510.dat" &&
	     run "$d/stats.json" stats --json "$d/legacy510.dat"; then
		ok "legacy510: replay -P mainline -P legacy-broken runs (plain and --json)"
		tap_check "$d/whatif.out" "$CHK" whatif legacy510 "$d/replay.json" "$d/stats.json"
	fi
fi

t_end=$(date +%s.%N)
echo "# t0400 took $(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.1f", b - a }') s"
tap_done
