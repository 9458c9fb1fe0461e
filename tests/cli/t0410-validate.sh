#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# validate: on the bundled traces it passes and ends with the documented
# summary line; --json carries the same line; --manifest pairs manifests with
# traces in order; a missing manifest is bad input (exit 4) naming the path;
# on every shared trace identity is exact and every property holds (one
# validate run over the shared set, its JSON reused).
set -u
. "$(dirname "$0")/../lib.sh"
CHK=$(dirname "$0")/replay_checks.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t_start=$(date +%s.%N)
SUMMARY_RE='^fidelity: within-tolerance=[0-9.]+% total-time-error=[0-9.]+% identity-error=0 properties=ok$'

# run DESC OUT ARGS...: reclaim-replay ARGS > OUT, one TAP line for exit 0
run() {
	local desc=$1 o=$2 rc; shift 2
	"$RR_BIN" "$@" >"$o" 2>"$o.err"
	rc=$?
	if [ $rc -ne 0 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$o.err"; then
		not_ok "$desc exits 0" "exit $rc: $(head -c 300 "$o.err") $(tail -n 1 "$o")"
		return 1
	fi
	ok "$desc exits 0"
}

if [ ! -x "$RR_BIN" ]; then
	skip "validate" "no reclaim-replay at $RR_BIN (make)"
	tap_done; exit
fi

bundled=("$TOP"/traces/*.dat)

# --- plain output on the bundled traces ------------------------------------------
last=
if run "validate traces/*.dat" "$tmp/plain.out" validate "${bundled[@]}"; then
	last=$(tail -n 1 "$tmp/plain.out")
	if printf '%s\n' "$last" | grep -qE "$SUMMARY_RE"; then
		ok "validate traces/*.dat: last line matches the summary regex: $last"
	else
		not_ok "validate traces/*.dat: last line matches the summary regex" "last line: '$last'"
	fi
	echo "# bundled: $last"
fi

# --- --json with explicit manifests (copies, so the pairing is by order) --------
mans=()
args=()
i=0
for f in "${bundled[@]}"; do
	i=$((i + 1))
	src=${f%.dat}.manifest.json
	if [ ! -f "$src" ]; then
		mans=()
		break
	fi
	cp "$src" "$tmp/m$i.json"
	mans+=("$tmp/m$i.json")
	args+=(--manifest "$tmp/m$i.json")
done
if [ ${#mans[@]} -ne ${#bundled[@]} ]; then
	skip "validate --json --manifest" "a bundled trace has no manifest"
elif run "validate --json --manifest ... traces/*.dat" "$tmp/v.json" \
	validate --json "${args[@]}" "${bundled[@]}"; then
	tap_check "$tmp/summary.out" "$CHK" summary "$tmp/v.json" "$last"
	tap_check "$tmp/mans.out" "$CHK" manifests "$tmp/v.json" "${mans[@]}"
fi

# --- a manifest that does not exist --------------------------------------------
nope=$tmp/no/such.manifest.json
"$RR_BIN" validate --manifest "$nope" "$TOP/traces/counters-writer.dat" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 4 ]; then
	not_ok "validate --manifest MISSING: exit 4" "got exit $rc: $(head -c 300 "$tmp/err")"
elif ! grep -qF -- "$nope" "$tmp/err"; then
	not_ok "validate --manifest MISSING: message names the path" "$(cat "$tmp/err")"
elif grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$tmp/err"; then
	not_ok "validate --manifest MISSING: no sanitizer report" "$(head -c 300 "$tmp/err")"
else
	ok "validate --manifest MISSING: exit 4, $(head -n 1 "$tmp/err" | cut -c1-110)"
fi

# --- every shared trace, one run -----------------------------------------------
if [ ! -d "$SHARED/traces" ]; then
	skip "validate on the shared traces" "no $SHARED/traces"
elif run "validate --json on the shared traces" "$tmp/shared.json" \
	validate --json "$SHARED"/traces/*.dat; then
	tap_check "$tmp/shared.out" "$CHK" shared "$tmp/shared.json"
	s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"])' \
		"$tmp/shared.json" 2>&1)
	if printf '%s\n' "$s" | grep -qE "$SUMMARY_RE"; then
		ok "shared traces: summary matches the summary regex"
	else
		not_ok "shared traces: summary matches the summary regex" "summary: '$s'"
	fi
fi

# --- every generated scenario: identity and the properties ----------------------
# The generator's families (legacy 5.10, 5.16-rc, several nodes, losses, old
# formats) hold the shapes real traces may lack; the property checks of the
# design note must hold on them too.
RR_GEN=${RR_GEN:-$TOP/build/rr-gen}
if [ ! -x "$RR_GEN" ]; then
	skip "validate on the generated scenarios" "no rr-gen at $RR_GEN (make build/rr-gen)"
else
	for scn in "$TOP"/tests/gen/scenarios/*.scn; do
		name=$(basename "$scn" .scn)
		if ! "$RR_GEN" -o "$tmp/$name.dat" "$scn" >"$tmp/$name.gen" 2>&1; then
			not_ok "generated $name: rr-gen writes the trace" "$(head -c 300 "$tmp/$name.gen")"
			continue
		fi
		"$RR_BIN" validate "$tmp/$name.dat" >"$tmp/$name.out" 2>"$tmp/$name.err"
		rc=$?
		last=$(tail -n 1 "$tmp/$name.out")
		if [ $rc -eq 0 ] && printf '%s\n' "$last" | grep -qE "$SUMMARY_RE"; then
			ok "generated $name: identity exact, properties hold"
		else
			not_ok "generated $name: identity exact, properties hold" \
				"exit $rc: $(grep -E 'FAILED' "$tmp/$name.out" | head -n 3) $last"
		fi
	done
fi

t_end=$(date +%s.%N)
echo "# t0410 took $(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.1f", b - a }') s"
tap_done
