#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# valgrind memcheck on the demo's stats of the bundled counters-writer.dat
# and on a replay of it: no invalid read or write, no use of
# uninitialised values (leaks are libtracecmd's, see tests/lsan.supp, and
# not checked here). Skips without valgrind and on sanitizer builds (the two
# do not mix). About 25 s; the full `make demo` under valgrind is in
# docs/robustness.md.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace=$TOP/traces/counters-writer.dat

if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind on the demo" "valgrind is not installed"
	tap_done; exit
fi
if ldd "$RR_BIN" 2>/dev/null | grep -qE 'libasan|libubsan'; then
	skip "valgrind on the demo" "$RR_BIN is a sanitizer build"
	tap_done; exit
fi
vg() {	# vg DESC ARGS...
	local d=$1; shift
	timeout 600 valgrind -q --error-exitcode=99 --track-origins=no \
		"$RR_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 99 ] || grep -q '^==[0-9]*== ' "$tmp/err"; then
		not_ok "valgrind: $d" "$(grep -m3 '^==[0-9]*== ' "$tmp/err")"
	elif [ $rc -ne 0 ]; then
		not_ok "valgrind: $d exits 0" "exit $rc: $(tail -n 2 "$tmp/err")"
	else
		ok "valgrind: $d"
	fi
}
vg "stats $(basename "$trace")" stats "$trace"
vg "replay $(basename "$trace") -P mainline -P legacy-broken" \
	replay "$trace" -P mainline -P legacy-broken
tap_done
