#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# live: JSON lines every interval from a private instance; SIGINT exits 0
# and removes the instance.
set -u
. "$(dirname "$0")/../lib.sh"
T=/sys/kernel/tracing
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/rr-t0510.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

check "usage: bad --interval is exit 2" \
	sh -c '"$0" live --interval 3x >/dev/null 2>&1; test $? -eq 2' "$RR_BIN"
if [ "$(id -u)" != 0 ]; then
	"$RR_BIN" live --json >/dev/null 2>"$tmp/err"
	check "non-root: exit 6" test $? -eq 6
	skip "live stream" "not root"
	tap_done; exit
fi
if ! mountpoint -q $T || [ ! -w $T/instances ]; then
	skip "live stream" "no tracefs at $T (mount -t tracefs nodev $T)"
	tap_done; exit
fi
inst0=$(ls $T/instances | sort)

"$RR_BIN" live --interval 200ms --json >"$tmp/out" 2>"$tmp/err" &
pid=$!
# Wait for the first line (a sanitizer build parses the event formats
# slowly), then let it run ~1.5 s more with a little block I/O to see.
for i in $(seq 300); do
	[ -s "$tmp/out" ] || ! kill -0 $pid 2>/dev/null && break
	sleep 0.1
done
dd if=/dev/zero of="$tmp/f" bs=1M count=20 conv=fsync 2>/dev/null
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 0 (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/err"
n=$(wc -l <"$tmp/out")
check "at least 2 JSON lines ($n)" test "$n" -ge 2
if python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert isinstance(d["nodes"], list) and d["nodes"], d
    n = d["nodes"][0]
    for k in ("stall_ms", "scanned", "reclaimed", "throttles", "episodes"):
        assert k in n, k
    assert "WRITEBACK" in n["throttles"]
' "$tmp/out" 2>"$tmp/perr"; then
	ok "every line is a JSON object with per-node figures"
else
	not_ok "every line is a JSON object with per-node figures" "$(tail -n 2 "$tmp/perr")"
fi
now=$(ls $T/instances | sort)
if [ "$now" = "$inst0" ]; then ok "instance removed"; else
	not_ok "instance removed" "before: [$inst0] after: [$now]"; fi

tap_done
