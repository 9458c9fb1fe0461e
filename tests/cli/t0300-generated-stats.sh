#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Generated traces: for every rr-gen scenario, `stats --json` must find the
# figures rr-gen computed from the scenario itself (NAME.expected.json, see
# tests/gen/README.md): event counts, lost events, per-node throttles, scan
# sums and episode counts, plus the per-scenario checks in
# compare_expected.py. The same trace converted to trace.dat v7 (compressed)
# must give the same JSON apart from the file's path, format and size.
# RR_GEN names the generator (default build/rr-gen).
set -u
. "$(dirname "$0")/../lib.sh"
RR_GEN=${RR_GEN:-$TOP/build/rr-gen}
CMP=$(dirname "$0")/compare_expected.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# report FILE: turn compare_expected.py lines into numbered TAP lines; a
# helper that died or said nothing is a failure, not a silent pass.
report() {
	local res desc detail
	if [ ! -s "$1" ]; then
		not_ok "$(basename "$(dirname "$1")"): compare_expected.py output" "no checks ran"
		return
	fi
	while IFS=$'\t' read -r res desc detail; do
		if [ "$res" = ok ]; then
			ok "$desc"
		else
			not_ok "$desc" "$detail"
		fi
	done <"$1"
}

if [ ! -x "$RR_GEN" ]; then
	skip "generated traces" "no rr-gen at $RR_GEN (make build/rr-gen)"
	tap_done; exit
fi
if [ ! -x "$RR_BIN" ]; then
	skip "generated traces" "no reclaim-replay at $RR_BIN (make)"
	tap_done; exit
fi
have_convert=1
command -v trace-cmd >/dev/null 2>&1 || have_convert=0

# check_trace NAME DIR: stats of DIR/NAME.dat against DIR/NAME.expected.json, then
# of its v7 conversion against the v6 JSON.
check_trace() {
	local n=$1 d=$2 rc
	"$RR_BIN" stats --json "$d/$n.dat" >"$d/v6.json" 2>"$d/v6.err"
	rc=$?
	if [ $rc -ne 0 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$d/v6.err"; then
		not_ok "$n: stats --json exits 0" "exit $rc: $(head -c 300 "$d/v6.err")"
		return
	fi
	ok "$n: stats --json exits 0"
	python3 "$CMP" expect "$n" "$d/$n.expected.json" "$d/v6.json" >"$d/cmp.out" 2>"$d/cmp.err" ||
		not_ok "$n: compare_expected.py exits 0" "$(tail -n 3 "$d/cmp.err")"
	report "$d/cmp.out"

	if [ $have_convert -eq 0 ]; then
		skip "$n: v7 stats identical to v6" "no trace-cmd"
		return
	fi
	if ! trace-cmd convert --file-version 7 -i "$d/$n.dat" -o "$d/${n}7.dat" \
	     >"$d/conv.out" 2>&1; then
		not_ok "$n: trace-cmd convert --file-version 7" "$(head -c 300 "$d/conv.out")"
		return
	fi
	"$RR_BIN" stats --json "$d/${n}7.dat" >"$d/v7.json" 2>"$d/v7.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$n: v7 stats --json exits 0" "exit $rc: $(head -c 300 "$d/v7.err")"
		return
	fi
	python3 "$CMP" same "$n" "$d/v6.json" "$d/v7.json" >"$d/cmp7.out" 2>"$d/cmp.err" ||
		not_ok "$n: compare_expected.py exits 0" "$(tail -n 3 "$d/cmp.err")"
	report "$d/cmp7.out"
}

for scn in "$TOP"/tests/gen/scenarios/*.scn; do
	n=$(basename "$scn" .scn)
	d=$tmp/$n
	mkdir -p "$d"
	if ! "$RR_GEN" -o "$d/$n.dat" -e "$d/$n.expected.json" "$scn" >"$d/gen.out" 2>&1; then
		not_ok "$n: rr-gen writes the trace" "$(head -c 300 "$d/gen.out")"
		continue
	fi
	check_trace "$n" "$d"
done

# Scale mode (many tasks on 4 cpus at once, time extends, a trace cut at an
# exact event count); T0300_SCALE=0 leaves it out.
scale=${T0300_SCALE:-200000}
if [ "$scale" -gt 0 ]; then
	d=$tmp/scale
	mkdir -p "$d"
	if "$RR_GEN" --scale "$scale" -o "$d/scale.dat" -e "$d/scale.expected.json" \
	   >"$d/gen.out" 2>&1; then
		check_trace scale "$d"
	else
		not_ok "scale: rr-gen --scale $scale" "$(head -c 300 "$d/gen.out")"
	fi
fi

tap_done
