# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the shell tests: ok/not ok lines and a closing count.
TAP_N=0
TAP_FAILED=0

ok() {		# ok DESCRIPTION
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"
}
not_ok() {	# not_ok DESCRIPTION [DETAIL]
	TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $1"
	# every line of a multi-line detail (a traceback) stays a TAP comment
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/#   /'
	return 0
}
skip() {	# skip DESCRIPTION REASON
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"
}
check() {	# check DESCRIPTION COMMAND...
	local d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# tap_report FILE: a checker's "ok|skip|note|fail<TAB>desc<TAB>detail" lines
# to numbered TAP lines; a checker that died or said nothing is a failure,
# not a silent pass.
tap_report() {
	local res desc detail
	if [ ! -s "$1" ]; then
		not_ok "checker output ($(basename "$1"))" "no checks ran: $(tail -n 3 "$1.err" 2>/dev/null)"
		return
	fi
	while IFS=$'\t' read -r res desc detail; do
		case $res in
		ok) ok "$desc" ;;
		skip) skip "$desc" "$detail" ;;
		note) echo "# $desc" ;;
		*) not_ok "$desc" "$detail" ;;
		esac
	done <"$1"
}

# tap_check OUT CHECKER ARGS...: run the python CHECKER with ARGS into OUT, report it
tap_check() {
	local o=$1 c=$2; shift 2
	python3 "$c" "$@" >"$o" 2>"$o.err" || not_ok "$(basename "$c") $1 exits 0" "$(tail -n 3 "$o.err")"
	tap_report "$o"
}

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The build in $O (relative to the top, or absolute), as `make check O=...` sets it.
case ${O:-build} in /*) RR_BIN=${RR_BIN:-$O/reclaim-replay} ;;
*) RR_BIN=${RR_BIN:-$TOP/${O:-build}/reclaim-replay} ;;
esac
SHARED=${RR_SHARED:-$TOP/../shared}
