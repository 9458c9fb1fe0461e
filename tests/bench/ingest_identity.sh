#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ingest work must not change what a load produces. Usage:
#   tests/bench/ingest_identity.sh REF_BUILD_DIR NEW_BUILD_DIR
# Each build dir holds reclaim-replay, libreclaimreplay.a and rr-gen (make
# O=DIR) and sits in its source tree, e.g. a `git archive HEAD` tree built
# in /tmp against the working tree. Builds ingest-identity
# (ingest_identity.c) in both, then compares, trace by trace, its digests
# and `stats --json` (output, stderr, exit code) on: traces/*.dat,
# ../shared/traces/*.dat (when present), the fuzz corpus, every tests/gen
# scenario through rr-gen, the scale traces of build/bench, and
# IDENTITY_CORRUPT (default 60) truncated or byte-flipped copies.
# Prints one line per difference and "N inputs, M differ"; exits 1 on any.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ref=$1 new=$2
work=${IDENTITY_TMP:-$(mktemp -d /tmp/ingest-identity.XXXXXX)}
mkdir -p "$work/gen" "$work/bad"
libs="-ltracecmd -ltracefs -ltraceevent -ljansson -lm -lpthread -ldl"
for b in "$ref" "$new"; do
	# each against its own tree's headers (BUILD_DIR/..), so struct layouts match
	inc=$b/../include
	[ -d "$inc" ] || inc=$top/include
	# shellcheck disable=SC2086
	cc -D_GNU_SOURCE -I"$inc" -std=gnu11 -O2 -o "$b/ingest-identity" \
		"$top/tests/bench/ingest_identity.c" "$b/libreclaimreplay.a" $libs || exit 2
done

inputs=("$top"/traces/*.dat)
for f in "$top"/../shared/traces/*.dat; do [ -e "$f" ] && inputs+=("$f"); done
for f in "$top"/tests/fuzz/corpus/*; do [ -f "$f" ] && inputs+=("$f"); done
for s in "$top"/tests/gen/scenarios/*.scn; do
	o=$work/gen/$(basename "$s" .scn).dat
	"$new/rr-gen" -o "$o" "$s" >/dev/null 2>&1 && inputs+=("$o")
done
for f in "$top"/build/bench/scale-*.dat; do [ -e "$f" ] && inputs+=("$f"); done

# Damaged copies of the small real traces: same seed, same copies.
python3 - "$work/bad" "${IDENTITY_CORRUPT:-60}" \
	"$top"/traces/*.dat "$top"/tests/fuzz/corpus/* <<'PY'
import os, random, sys
out, n, srcs = sys.argv[1], int(sys.argv[2]), [s for s in sys.argv[3:] if os.path.isfile(s)]
rnd = random.Random(20261203)
for i in range(n):
    src = rnd.choice(srcs)
    data = bytearray(open(src, "rb").read())
    if not data:
        continue
    if i % 3 == 0:
        data = data[:rnd.randrange(len(data))]
    else:
        for _ in range(rnd.randint(1, 64)):
            data[rnd.randrange(len(data))] = rnd.randrange(256)
    open(os.path.join(out, "bad-%03d-%s" % (i, os.path.basename(src))), "wb").write(data)
PY
for f in "$work"/bad/*; do inputs+=("$f"); done

differ=0
for f in "${inputs[@]}"; do
	for b in ref new; do
		d=$ref; [ $b = new ] && d=$new
		"$d/ingest-identity" "$f" >"$work/$b.id" 2>"$work/$b.id.err"
		"$d/reclaim-replay" stats --json "$f" >"$work/$b.json" 2>"$work/$b.err"
		echo "exit $?" >>"$work/$b.err"
	done
	for k in id id.err json err; do
		if ! cmp -s "$work/ref.$k" "$work/new.$k"; then
			echo "DIFF $k: $f"
			diff "$work/ref.$k" "$work/new.$k" | head -4
			differ=$((differ + 1))
			break
		fi
	done
done
echo "${#inputs[@]} inputs, $differ differ"
[ -z "${IDENTITY_TMP:-}" ] && rm -rf "$work"
[ "$differ" -eq 0 ]
