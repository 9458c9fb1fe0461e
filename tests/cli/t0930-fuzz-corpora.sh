#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Replays the seed and regression corpora of the text, counter-sample and
# option fuzz targets (tests/fuzz/corpus-*/) through their gcc builds
# ($O/fuzz/onefile-*, from `make check`): every file runs once under
# whatever sanitizers the build has. tests/fuzz/corpus/ (the trace.dat and
# loader target) is replayed by run-tests.sh itself.
. "$(dirname "$0")/../lib.sh"
O=${O:-build}
case $O in /*) OD=$O ;; *) OD=$TOP/$O ;; esac
for t in text counters options; do
	bin=$OD/fuzz/onefile-$t
	dir=$TOP/tests/fuzz/corpus-$t
	if [ ! -x "$bin" ]; then
		not_ok "fuzz corpus $t" "$bin missing (make check builds it)"
		continue
	fi
	out=$("$bin" "$dir"/* 2>&1)
	rc=$?
	n=$(ls "$dir" | wc -l)
	replayed=$(printf '%s\n' "$out" | grep -c '^ok ')
	if [ $rc -ne 0 ] || [ "$replayed" -ne "$n" ] ||
	   printf '%s\n' "$out" | grep -qE 'AddressSanitizer|runtime error|LeakSanitizer'; then
		not_ok "fuzz corpus $t: $n files replayed cleanly" \
			"exit $rc, $replayed of $n: $(printf '%s\n' "$out" | grep -m2 -E 'ERROR|runtime error|not ok')"
	else
		ok "fuzz corpus $t: $n files replayed cleanly"
	fi
done
# refused_as FILE MESSAGE LABEL: `stats FILE` exits 4 with MESSAGE (a fixed
# string, after the file's quoted name) and no sanitizer report.
refused_as() {
	msg=$("$RR_BIN" stats "$1" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 4 ] && printf '%s\n' "$msg" | grep -qF "'$1': $2" &&
	   ! printf '%s\n' "$msg" | grep -qE 'AddressSanitizer|runtime error|LeakSanitizer'; then
		ok "$3"
	else
		not_ok "$3" "exit $rc: $(printf '%s\n' "$msg" | head -c 300)"
	fi
}
# A fuzz find (docs/robustness.md): an event format's size inside a zstd
# events section reads 14.8 GB. libtracecmd allocates it; the file must still
# be refused as bad input (exit 4) with a message naming it. The file was
# made by the fuzzer, so nothing in it is a valid format.
refused_as "$TOP/tests/fuzz/corpus/v7-compressed-format-size-huge.dat" "corrupt trace.dat" \
	"huge format size in a compressed section: exit 4, the file named"
# A fuzz find (docs/robustness.md): a data page inside a zstd chunk whose
# commit word is 0xfffffffffffff019 (`zstd -dc` of the frame at byte 4108):
# 134 213 657 bytes (the low 27 bits) with the lost-event flag (bit 30), so
# its room is 4096 - 8 - 8 - 8 = 4072. libtraceevent's kbuffer read far past
# it (SEGV). The page guard must refuse it with the pre-check's message.
refused_as "$TOP/tests/fuzz/corpus/v7-zstd-page-commit-huge.dat" \
	"corrupt trace.dat: a decompressed data page: a page commits 134213657 bytes, more than its 4072" \
	"damaged page in a zstd chunk: exit 4, the file and the page named"
# A fuzz find (docs/robustness.md): a v7 buffer option names cpu 17 while the
# header says 2 cpus. The cpu count must cover every cpu with events (17 + 1),
# or the model's per-cpu arrays are too short (seen only under ASan).
f=$TOP/tests/fuzz/corpus/v7-cpu-beyond-header.dat
line=$("$RR_BIN" stats "$f" 2>&1 | grep -m1 'cpus,')
case $line in
*" 18 cpus,"*) ok "cpu beyond the header's count raises the cpu count" ;;
*) not_ok "cpu beyond the header's count raises the cpu count" "got: $line" ;;
esac
# A fuzz find (docs/robustness.md): a padding record whose length is negative
# as a C int sends libtraceevent's kbuffer backwards, out of the page; a
# record found there can claim any size. The pre-check must refuse such a
# page. The files' backward jump is first shown by an independent walk of
# the pages as kbuffer does it (next = pos + 4 + (int)length).
for name in v6-padding-negative v6-lost-state; do
	f=$TOP/tests/fuzz/corpus/$name.dat
	walk=$(python3 - "$f" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
ps = 4096
# v6: the flyrecord cpu table gives each cpu's data (offset, size)
i = d.index(b"flyrecord\0")
off = i + 10
found = 0
while off + 16 <= len(d):
    o, n = struct.unpack_from("<QQ", d, off)
    off += 16
    if o == 0 or o % ps or o + n > len(d) or n % ps:
        break
    for p in range(o, o + n, ps):
        size = struct.unpack_from("<Q", d, p + 8)[0] & ((1 << 27) - 1)
        pos = 0
        for _ in range(4096):
            if pos >= size:
                break
            h = struct.unpack_from("<I", d, p + 16 + pos)[0]
            t = h & 31
            if t == 29:
                ln = struct.unpack_from("<i", d, p + 20 + pos)[0]
                nxt = pos + 4 + ln
            elif t in (30, 31):
                nxt = pos + 8
            elif t == 0:
                nxt = pos + 4 + ((struct.unpack_from("<I", d, p + 20 + pos)[0] + 3) & ~3)
            else:
                nxt = pos + 4 + 4 * t
            if nxt <= pos:
                found += 1
                break
            pos = nxt
print(found)
PY
)
	err=$("$RR_BIN" stats "$f" 2>&1 >/dev/null)
	rc=$?
	if [ "${walk:-0}" -gt 0 ] && [ $rc -eq 4 ] && [[ $err == *"a padding record of length"* ]]; then
		ok "$name: a backward padding ($walk page(s)) is refused with exit 4"
	else
		not_ok "$name: a backward padding is refused with exit 4" \
			"pages going backwards: ${walk:-?}; exit $rc: $err"
	fi
done
tap_done
