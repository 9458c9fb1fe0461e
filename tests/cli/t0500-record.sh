#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record: a real memcg v1 memory-pressure workload recorded through a private
# tracing instance must decode with memcg reclaim episodes and counter
# samples; the instance must be gone after success, after a failing command
# and after SIGINT; without root the exit code is 6 with one message.
set -u
. "$(dirname "$0")/../lib.sh"
T=/sys/kernel/tracing
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/rr-t0500.XXXXXX")
cg=
cleanup() {
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			echo "$p" > /sys/fs/cgroup/memory/cgroup.procs 2>/dev/null
		done
		rmdir "$cg" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# json_get FILE PYTHON-EXPR: print the expression over the document d
json_get() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
instances() { ls "$T/instances" 2>/dev/null | sort; }
# no_new_instance DESC: nothing under instances/ that was not there at start
no_new_instance() {
	local now
	now=$(instances)
	if [ "$now" = "$inst0" ]; then ok "$1: no instance left"; else
		not_ok "$1: no instance left" "before: [$inst0] after: [$now]"; fi
}

# Without root: exit 6 and one message, whatever the tracefs state.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$RR_BIN"; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RR_BIN" record -o /dev/null \
		--duration 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 6 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q root "$tmp/err"; then
		ok "non-root: exit 6, one line naming root"
	else
		not_ok "non-root: exit 6, one line naming root" "rc=$rc: $(cat "$tmp/err")"
	fi
elif [ "$(id -u)" != 0 ]; then
	"$RR_BIN" record -o "$tmp/x.dat" --duration 1 >"$tmp/out" 2>"$tmp/err"
	check "non-root: exit 6" test $? -eq 6
else
	skip "non-root: exit 6" "no setpriv, or the binary is not reachable for nobody"
fi
check "usage: no -o is exit 2" sh -c '"$0" record --duration 1 >/dev/null 2>&1; test $? -eq 2' "$RR_BIN"

if [ "$(id -u)" != 0 ]; then
	skip "record a workload" "not root"
	tap_done; exit
fi
if ! mountpoint -q $T || [ ! -w $T/instances ]; then
	skip "record a workload" "no tracefs at $T (mount -t tracefs nodev $T)"
	tap_done; exit
fi
inst0=$(instances)

# 1. success with a duration: file, samples, meta
"$RR_BIN" record -q -o "$tmp/d.dat" --duration 0.5 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "record --duration 0.5: exit 0" test $rc -eq 0
no_new_instance "after --duration"
if "$RR_BIN" stats --json "$tmp/d.dat" >"$tmp/d.json" 2>"$tmp/err"; then
	n=$(json_get "$tmp/d.json" 'd["inputs"][0]["counter_samples"]["count"]')
	hz=$(json_get "$tmp/d.json" 'd["inputs"][0]["hz"]')
	# 0.5 s at 5 ms is ~100 samples per node; allow a slow machine
	check "stats reads it: $n counter samples (>= 40)" test "$n" -ge 40
	check "rr-meta hz=$hz read back" test "$hz" != None
else
	not_ok "stats reads the recording" "$(cat "$tmp/err")"
fi
# The recording keeps its events in a buffer instance of a compressed v7
# file: reopening it every 2 KiB (one handle per buffer to put back in
# place, parsers/tracedat_reopen.c) must give the same report.
RR_REOPEN_TRACE=1 RR_REOPEN_BYTES=2k "$RR_BIN" stats --json "$tmp/d.dat" >"$tmp/d-re.json" \
	2>"$tmp/err-re"
reopens=$(sed -n 's/^reopen: \([0-9]*\) reopens.*/\1/p' "$tmp/err-re" | head -n 1)
if [ "${reopens:-0}" -ge 1 ] && cmp -s "$tmp/d.json" "$tmp/d-re.json"; then
	ok "the recording reopened $reopens times gives the same report"
else
	not_ok "the recording reopened every 2 KiB gives the same report" \
		"reopens ${reopens:-none}; $(diff "$tmp/d.json" "$tmp/d-re.json" | head -3)"
fi

# 1b. --sched adds the scheduler events (not modelled: stats counts them as
# ignored, by name); without it there are none. The sampler thread sleeps
# between samples, so 0.5 s always has context switches.
sw=$(json_get "$tmp/d.json" 'd["inputs"][0]["ignored_events"].get("sched_switch", 0)' 2>/dev/null)
check "without --sched: no sched_switch recorded ($sw)" test "${sw:-x}" = 0
if [ -e "$T/events/sched/sched_switch/enable" ] && [ -e "$T/events/sched/sched_wakeup/enable" ]; then
	"$RR_BIN" record --sched --json -o "$tmp/s.dat" --duration 0.5 >"$tmp/s-rec.json" 2>"$tmp/err"
	rc=$?
	check "record --sched: exit 0 ($rc)" test $rc -eq 0
	no_new_instance "after --sched"
	ne=$(json_get "$tmp/s-rec.json" 'd["sched_events"]' 2>/dev/null)
	check "record --sched summary: sched_events=$ne (2)" test "${ne:-0}" = 2
	if "$RR_BIN" stats --json "$tmp/s.dat" >"$tmp/s.json" 2>"$tmp/err"; then
		sw=$(json_get "$tmp/s.json" 'd["inputs"][0]["ignored_events"].get("sched_switch", 0)')
		check "--sched: stats counts $sw sched_switch as ignored (> 0)" test "$sw" -gt 0
		# the same count from an independent reader
		if command -v trace-cmd >/dev/null; then
			tc=$(trace-cmd report "$tmp/s.dat" 2>/dev/null | grep -c ' sched_switch: ')
			check "--sched: trace-cmd report has the same $sw sched_switch ($tc)" \
				test "$tc" = "$sw"
		else
			skip "--sched: sched_switch count against trace-cmd report" "no trace-cmd"
		fi
	else
		not_ok "stats reads the --sched recording" "$(cat "$tmp/err")"
	fi
else
	skip "record --sched" "this kernel has no sched:sched_switch or sched:sched_wakeup"
fi

# 2. a memcg v1 writer under a 64M limit
if [ -w /sys/fs/cgroup/memory ] && [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	cg=/sys/fs/cgroup/memory/rr_test_$$
	mkdir "$cg" && echo 64M > "$cg/memory.limit_in_bytes"
	"$RR_BIN" record --json --ground-truth -o "$tmp/w.dat" -- sh -c \
		"echo \$\$ > $cg/cgroup.procs && exec dd if=/dev/zero of=$tmp/f bs=1M count=300 2>/dev/null" \
		>"$tmp/rec.json" 2>"$tmp/err"
	rc=$?
	check "record -- memcg dd writer: exit 0" test $rc -eq 0
	[ $rc -eq 0 ] || cat "$tmp/err" | sed 's/^/#   /'
	no_new_instance "after the workload"
	clean=$(json_get "$tmp/rec.json" 'd["clean"]' 2>/dev/null)
	check "record summary says clean=$clean (64 MiB/cpu holds 300 MiB of dd)" test "$clean" = True
	if "$RR_BIN" stats --json "$tmp/w.dat" >"$tmp/w.json" 2>"$tmp/err"; then
		ok "stats --json on the recording"
		eps=$(json_get "$tmp/w.json" 'sum(n["episodes"]["memcg"]["begun"] for n in d["results"][0]["nodes"])' 2>/dev/null)
		n=$(json_get "$tmp/w.json" 'd["inputs"][0]["counter_samples"]["count"]')
		check "memcg reclaim episodes found ($eps)" test "${eps:-0}" -gt 0 2>/dev/null
		check "counter samples found ($n)" test "$n" -gt 0
	else
		not_ok "stats --json on the recording" "$(cat "$tmp/err")"
	fi
	if "$RR_BIN" replay --json -P mainline "$tmp/w.dat" >"$tmp/r.json" 2>"$tmp/err"; then
		st=$(json_get "$tmp/r.json" 'd["results"][0]["node_state"]')
		check "replay -P mainline reads the recording with its samples (node state $st)" \
			test "$st" = sampled
	else
		not_ok "replay -P mainline on the recording" "$(cat "$tmp/err")"
	fi
	if [ -s "$tmp/w.dat.ground-truth.json" ]; then
		sc=$(json_get "$tmp/w.dat.ground-truth.json" 'd["vmstat_delta_selected"]["pgscan_file"]+d["vmstat_delta_selected"].get("pgscan_anon",0)')
		check "ground truth: pgscan delta $sc > 0" test "$sc" -gt 0
	else
		not_ok "ground truth file written"
	fi
	rm -f "$tmp/f"
	rmdir "$cg" 2>/dev/null && cg=
else
	skip "record a memcg workload" "no writable memcg v1 hierarchy at /sys/fs/cgroup/memory"
fi

# 3. a failing command: non-zero exit, no instance left
"$RR_BIN" record -q -o "$tmp/x.dat" -- false >/dev/null 2>"$tmp/err"
rc=$?
check "record -- false: exit non-zero ($rc)" test $rc -ne 0
no_new_instance "after a failing command"
"$RR_BIN" record -q -o "$tmp/x.dat" -- /nonexistent/rr-command >/dev/null 2>"$tmp/err"
rc=$?
check "record -- missing command: exit 1 ($rc)" test $rc -eq 1
no_new_instance "after a command that cannot run"

# 4. SIGINT ends the recording early, still written, instance removed
"$RR_BIN" record -q -o "$tmp/i.dat" --duration 30 >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1
kill -INT $pid
start=$(date +%s)
wait $pid
rc=$?
check "SIGINT: exit 0 within 10 s (rc=$rc)" test $rc -eq 0 -a $(( $(date +%s) - start )) -le 10
no_new_instance "after SIGINT"
check "SIGINT: the recording so far is readable" "$RR_BIN" stats -q "$tmp/i.dat" -o /dev/null

# 5. an instance name already in use is refused and left alone
mkdir "$T/instances/rr_t0500_$$"
"$RR_BIN" record -q -o "$tmp/y.dat" --instance "rr_t0500_$$" --duration 0.2 >/dev/null 2>"$tmp/err"
rc=$?
check "existing --instance refused (rc=$rc)" test $rc -eq 2 -a -d "$T/instances/rr_t0500_$$"
rmdir "$T/instances/rr_t0500_$$"

tap_done
