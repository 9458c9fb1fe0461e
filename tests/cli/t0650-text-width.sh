#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Text output of every command on the bundled traces: no line wider than 100
# columns by default (tables and the warnings under them), units in the
# headings (ms, pages, %), and colour only on a terminal: none into a pipe,
# some under `script` (a pty), none there with NO_COLOR or --no-color, and
# some into a pipe with --color.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
traces=(traces/*.dat)
many=(-P none -P legacy-broken -P legacy-intended -P mainline -P mainline-5.16rc
      -P parametric --set isolated.timeout=10ms --set writeback.timeout=50ms)
esc=$(printf '\033')

# run NAME ARGS...: plain output (a pipe) in $tmp/NAME.txt
run() {
	local name=$1; shift
	if "$RR_BIN" "$@" >"$tmp/$name.txt" 2>"$tmp/$name.err"; then
		return 0
	fi
	not_ok "$name: exits 0" "$(head -c 300 "$tmp/$name.err")"
	return 1
}

# width NAME: every line within 100 columns (ANSI sequences not counted)
width() {
	local longest
	longest=$(sed "s/$esc\[[0-9;]*m//g" "$tmp/$1.txt" |
		awk '{ if (length($0) > m) { m = length($0); l = $0 } } END { print m + 0 "\t" l }')
	if [ "${longest%%$'\t'*}" -le 100 ]; then
		ok "$1: every line within 100 columns (longest ${longest%%$'\t'*})"
	else
		not_ok "$1: every line within 100 columns" "$longest"
	fi
}

# units NAME REGEX...: each unit appears in a heading
units() {
	local name=$1 u miss=""; shift
	for u in "$@"; do
		grep -qE "$u" "$tmp/$name.txt" || miss="$miss '$u'"
	done
	if [ -z "$miss" ]; then ok "$name: headings give units ($*)"
	else not_ok "$name: headings give units" "missing:$miss"; fi
}

run stats stats "${traces[@]}" && { width stats; units stats ' ms' 'pages' ' %'; }
run replay replay "${traces[@]}" "${many[@]}" &&
	{ width replay; units replay 'stall ms' 'wasted pg' 'eff %'; }
run compare compare "${traces[@]}" -P recorded "${many[@]}" &&
	{ width compare; units compare 'ms' 'pages' '%'; }
run validate validate "${traces[@]}" && width validate
run sweep sweep traces/counters-writer.dat --vary isolated.timeout=1j..10j:lin:3 && width sweep
run policies policies && width policies
for c in stats replay compare validate; do
	if grep -q "$esc" "$tmp/$c.txt"; then
		not_ok "$c: no colour into a pipe"
	else
		ok "$c: no colour into a pipe"
	fi
done

# Colour on a terminal: `script` gives the command a pty.
if ! command -v script >/dev/null; then
	skip "colour on a terminal" "script(1) missing (bsdutils)"
else
	pty() {	# pty OUT ENV... -- ARGS...: run under a pty with ENV set
		local out=$1 envs=(); shift
		while [ "$1" != "--" ]; do envs+=("$1"); shift; done
		shift
		env -u NO_COLOR "${envs[@]}" script -qec "$(printf '%q ' "$RR_BIN" "$@")" /dev/null \
			>"$out" 2>&1 </dev/null
	}
	for c in stats replay compare; do
		case $c in
		stats) args=(stats traces/counters-writer.dat) ;;
		replay) args=(replay traces/counters-writer.dat -P none) ;;
		compare) args=(compare traces/counters-writer.dat -P recorded -P none) ;;
		esac
		pty "$tmp/$c.tty" TERM=xterm -- "${args[@]}"
		check "$c: colour on a terminal" grep -q "$esc\[" "$tmp/$c.tty"
		pty "$tmp/$c.nocolor" NO_COLOR=1 TERM=xterm -- "${args[@]}"
		check "$c: no colour on a terminal with NO_COLOR" bash -c "! grep -q '$esc' '$tmp/$c.nocolor'"
		pty "$tmp/$c.flag" TERM=xterm -- "${args[@]}" --no-color
		check "$c: no colour on a terminal with --no-color" bash -c "! grep -q '$esc' '$tmp/$c.flag'"
		"$RR_BIN" "${args[@]}" --color >"$tmp/$c.forced" 2>/dev/null
		check "$c: --color into a pipe colours" grep -q "$esc\[" "$tmp/$c.forced"
		pty "$tmp/$c.json" TERM=xterm -- "${args[@]}" --json
		check "$c: --json on a terminal has no colour" bash -c "! grep -q '$esc' '$tmp/$c.json'"
	done
fi
tap_done
