#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs/reclaim-replay.1 against the program: every command the top-level
# --help lists has a SYNOPSIS line and a COMMANDS entry; every option token of
# the top-level --help and of each `COMMAND --help` appears on the page, and a
# help line "-X, --long" appears as the pair "\-X ", " \-\-long" (so a short
# option is not satisfied by an unrelated "-X" elsewhere on the page); every
# exit code the top-level --help lists has an EXIT STATUS entry; groff renders
# the page without warnings. RR_MAN overrides the page checked.
set -u
. "$(dirname "$0")/../lib.sh"
man=${RR_MAN:-$TOP/docs/reclaim-replay.1}

if [ ! -r "$man" ]; then
	not_ok "man page readable" "$man"
	tap_done
	exit
fi
# The page source with groff's escapes for '-', fonts and zero-width taken out.
norm=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man")
section() {	# section NAME: the lines of .SH NAME up to the next .SH
	awk -v s=".SH $1" '$0 == s { f = 1; next } /^\.SH / { f = 0 } f' <<<"$norm"
}
top_help=$("$RR_BIN" --help)
cmds=$(awk '/^commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }' <<<"$top_help")
if [ "$(wc -w <<<"$cmds")" -lt 2 ]; then
	not_ok "top-level --help lists the commands" "$top_help"
	tap_done
	exit
fi

synopsis=$(section SYNOPSIS)
commands=$(section COMMANDS)
for c in $cmds; do
	if grep -qP "^\.B reclaim-replay \Q$c\E$" <<<"$synopsis"; then
		ok "SYNOPSIS has $c"
	else
		not_ok "SYNOPSIS has $c"
	fi
	# the tag line after .TP: .B NAME or .BI "NAME " ...
	if grep -A1 '^\.TP' <<<"$commands" | grep -qP "^\.BI? \"?\Q$c\E[ \"]|^\.B \Q$c\E$"; then
		ok "COMMANDS has an entry for $c"
	else
		not_ok "COMMANDS has an entry for $c"
	fi
done

for c in "" $cmds; do
	name=${c:-top-level}
	# shellcheck disable=SC2086
	if ! help=$("$RR_BIN" $c --help 2>&1); then
		not_ok "$name --help exits 0"
		continue
	fi
	missing=
	toks=$(grep -oP '(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9]|-[A-Za-z])(?![\w-])' <<<"$help" | sort -u)
	for t in $toks; do
		grep -qP -- "(?<![\w-])\Q$t\E(?![\w-])" <<<"$norm" || missing+=" $t"
	done
	while read -r s l; do
		[ -n "$s" ] || continue
		grep -qP -- "(?<![\w-])\Q$s\E\s*\", \"\s*\"?\Q$l\E(?![\w-])" <<<"$norm" ||
			missing+=" $s,$l"
	done < <(grep -oP '^\s+\K-[A-Za-z], --[a-z][a-z0-9-]*' <<<"$help" | tr -d ,)
	if [ -z "$toks" ]; then
		not_ok "$name: --help lists options" "no option found in its --help"
	elif [ -n "$missing" ]; then
		not_ok "$name: every --help option is on the man page" "missing:$missing"
	else
		ok "$name: every --help option is on the man page ($(wc -w <<<"$toks") options)"
	fi
done

exit_status=$(section "EXIT STATUS")
codes=$(awk '/^exit codes/ { f = 1; next } f && /^  [0-9] / { print $1 }' <<<"$top_help")
for code in $codes; do
	if grep -A1 '^\.TP' <<<"$exit_status" | grep -qx "\.B $code"; then
		ok "EXIT STATUS has code $code"
	else
		not_ok "EXIT STATUS has code $code"
	fi
done
[ -n "$codes" ] || not_ok "top-level --help lists exit codes"

if command -v groff >/dev/null; then
	w=$(groff -man -ww -z "$man" 2>&1)
	if [ -z "$w" ]; then
		ok "groff -man -ww renders the page without warnings"
	else
		not_ok "groff -man -ww renders the page without warnings" "$(head -n 3 <<<"$w")"
	fi
else
	skip "groff -man -ww renders the page without warnings" "groff missing (groff-base)"
fi
tap_done
