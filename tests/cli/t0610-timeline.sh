#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --export-timeline FILE.json (Chrome Trace Event format) on replay and
# compare. The UI is not reachable offline, so tests/cli/timeline_check.py
# checks the structure: valid JSON, the fields each phase needs, one process
# per (policy, node) and one named thread per task, slices nested per
# thread, microsecond times with exactly three (ns) decimals. For `recorded`
# the slice counts must equal `stats --json` (another code path), the
# throttle time the manifest's usec_delayed sums, the episode time its
# sum_duration_us; on rr-gen's lost.scn the lost-event instants must carry
# the scenario's loss counts.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
checker=tests/cli/timeline_check.py
pols=(-P legacy-broken -P parametric --set isolated.timeout=10ms)
traces=(traces/*.dat)

# timeline NAME "TRACE..." CHECKER-ARGS... -- COMMAND-ARGS...
timeline() {
	local name=$1 trace=(); shift
	read -ra trace <<<"$1"
	shift
	local cargs=()
	while [ "$1" != "--" ]; do cargs+=("$1"); shift; done
	shift
	if ! "$RR_BIN" "$@" "${trace[@]}" -q --export-timeline "$tmp/$name.tl.json" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" ||
	   ! "$RR_BIN" "$@" "${trace[@]}" -q --json >"$tmp/$name.json" 2>>"$tmp/$name.err"; then
		not_ok "$name: exits 0 with --export-timeline" "$(head -c 300 "$tmp/$name.err")"
		return
	fi
	ok "$name: exits 0 with --export-timeline"
	tap_check "$tmp/$name.chk" "$checker" "$tmp/$name.tl.json" "$tmp/$name.json" "${cargs[@]}"
}

for dat in traces/*.dat; do
	base=$(basename "$dat" .dat)
	man=${dat%.dat}.manifest.json
	"$RR_BIN" stats --json -q "$dat" >"$tmp/$base.stats.json"
	margs=()
	[ -f "$man" ] && margs=(--manifest "$man")
	timeline "replay-$base" "$dat" --stats "$tmp/$base.stats.json" "${margs[@]}" -- \
		replay "${pols[@]}"
done
timeline compare-writer traces/counters-writer.dat -- compare -P recorded -P mainline -P none
# Several inputs: processes numbered on, named with the trace file.
timeline compare-all "${traces[*]}" -- compare -P recorded -P mainline

# Lost events: rr-gen's lost.scn, whose expected.json holds the loss counts.
if [ -x "${RR_GEN:-}" ]; then
	if "$RR_GEN" -o "$tmp/lost.dat" -e "$tmp/lost.expected.json" \
		tests/gen/scenarios/lost.scn >/dev/null 2>"$tmp/gen.err"; then
		"$RR_BIN" stats --json -q "$tmp/lost.dat" >"$tmp/lost.stats.json"
		timeline lost "$tmp/lost.dat" --stats "$tmp/lost.stats.json" \
			--expected "$tmp/lost.expected.json" -- replay -P none -P legacy-broken
	else
		not_ok "rr-gen writes lost.scn" "$(cat "$tmp/gen.err")"
	fi
else
	skip "lost-event instants" "rr-gen not built (RR_GEN=${RR_GEN:-})"
fi

# The export does not change the report.
"$RR_BIN" replay --json -q traces/counters-writer.dat -P none >"$tmp/plain.json" 2>/dev/null
"$RR_BIN" replay --json -q traces/counters-writer.dat -P none --export-timeline "$tmp/x.json" \
	>"$tmp/with.json" 2>/dev/null
check "--export-timeline leaves the JSON report unchanged" cmp -s "$tmp/plain.json" "$tmp/with.json"

# Both files at once, from one run: the same slices as separate runs.
"$RR_BIN" replay -q traces/counters-writer.dat -P none --export-timeline "$tmp/both.json" \
	--plot "$tmp/both.svg" >/dev/null 2>&1
check "--plot and --export-timeline together: same timeline as alone" \
	cmp -s "$tmp/both.json" "$tmp/x.json"

"$RR_BIN" replay traces/counters-writer.dat -P none --export-timeline "$tmp/no/dir/t.json" \
	>/dev/null 2>"$tmp/bad.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q "no/dir/t.json" "$tmp/bad.err"; then
	ok "unwritable --export-timeline: exit 1 and one line naming the file"
else
	not_ok "unwritable --export-timeline: exit 1 and one line naming the file" \
		"exit $rc: $(cat "$tmp/bad.err")"
fi
if [ -w /dev/full ]; then
	"$RR_BIN" replay traces/counters-writer.dat -P none --export-timeline /dev/full \
		>/dev/null 2>"$tmp/full.err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "/dev/full" "$tmp/full.err"; then
		ok "--export-timeline /dev/full: exit 1 naming the file"
	else
		not_ok "--export-timeline /dev/full: exit 1 naming the file" "exit $rc: $(cat "$tmp/full.err")"
	fi
else
	skip "--export-timeline /dev/full: exit 1 naming the file" \
		"/dev/full is missing or not writable here"
fi
tap_done
