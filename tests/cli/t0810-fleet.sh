#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fleet path of docs/sweep.md: `replay` and `sweep` run once per trace
# under GNU parallel (through --sshlogin, on this machine), one JSON each,
# then `merge`. A merge of per-trace replays has the sums of one replay over
# every trace (recomputed from that replay's JSON); a merge of per-trace
# sweeps is exactly the sweep over every trace. Mixing commands, policies or
# sweeps is refused with exit 4. On the bundled traces always, and on the
# shared traces when they are present.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
helper=tests/cli/sweep_check.py
pols=(-P mainline -P parametric --set isolated.timeout=10ms)
vary=(--vary isolated.timeout=1ms..64ms:log:4 --vary isolated.wake=0,1)

if ! command -v parallel >/dev/null; then
	skip "fleet" "GNU parallel missing (scripts/install-deps.sh installs it)"
	tap_done
	exit
fi

chk() {	# chk ARGS...: one sweep_check.py run, reported
	tap_check "$tmp/chk.$RANDOM" "$helper" "$@"
}

# fleet NAME TRACE...: per-trace replay and sweep under parallel, merged, against
# one run over every trace
fleet() {
	local name=$1; shift
	local d=$tmp/$name reports=() sweeps=() t
	mkdir -p "$d/r" "$d/s"
	# As docs/sweep.md: {/.} is the trace's base name; --sshlogin 2/: is two
	# jobs on this machine, where a fleet would list its hosts.
	parallel --will-cite --sshlogin 2/: --halt now,fail=1 \
		"$RR_BIN" replay --json -q {} "${pols[@]}" '>' "$d/r/{/.}.json" ::: "$@"
	[ $? -eq 0 ] && ok "$name: replay per trace under parallel" ||
		not_ok "$name: replay per trace under parallel"
	parallel --will-cite --sshlogin 2/: --halt now,fail=1 \
		"$RR_BIN" sweep --json -q -j 1 {} "${vary[@]}" '>' "$d/s/{/.}.json" ::: "$@"
	[ $? -eq 0 ] && ok "$name: sweep per trace under parallel" ||
		not_ok "$name: sweep per trace under parallel"
	for t in "$@"; do
		reports+=("$d/r/$(basename "${t%.dat}").json")
		sweeps+=("$d/s/$(basename "${t%.dat}").json")
	done
	"$RR_BIN" merge --json "${reports[@]}" >"$d/merged-replay.json" 2>"$d/err" ||
		not_ok "$name: merge of ${#reports[@]} replay reports" "$(head -c 300 "$d/err")"
	"$RR_BIN" replay --json -q "$@" "${pols[@]}" >"$d/all-replay.json" 2>/dev/null
	chk replaysum "$d/all-replay.json" "$d/merged-replay.json"  # "fleet: ..." lines
	"$RR_BIN" merge --json "${sweeps[@]}" >"$d/merged-sweep.json" 2>"$d/err" ||
		not_ok "$name: merge of ${#sweeps[@]} sweep reports" "$(head -c 300 "$d/err")"
	"$RR_BIN" sweep --json -q "$@" "${vary[@]}" >"$d/all-sweep.json" 2>/dev/null
	chk same "$d/all-sweep.json" "$d/merged-sweep.json" "$name: the merged sweep"
	# a merged sweep merges again (fleets of fleets)
	"$RR_BIN" merge --json "$d/merged-sweep.json" >"$d/remerged.json" 2>/dev/null
	chk same "$d/all-sweep.json" "$d/remerged.json" "$name: the merged sweep merged again"
	if python3 -c 'import jsonschema' 2>/dev/null; then
		for r in merged-replay merged-sweep; do
			python3 tests/cli/report_schema_check.py schema \
				docs/reclaim-replay-report.schema.json "$name $r" "$d/$r.json" \
				>"$d/schema.$r" 2>"$d/schema.$r.err"
			tap_report "$d/schema.$r"
		done
	fi
}

bundled=(traces/*.dat)
fleet bundled "${bundled[@]}"

# refused: exit 4 and a message naming the file and the problem
refuse() {	# refuse DESC MESSAGE REPORT...
	local desc=$1 msg=$2; shift 2
	"$RR_BIN" merge "$@" >"$tmp/m.out" 2>"$tmp/m.err"
	local rc=$?
	[ $rc -eq 4 ] && grep -qF -- "$msg" "$tmp/m.err" && ok "merge refuses $desc: exit 4" ||
		not_ok "merge refuses $desc: exit 4 naming '$msg'" "exit $rc: $(head -c 300 "$tmp/m.err")"
}
d=$tmp/bundled
r0=$d/r/$(basename "${bundled[0]%.dat}").json
s0=$d/s/$(basename "${bundled[0]%.dat}").json
refuse "a sweep after a replay" "cannot be merged with the replay report" "$r0" "$s0"
"$RR_BIN" replay --json -q "${bundled[0]}" -P none >"$tmp/other-pol.json" 2>/dev/null
refuse "other policies" "replayed other policies" "$r0" "$tmp/other-pol.json"
"$RR_BIN" sweep --json -q "${bundled[0]}" --vary isolated.wake=0,1 >"$tmp/other-sweep.json" 2>/dev/null
refuse "another sweep" "a different sweep" "$s0" "$tmp/other-sweep.json"
"$RR_BIN" stats --json "${bundled[0]}" >"$tmp/stats.json" 2>/dev/null
refuse "a stats report" "merge takes replay or sweep reports" "$tmp/stats.json"
echo 'not json' >"$tmp/bad.json"
refuse "a file that is not JSON" "not a JSON report" "$tmp/bad.json"
echo '{"error": "boom"}' >"$tmp/err.json"
refuse "a failed run's report" "the report of a failed run" "$r0" "$tmp/err.json"
refuse "a missing file" "$tmp/missing.json" "$tmp/missing.json"

# the shared traces, when present
shared=()
for t in "$SHARED"/traces/*.dat; do
	[ -f "$t" ] && shared+=("$t")
done
if [ ${#shared[@]} -ge 2 ]; then
	fleet shared "${shared[@]}"
else
	skip "fleet on the shared traces" "$SHARED/traces is absent"
fi

tap_done
