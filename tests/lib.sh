# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the shell tests: ok/not ok lines and a closing count.
TAP_N=0
TAP_FAILED=0

ok() {		# ok DESCRIPTION
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"
}
not_ok() {	# not_ok DESCRIPTION [DETAIL]
	TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $1"
	[ -n "${2:-}" ] && printf '#   %s\n' "$2"
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

RR_BIN=${RR_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/reclaim-replay}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${RR_SHARED:-$TOP/../shared}
