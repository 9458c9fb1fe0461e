#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`, sweep part: throughput and scaling of `reclaim-replay sweep`,
# as ratios against baselines measured in the same run (no absolute limits):
#
#  - decode: a sweep of one point (mainline and one parametric replay) on the
#    same traces, the cost every sweep pays once;
#  - a single replay: (sweep of P points at -j1 - decode) / P;
#  - throughput: points x events per second of the replay phase at -jN,
#    and its ratio to a single replay's events per second;
#  - scaling: the replay phase at -j1 over that at -jK, K = 1, 2, 4 .. nproc.
#
# Traces: traces/*.dat (SWEEP_BENCH_TRACES overrides); best of BENCH_RUNS.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build}
RR_BIN=${RR_BIN:-$top/$O/reclaim-replay}
RUNS=${BENCH_RUNS:-3}
cpus=$(nproc)
points=${SWEEP_BENCH_POINTS:-$((cpus * 4 > 8 ? cpus * 4 : 8))}
# shellcheck disable=SC2206
traces=(${SWEEP_BENCH_TRACES:-$top/traces/*.dat})

# best SECONDS of RUNS runs of CMD... (bash's microsecond clock)
best() {
	local b="" t0 t1 t
	for _ in $(seq "$RUNS"); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		t=$(awk "BEGIN{print $t1 - $t0}")
		if [ -z "$b" ] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
	done
	echo "$b"
}

events=$("$RR_BIN" sweep --json -q -j 1 "${traces[@]}" --vary isolated.wake=1 |
	python3 -c 'import json,sys; print(sum(t["events"] for t in json.load(sys.stdin)["results"][0]["traces"]))')
decode=$(best "$RR_BIN" sweep -q -j 1 "${traces[@]}" --vary isolated.wake=1)
vary=(--vary "isolated.timeout=1ms..100ms:log:$points")
echo "sweep: ${#traces[@]} traces, $events events, $points points; best of $RUNS"
printf '  decode + 2 replays (1-point sweep): %.3f s\n' "$decode"
printf '  %-8s %10s %12s %10s %22s\n' threads "total s" "replays s" speedup "points x events / s"
t1=""
k=1
while :; do
	t=$(best "$RR_BIN" sweep -q -j "$k" "${traces[@]}" "${vary[@]}")
	# the replay phase: what the sweep costs beyond the 1-point sweep, P - 1 points
	r=$(awk -v t="$t" -v d="$decode" 'BEGIN{x = t - d; print (x > 0.001) ? x : 0.001}')
	[ -n "$t1" ] || t1=$r
	awk -v k="$k" -v t="$t" -v r="$r" -v t1="$t1" -v p="$points" -v e="$events" \
		'BEGIN{printf "  %-8d %10.3f %12.3f %9.2fx %22.3g\n", k, t, r, t1 / r, (p - 1) * e / r}'
	[ "$k" -ge "$cpus" ] && break
	k=$((k * 2 > cpus ? cpus : k * 2))
done
awk -v t1="$t1" -v e="$events" -v r="$r" -v p="$points" -v k="$k" 'BEGIN{
	s = t1 / (p - 1)
	printf "  single replay (from -j1): %.4f s, %.3g events/s; -j%d: %.2fx that rate\n",
		s, e / s, k, ((p - 1) * e / r) / (e / s)}'
