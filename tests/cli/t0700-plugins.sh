#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Policy plugins (docs/plugins.md): the example and alloc-rate plugins load
# and run in replay, compare and policies; broken plugins (wrong ABI version,
# missing entry point, failing init, size mismatch, no such file, not a
# shared object) are refused with one line naming the file, the documented
# exit code and no crash; a plugin equal to a built-in gives identical JSON
# figures (example = legacy-broken, alloc-rate with exponent=0 = mainline);
# --set NAME.KEY=VALUE and PATH.so:ARGS reach the plugin, a bad --set is
# refused; the task figures of the ABI match a generated scenario computed
# by hand; a plugin builds out of tree against a DESTDIR `make install`.
# Plugins come from $O/plugins and $O/tests/plugins (make builds them).
set -u
. "$(dirname "$0")/../lib.sh"
O=${O:-build}
case $O in /*) OD=$O ;; *) OD=$TOP/$O ;; esac
RR_GEN=${RR_GEN:-$OD/rr-gen}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
PL=$OD/plugins
BAD=$OD/tests/plugins
trace=traces/isolated-noswap-a.dat
traces=(traces/*.dat)

if [ ! -x "$RR_BIN" ] || [ ! -f "$PL/example.so" ] || [ ! -f "$BAD/bad_abi.so" ]; then
	not_ok "plugins built" "no $RR_BIN or $PL/example.so or $BAD/bad_abi.so (make O=$O)"
	tap_done; exit
fi

sanitizer() {	# sanitizer FILE: did a sanitizer or a signal speak?
	grep -qE 'AddressSanitizer|LeakSanitizer|runtime error|Segmentation|core dumped' "$1"
}

# run OUT ARGS...: reclaim-replay ARGS > OUT; 0 when it exited 0 cleanly
run() {
	local o=$1 rc; shift
	"$RR_BIN" "$@" >"$o" 2>"$o.err"
	rc=$?
	if [ $rc -ne 0 ] || sanitizer "$o.err"; then
		not_ok "reclaim-replay $* exits 0" "exit $rc: $(head -c 300 "$o.err")"
		return 1
	fi
	return 0
}

# refused DESC WANT-EXIT PATTERN ARGS...: exit WANT-EXIT, one stderr line
# naming FILE (the last path-like word of PATTERN's caller) and PATTERN
refused() {
	local desc=$1 want=$2 pat=$3 file=$4 rc lines; shift 4
	"$RR_BIN" "$@" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	lines=$(grep -vc '^$' "$tmp/r.err")
	if [ $rc -eq "$want" ] && [ "$lines" -eq 1 ] && grep -qF -- "$file" "$tmp/r.err" &&
		grep -qE -- "$pat" "$tmp/r.err" && ! sanitizer "$tmp/r.err"; then
		ok "$desc: exit $want, one line naming the file"
	else
		not_ok "$desc: exit $want, one line naming $file and /$pat/" \
			"exit $rc, $lines lines: $(head -c 400 "$tmp/r.err")"
	fi
}

# same_figures DESC JSON LABEL-A LABEL-B: every node's figures identical
same_figures() {
	python3 - "$2" "$3" "$4" >"$tmp/same.out" 2>&1 <<'PY'
import json, sys
doc, a, b = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
n = 0
for r in doc["results"]:
    for node in r["nodes"]:
        pa, pb = node["policies"][a], node["policies"][b]
        if pa != pb:
            diff = [k for k in pa if pa.get(k) != pb.get(k)]
            print("input %s node %s: %s differ" % (r.get("input"), node.get("nid"), diff))
            sys.exit(1)
        n += 1
print("%d nodes" % n)
PY
	if [ $? -eq 0 ]; then
		ok "$1 ($(cat "$tmp/same.out"))"
	else
		not_ok "$1" "$(head -c 300 "$tmp/same.out")"
	fi
}

# --- load and run ---------------------------------------------------------------
if run "$tmp/pol.json" policies --json -P "$PL/example.so" -P "$PL/alloc_rate.so"; then
	python3 - "$tmp/pol.json" "$PL" >"$tmp/pol.chk" 2>&1 <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
by = {r["name"]: r for r in res}
assert by["mainline"]["kind"] == "builtin", by["mainline"]
assert [o["key"] for o in by["parametric"]["options"]][0] == "writeback.timeout"
ex, ar = by["example"], by["alloc-rate"]
assert ex["kind"] == "plugin" and ex["path"].endswith("/example.so"), ex
assert [o["key"] for o in ex["options"]] == ["extra"], ex
assert ar["help"] and {"exponent", "min", "max", "window"} <= {o["key"] for o in ar["options"]}
assert res[-2]["name"] == "example" and res[-1]["name"] == "alloc-rate"
PY
	[ $? -eq 0 ] && ok "policies --json lists built-ins, then the plugins with options and help" ||
		not_ok "policies --json lists the plugins" "$(tail -n 3 "$tmp/pol.chk")"
fi
if run "$tmp/pol.txt" policies -P "$PL/alloc_rate.so"; then
	grep -q '^  alloc-rate ' "$tmp/pol.txt" && grep -q -- '--set alloc-rate.exponent=' "$tmp/pol.txt" &&
		ok "policies table: the plugin with its NAME.KEY options" ||
		not_ok "policies table: the plugin with its NAME.KEY options" "$(tail -n 5 "$tmp/pol.txt")"
fi

# example = legacy-broken, alloc-rate with exponent 0 = mainline, on every bundled trace
if run "$tmp/eq.json" replay --json "${traces[@]}" -P legacy-broken -P "$PL/example.so" \
	-P mainline -P "$PL/alloc_rate.so:exponent=0" -P "$PL/alloc_rate.so"; then
	same_figures "example plugin = built-in legacy-broken" "$tmp/eq.json" legacy-broken example
	same_figures "alloc-rate:exponent=0 plugin = built-in mainline" "$tmp/eq.json" mainline \
		alloc-rate:exponent=0
	# alloc-rate scales timeouts: on isolated-noswap-a (ISOLATED sleeps that time
	# out) its sleep time differs from mainline's
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["results"] if d["inputs"][r["input"]]["path"].endswith("isolated-noswap-a.dat")][0]
def sleep(l): return sum(t["sleep_ns"] for n in r["nodes"] for k in ("throttles", "kswapd_throttles")
                        for t in n["policies"][l][k].values())
a, m = sleep("alloc-rate"), sleep("mainline")
sys.exit(0 if a != m else 1)' "$tmp/eq.json" && ok "alloc-rate plugin runs and differs from mainline" ||
		not_ok "alloc-rate plugin runs and differs from mainline"
fi
if run "$tmp/cmp.json" compare --json "$trace" -P mainline -P "$PL/alloc_rate.so"; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
labels = [p["label"] for p in d["results"][0]["policies"]]
sys.exit(0 if labels == ["mainline", "alloc-rate"] else 1)' "$tmp/cmp.json" &&
		ok "compare runs a plugin (label alloc-rate)" || not_ok "compare runs a plugin"
fi

# --- settings ----------------------------------------------------------------------
# A generated 5.10 trace has congestion_wait() sleeps, which the bundled ones lack.
# A missing rr-gen is a skip; an rr-gen that fails on the scenario is a failure.
if [ ! -x "$RR_GEN" ]; then
	skip "plugin settings on a generated 5.10 trace" "no rr-gen at $RR_GEN"
elif ! "$RR_GEN" -o "$tmp/l510.dat" -e "$tmp/l510.json" \
	tests/gen/scenarios/legacy510.scn >/dev/null 2>"$tmp/l510.err"; then
	not_ok "rr-gen writes tests/gen/scenarios/legacy510.scn" "$(head -c 300 "$tmp/l510.err")"
else
	if run "$tmp/set.json" replay --json "$tmp/l510.dat" -P legacy-broken -P "$PL/example.so" \
		-P "$PL/example.so" --set example.extra=0 &&
		run "$tmp/args.json" replay --json "$tmp/l510.dat" -P "$PL/example.so:extra=0"; then
		same_figures "example = legacy-broken on a generated 5.10 trace" "$tmp/set.json" \
			legacy-broken example
		# both spellings give the label example:extra=0: compare the two runs
		python3 -c '
import json, sys
a, b = (json.load(open(f))["results"][0]["nodes"] for f in sys.argv[1:3])
sys.exit(0 if [n["policies"]["example:extra=0"] for n in a] ==
         [n["policies"]["example:extra=0"] for n in b] else 1)' "$tmp/set.json" "$tmp/args.json" &&
			ok "--set example.extra=0 = example.so:extra=0" ||
			not_ok "--set example.extra=0 = example.so:extra=0"
		# congestion_wait() sleeps its timeout plus `extra` jiffies: where both
		# runs sleep the same number of times, extra=1 adds 1 jiffy (4 ms at the
		# scenario's HZ=250) to each
		python3 - "$tmp/set.json" >"$tmp/extra.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
checked = 0
for n in d["results"][0]["nodes"]:
    a = n["policies"]["example"]["throttles"]["CONGESTION_WAIT"]
    b = n["policies"]["example:extra=0"]["throttles"]["CONGESTION_WAIT"]
    if a["count"] and a["count"] == b["count"]:
        if a["sleep_ns"] - b["sleep_ns"] != a["count"] * 4000000:
            print("node %s: %d - %d != %d x 4 ms" % (n["nid"], a["sleep_ns"], b["sleep_ns"],
                                                  a["count"]))
            sys.exit(1)
        checked += 1
print("%d nodes" % checked)
sys.exit(0 if checked else 1)
PY
		[ $? -eq 0 ] && ok "--set reaches the plugin: extra=1 adds one jiffy per sleep ($(cat "$tmp/extra.out"))" ||
			not_ok "--set reaches the plugin: extra=1 adds one jiffy per sleep" "$(cat "$tmp/extra.out")"
	fi
fi
refused "--set without the plugin's NAME. prefix" 2 'must read example\.KEY=VALUE' example.so \
	replay "$trace" -P "$PL/example.so" --set extra=2
refused "--set of an unknown plugin option" 2 'refused its settings' example.so \
	replay "$trace" -P "$PL/example.so" --set example.nope=1
refused "ARGS item without =" 2 'not KEY=VALUE' example.so \
	replay "$trace" -P "$PL/example.so:extra"
refused "plugin setting given to a built-in" 2 "unknown setting 'example.extra'" mainline \
	replay "$trace" -P mainline --set example.extra=1

# --- broken plugins ---------------------------------------------------------------
printf 'not an ELF file\n' >"$tmp/text.so"
for cmd in replay compare policies; do
	case $cmd in
	replay) pre=(replay "$trace") ;;
	compare) pre=(compare "$trace" -P mainline) ;;
	policies) pre=(policies) ;;
	esac
	refused "$cmd: wrong ABI version" 2 'wrong ABI version 99' bad_abi.so \
		"${pre[@]}" -P "$BAD/bad_abi.so"
	refused "$cmd: missing entry point" 2 'no entry point rr_policy_plugin_entry' no_entry.so \
		"${pre[@]}" -P "$BAD/no_entry.so"
	refused "$cmd: size mismatch" 2 'size mismatch' bad_size.so "${pre[@]}" -P "$BAD/bad_size.so"
	refused "$cmd: nonexistent file" 2 'No such file' "$tmp/nope.so" "${pre[@]}" -P "$tmp/nope.so"
	refused "$cmd: not a shared object" 2 'cannot load' "$tmp/text.so" "${pre[@]}" -P "$tmp/text.so"
	refused "$cmd: a directory" 2 'not a regular file' "$tmp" "${pre[@]}" -P "$tmp/"
done
refused "replay: failing init" 1 'init failed: No such device' bad_init.so \
	replay "$trace" -P "$BAD/bad_init.so"
refused "compare: failing init" 1 'init failed' bad_init.so \
	compare "$trace" -P mainline -P "$BAD/bad_init.so"
"$RR_BIN" replay --json "$trace" -P "$BAD/bad_abi.so" >"$tmp/err.json" 2>/dev/null
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; sys.exit(0 if "bad_abi.so" in e else 1)' \
	"$tmp/err.json" 2>/dev/null && ok "--json: a refused plugin is one {\"error\"} document" ||
	not_ok "--json: a refused plugin is one {\"error\"} document" "$(head -c 200 "$tmp/err.json")"

# --- task figures against a generated scenario --------------------------------------
# pid 1001 reclaims 4 batches of 32 scanned / 10 reclaimed in [1000, 41000) us,
# then sleeps 20 ms from 50000 us, three times 100 ms apart (its last event at
# 270000 us); pid 1002 reclaims 2 x (32, 4) in [42000, 46000) and sleeps from
# 51000 to 52000 us, its last event. Task time so far: 1001's since 1000 us
# plus 1002's from 42000 us to its last event or the point.
if [ -x "$RR_GEN" ] && [ -f "$BAD/figures.so" ]; then
	cat >"$tmp/fig.scn" <<'SCN'
kernel 6.1
hz 250
nodes 1
cpus 2
task 1001 heavy
task 1002 light
repeat 3 every 100000 {
  direct pid=1001 cpu=0 nid=0 at=1000 end=41000 batches=4 scanned=32 reclaimed=10
  throttle pid=1001 cpu=0 nid=0 at=70000 reason=WRITEBACK timeout=100000 delayed=20000
}
direct pid=1002 cpu=1 nid=0 at=42000 end=46000 batches=2 scanned=32 reclaimed=4
throttle pid=1002 cpu=1 nid=0 at=52000 reason=NOPROGRESS timeout=4000 delayed=1000
SCN
	{
		ms=1000000
		for k in 0 1 2; do
			e=$((k + 1)); life=$(((100000 * k + 49000) * 1000))
			q=$((100000 * k + 50000)); end2=$((q < 52000 ? q : 52000))
			echo "pid=1001 episodes=$e batches=$((4 * e)) scanned=$((128 * e))" \
				"reclaimed=$((40 * e)) reclaim_ns=$((40 * ms * e)) lifetime_ns=$life" \
				"throttles=$k throttled_ns=$((20 * ms * k)) trace_tasks=2" \
				"trace_reclaimed=$((40 * e + 8)) trace_elapsed_ns=$life" \
				"trace_episodes=$((e + 1)) trace_task_ns=$((life + (end2 - 42000) * 1000))"
		done
		echo "pid=1002 episodes=1 batches=2 scanned=64 reclaimed=8 reclaim_ns=$((4 * ms))" \
			"lifetime_ns=$((9 * ms)) throttles=0 throttled_ns=0 trace_tasks=2" \
			"trace_reclaimed=48 trace_elapsed_ns=$((50 * ms)) trace_episodes=2" \
			"trace_task_ns=$((59 * ms))"
	} | sort >"$tmp/fig.want"
	# run prints its own not ok when the replay fails
	if ! "$RR_GEN" -o "$tmp/fig.dat" -e "$tmp/fig.exp.json" "$tmp/fig.scn" >/dev/null \
		2>"$tmp/fig.gen.err"; then
		not_ok "rr-gen writes the task-figures scenario" "$(head -c 300 "$tmp/fig.gen.err")"
	elif run "$tmp/fig.out" replay "$tmp/fig.dat" -P "$BAD/figures.so:out=$tmp/fig.got"; then
		sort "$tmp/fig.got" >"$tmp/fig.got.s"
		diff "$tmp/fig.want" "$tmp/fig.got.s" >"$tmp/fig.diff" &&
			ok "task figures at each recorded throttle = the scenario by hand" ||
			not_ok "task figures = the scenario by hand" "$(head -c 600 "$tmp/fig.diff")"
	fi
else
	skip "task figures against a generated scenario" "no $RR_GEN or figures.so"
fi

# docs/plugins.md shows the example as it is built
python3 -c '
import sys
sys.exit(0 if open(sys.argv[2]).read().rstrip("\n") in open(sys.argv[1]).read() else 1)' \
	docs/plugins.md plugins/example.c && ok "docs/plugins.md holds plugins/example.c verbatim" ||
	not_ok "docs/plugins.md holds plugins/example.c verbatim" "copy plugins/example.c into it"

# --- out of tree: DESTDIR install, pkg-config, build, load -------------------------
if ! command -v pkg-config >/dev/null; then
	skip "out-of-tree plugin build" "no pkg-config"
else
	dest=$tmp/dest
	# -o: the binary is taken as built; the install must not rebuild it here
	if env -u MAKEFLAGS -u MAKELEVEL make -s -C "$TOP" -o "$O/reclaim-replay" O="$O" \
		DESTDIR="$dest" PREFIX=/usr install >"$tmp/install.log" 2>&1; then
		ok "make install DESTDIR=: header and reclaim-replay.pc"
	else
		not_ok "make install DESTDIR=" "$(tail -n 3 "$tmp/install.log")"
	fi
	mkdir -p "$tmp/oot" && cp plugins/example.c "$tmp/oot/"
	cflags=$(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
		pkg-config --cflags reclaim-replay 2>"$tmp/pc.err" | sed 's/ *$//')
	if [ -f "$dest/usr/include/reclaim_replay/policy.h" ] &&
		[ "$cflags" = "-I$dest/usr/include" ] &&
		(cd "$tmp/oot" && cc -std=gnu11 -Wall -Werror -shared -fPIC $cflags -o example.so \
			example.c) 2>"$tmp/cc.err"; then
		ok "out-of-tree build with \$(pkg-config --cflags reclaim-replay)"
		if run "$tmp/oot.json" replay --json "$trace" -P legacy-broken -P "$tmp/oot/example.so"; then
			same_figures "out-of-tree example = legacy-broken" "$tmp/oot.json" legacy-broken example
		fi
	else
		not_ok "out-of-tree build with pkg-config" \
			"cflags '$cflags': $(cat "$tmp/pc.err" "$tmp/cc.err" 2>/dev/null | head -c 300)"
	fi
fi
tap_done
