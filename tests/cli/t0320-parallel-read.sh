#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The trace.dat reader splits a file's cpu streams between reading threads
# and merges them again (parsers/tracedat_plan.c, tracedat_consume.c). The
# merge must give exactly the order of libtracecmd's one-thread
# tracecmd_iterate_events_multi, so for every input the digests of
# everything a load makes observable ($O/ingest-identity, from
# tests/bench/ingest_identity.c: every event in order, tasks, counts,
# losses, the model) and `stats --json` (stdout, stderr, exit code) with
# RR_READ_THREADS=2 and 4 must equal the one-thread reader's
# (RR_READ_THREADS=1): the bundled and shared traces, the fuzz
# corpus, every rr-gen scenario (lost events among them), a generated
# trace whose cpus share many timestamps (ties decided by cpu), and
# damaged copies. With strace, it also checks that the threads really ran.
# The same inputs read with every event format parsed at open
# (RR_EAGER_FORMATS=1, libtracecmd's own way) must equal the default,
# which parses a format only when its first record needs it
# (parsers/format_defer.c). Compressed inputs (the bundled traces and v7
# zstd copies of the generated ones) read while the reader opens the file
# again every few records (RR_REOPEN_BYTES, parsers/tracedat_reopen.c)
# must give the result of reading them without reopening.
set -u
. "$(dirname "$0")/../lib.sh"
RR_GEN=${RR_GEN:-$TOP/${O:-build}/rr-gen}
case $RR_GEN in /*) ;; *) RR_GEN=$TOP/$RR_GEN ;; esac
DIGEST=${RR_DIGEST:-$(dirname "$RR_BIN")/ingest-identity}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$RR_BIN" ] || [ ! -x "$DIGEST" ]; then
	skip "parallel read" "no reclaim-replay or ingest-identity next to $RR_BIN (make check)"
	tap_done; exit
fi

inputs=("$TOP"/traces/*.dat)
if [ -d "$SHARED/traces" ]; then
	inputs+=("$SHARED"/traces/*.dat)
else
	skip "shared traces read in parallel" "no $SHARED/traces"
fi
for f in "$TOP"/tests/fuzz/corpus/*.dat; do inputs+=("$f"); done
if [ -x "$RR_GEN" ]; then
	for s in "$TOP"/tests/gen/scenarios/*.scn; do
		o=$tmp/$(basename "$s" .scn).dat
		"$RR_GEN" -o "$o" "$s" >/dev/null 2>&1 && inputs+=("$o")
	done
	# 4 cpus writing in lockstep: many records share a timestamp
	if "$RR_GEN" --scale 60000 -o "$tmp/scale.dat" >/dev/null 2>&1; then
		inputs+=("$tmp/scale.dat")
	else
		not_ok "rr-gen --scale 60000" "failed"
	fi
else
	skip "generated traces read in parallel" "no rr-gen at $RR_GEN"
fi
# v7 zstd copies of the generated traces (rr-gen writes v6): lost events
# in compressed files, where the reader opens the file again as it goes
# (parsers/tracedat_reopen.c)
compressed=("$TOP"/traces/*.dat)
declare -A budgets	# reopen budgets per compressed input (below)
for f in "${compressed[@]}"; do budgets[$f]="1M 4M"; done
if command -v trace-cmd >/dev/null 2>&1; then
	for g in "$tmp"/*.dat; do
		z=${g%.dat}-zstd.dat
		if trace-cmd convert -i "$g" -o "$z" --file-version 7 --compression zstd \
			>/dev/null 2>&1; then
			inputs+=("$z")
			compressed+=("$z")
			# the scale trace is 4 MB; the scenarios a few pages
			if [ "$(stat -c %s "$g")" -gt 1000000 ]; then
				budgets[$z]="256k 1M"
			else
				budgets[$z]="2k 64k"
			fi
		else
			not_ok "trace-cmd convert $(basename "$g") to v7 zstd" "failed"
		fi
	done
else
	skip "compressed copies of the generated traces" "no trace-cmd"
fi
# damaged copies of a bundled trace: truncated, and bytes flipped in the data
python3 - "$tmp" "$TOP/traces/counters-writer.dat" <<'PY'
import os, random, sys
out, src = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
rnd = random.Random(320)
for i in range(6):
    d = bytearray(data)
    if i % 2 == 0:
        d = d[:rnd.randrange(len(d) // 2, len(d))]
    else:
        for _ in range(8):
            d[rnd.randrange(len(d) // 2, len(d))] = rnd.randrange(256)
    open(os.path.join(out, "bad-%d.dat" % i), "wb").write(d)
PY
for f in "$tmp"/bad-*.dat; do inputs+=("$f"); done

run() {	# run THREADS FILE OUT: digests, stats --json, its stderr and exit code
	RR_READ_THREADS=$1 "$DIGEST" "$2" >"$3.json" 2>"$3.err"
	RR_READ_THREADS=$1 "$RR_BIN" stats --json "$2" >>"$3.json" 2>>"$3.err"
	echo "exit $?" >>"$3.err"
}

same() {	# same WHAT: compares $tmp/one.* with $tmp/par.*
	if cmp -s "$tmp/one.json" "$tmp/par.json" && cmp -s "$tmp/one.err" "$tmp/par.err"; then
		ok "$1"
	else
		not_ok "$1" "$(diff "$tmp/one.json" "$tmp/par.json" | head -4; diff "$tmp/one.err" "$tmp/par.err" | head -4)"
	fi
}

for f in "${inputs[@]}"; do
	name=${f#"$TOP"/}
	run 1 "$f" "$tmp/one"
	for n in 2 4; do
		run $n "$f" "$tmp/par"
		same "$name: $n reading threads give the one-thread result"
	done
	RR_EAGER_FORMATS=1 run 2 "$f" "$tmp/par"
	same "$name: formats parsed on first use give the result of parsing all at open"
done

# Reopening a compressed file to give back libtracecmd's decompressed
# chunks (RR_REOPEN_BYTES: the budget of all sources together; a tiny one
# reopens every few records) must not change what is read: each stream
# goes on from just after its last record, lost-event notices included.
# A reopen costs an open (tens of ms), so the budgets scale with the file:
# the generated traces (a few pages) reopen every few records, the bundled
# ones a few dozen times.
for f in "${compressed[@]}"; do
	name=${f#"$TOP"/}
	run 1 "$f" "$tmp/one"
	for n in 1 2; do
		for budget in ${budgets[$f]}; do
			RR_REOPEN_BYTES=$budget run $n "$f" "$tmp/par"
			same "$name: $n reading threads reopening every $budget give the result of none"
		done
	done
	budget=${budgets[$f]%% *}
	reopens=$(RR_REOPEN_TRACE=1 RR_REOPEN_BYTES=$budget RR_READ_THREADS=1 "$RR_BIN" stats -q \
		"$f" 2>&1 >/dev/null | sed -n 's/^reopen: \([0-9]*\) reopens.*/\1/p')
	if [ "${reopens:-0}" -ge 1 ]; then
		ok "$name: reopened $reopens times with a $budget budget"
	else
		not_ok "$name: reopened with a $budget budget" "reopens: ${reopens:-none}"
	fi
done
if [ -d "$SHARED/traces" ]; then
	f=$SHARED/traces/slow-writeback.dat	# 2.2 million records, about 20 reopens
	if [ -e "$f" ]; then
		run 1 "$f" "$tmp/one"
		RR_REOPEN_BYTES=8M run 2 "$f" "$tmp/par"
		same "shared slow-writeback: 2 reading threads reopening every 8M give the result of none"
	fi
fi

# The plan did split: one more thread per extra source (clone counts).
if command -v strace >/dev/null 2>&1; then
	clones() {
		RR_READ_THREADS=$1 strace -f -e trace=clone,clone3 "$RR_BIN" stats -q "$2" 2>&1 \
			>/dev/null | grep -c 'clone'
	}
	f=$TOP/traces/isolated-noswap-a.dat	# 4 cpus with data
	one=$(clones 1 "$f") two=$(clones 2 "$f") four=$(clones 4 "$f")
	if [ "$two" -eq $((one + 1)) ] && [ "$four" -eq $((one + 3)) ]; then
		ok "threads started: 1 -> $one, 2 -> $two, 4 -> $four clones"
	else
		not_ok "threads started" "1 -> $one, 2 -> $two, 4 -> $four clones (want +1, +3)"
	fi
else
	skip "threads started" "no strace"
fi
tap_done
