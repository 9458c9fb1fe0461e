#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Replay figures before and after a change: runs `replay --json` under every
# built-in policy (plus a few --set variants) and `validate --json` with two
# builds over the same traces, and prints identical / different per trace.
# A change to the replay engine that only makes it faster must print
# "identical" everywhere (docs/performance.md).
#
#   tests/bench/replay_identity.sh REF_BIN NEW_BIN [TRACE...]
#
# Without TRACE: traces/*.dat, $RR_SHARED/traces/*.dat (default
# /work/shared/traces, skipped when absent), one trace per
# tests/gen/scenarios/*.scn (generated with $RR_GEN, default
# $(dirname NEW_BIN)/rr-gen, when present) and $SCALE_TRACE when set and
# present. The tool version is removed before comparing (the reports carry
# no timings). Exit 0 when all are identical, 1 otherwise, 2 on usage.
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 REF_BIN NEW_BIN [TRACE...]" >&2
	exit 2
fi
REF=$1
NEW=$2
shift 2
for b in "$REF" "$NEW"; do
	if [ ! -x "$b" ]; then
		echo "$0: $b: not an executable" >&2
		exit 2
	fi
done
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
	traces=("$here"/traces/*.dat)
	shared=${RR_SHARED:-/work/shared}/traces
	[ -d "$shared" ] && traces+=("$shared"/*.dat)
	gen=${RR_GEN:-$(dirname "$NEW")/rr-gen}
	if [ -x "$gen" ]; then
		for scn in "$here"/tests/gen/scenarios/*.scn; do
			out=$tmp/gen-$(basename "$scn" .scn).dat
			if "$gen" -o "$out" "$scn" >/dev/null 2>&1; then
				traces+=("$out")
			else
				echo "$0: $scn: rr-gen failed" >&2
			fi
		done
	fi
	if [ -n "${SCALE_TRACE:-}" ] && [ -f "$SCALE_TRACE" ]; then
		traces+=("$SCALE_TRACE")
	fi
fi

all_policies=(-P recorded -P none -P legacy-broken -P legacy-intended -P mainline-5.16rc
	      -P mainline -P parametric)
variants=(
	"${all_policies[*]}"
	"-P parametric --set isolated.timeout=10ms --set writeback.pages_per_waiter=8"
	"-P parametric --set writeback.timeout=20ms --set noprogress.wake_efficiency=0.5 --set isolated.wake=0"
	"-P legacy-intended --set congestion.nr_requests=16 -P parametric --set noprogress.timeout=5j --set congested.timeout=3j"
)

# The report without what differs between builds that replay alike.
normalize() {
	python3 -c '
import json, sys
try:
	d = json.load(sys.stdin)
except ValueError:
	print("not json")
	sys.exit(0)
d.pop("tool", None)
json.dump(d, sys.stdout, sort_keys=True, indent=0)
'
}

run() {	# BIN OUT ARGS...
	local bin=$1 out=$2
	shift 2
	"$bin" "$@" >"$out.raw" 2>"$out.err"
	echo "exit $?" >"$out"
	normalize <"$out.raw" >>"$out"
	# paths of generated traces differ per run of this script only
	sed -i "s|$tmp/||g" "$out"
}

fail=0
for tr in "${traces[@]}"; do
	verdict=identical
	i=0
	for v in "${variants[@]}" validate; do
		i=$((i + 1))
		if [ "$v" = validate ]; then
			args=(validate --json -q "$tr")
		else
			# shellcheck disable=SC2206
			args=(replay --json -q $v "$tr")
		fi
		run "$REF" "$tmp/ref.$i" "${args[@]}"
		run "$NEW" "$tmp/new.$i" "${args[@]}"
		if ! cmp -s "$tmp/ref.$i" "$tmp/new.$i"; then
			verdict="different (${args[*]})"
			fail=1
		fi
	done
	printf '%-60s %s\n' "$(basename "$tr")" "$verdict"
done
exit $fail
