#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ingest speed and memory of `reclaim-replay stats` against a bare
# libtracecmd loop over the same file, measured in the same run; best of
# BENCH_RUNS. Targets (docs/performance.md): stats >= 90% of the bare loop's
# records/s; peak RSS <= 64 bytes per kept event + 64 MiB.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build}
RR_BIN=${RR_BIN:-$top/$O/reclaim-replay}
RR_GEN=${RR_GEN:-$top/$O/rr-gen}
BARE_LOOP=${BARE_LOOP:-$top/$O/bare-loop}
EVENTS=${BENCH_EVENTS:-3000000}
RUNS=${BENCH_RUNS:-3}
dir=$top/$O/bench
mkdir -p "$dir"
big=$dir/scale-$EVENTS.dat

if [ ! -s "$big" ]; then
	echo "generating $big ($EVENTS events) with $RR_GEN --scale"
	"$RR_GEN" --scale "$EVENTS" -o "$big" >/dev/null
fi

# best_of CMD...: prints "seconds peak_kib" of the fastest run
best_of() {
	local best="" mem=0 t m
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" >"$dir/cmd.out" 2>"$dir/cmd.err"
		read -r t m <"$dir/time.out"
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
		[ "$m" -gt "$mem" ] && mem=$m
	done
	echo "$best $mem"
}

read -r bare_s bare_kib < <(best_of "$BARE_LOOP" "$big")
records=$(awk '{print $1; exit}' "$dir/cmd.out")
read -r stats_s stats_kib < <(best_of "$RR_BIN" stats --json -q "$big")
used=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["inputs"][0]["records"]["used"])' "$dir/cmd.out")

awk -v n="$records" -v used="$used" -v bs="$bare_s" -v ss="$stats_s" -v bk="$bare_kib" \
    -v sk="$stats_kib" -v f="$big" 'BEGIN {
	br = n / (bs > 0 ? bs : 1e-9); sr = n / (ss > 0 ? ss : 1e-9)
	limit = (64 * used + 64 * 1048576) / 1024
	printf "trace: %s (%d records, %d kept in the model)\n", f, n, used
	printf "%-34s %10s %14s %12s\n", "", "seconds", "records/s", "peak MiB"
	printf "%-34s %10.2f %14.0f %12.1f\n", "bare libtracecmd loop (baseline)", bs, br, bk / 1024
	printf "%-34s %10.2f %14.0f %12.1f\n", "reclaim-replay stats", ss, sr, sk / 1024
	printf "ingest ratio stats/bare: %.3f (target >= 0.90): %s\n", sr / br, sr / br >= 0.9 ? "met" : "NOT met"
	printf "peak memory: %.1f MiB, limit 64 B x %d kept + 64 MiB = %.1f MiB: %s\n", sk / 1024, used,
		limit / 1024, sk <= limit ? "met" : "NOT met"
	printf "bytes per kept event above the bare loop: %.1f\n", (sk - bk) * 1024 / (used > 0 ? used : 1)
}'
