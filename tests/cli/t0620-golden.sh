#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Golden files (tests/golden/README.md): stats, replay and compare on a
# hand-written trace-cmd report text (tests/golden/tiny.txt) whose figures
# were worked out by hand, and the bundled traces' stats against numbers
# taken from their manifests. golden_check.py compares every figure the
# golden lists and skips volatile fields (version, paths). A golden with one
# figure changed must fail, so the comparison itself is tested too.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$TOP" || exit 1
checker=tests/cli/golden_check.py
g=tests/golden

# golden NAME GOLDEN ARGS...: run the command, compare with the golden
golden() {
	local name=$1 file=$2; shift 2
	if ! "$RR_BIN" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"; then
		not_ok "$name: exits 0" "$(head -c 300 "$tmp/$name.err")"
		return
	fi
	tap_check "$tmp/$name.chk" "$checker" "$name" "$file" "$tmp/$name.json"
}

golden tiny-stats $g/tiny.stats.golden.json stats --json -q $g/tiny.txt
golden tiny-replay $g/tiny.replay.golden.json replay --json -q $g/tiny.txt -P none -P legacy-broken
golden tiny-compare $g/tiny.compare.golden.json compare --json -q $g/tiny.txt -P none \
	-P legacy-broken
for dat in traces/*.dat; do
	base=$(basename "$dat" .dat)
	if [ -f "$g/$base.stats.golden.json" ]; then
		golden "$base-stats" "$g/$base.stats.golden.json" stats --json -q "$dat"
	else
		not_ok "$base: a golden file from its manifest" "missing $g/$base.stats.golden.json"
	fi
done

# The checker can fail: one figure off by one, one "*" zero that is not.
python3 - "$g/tiny.replay.golden.json" "$tmp/off.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
g["results"][0]["nodes"][0]["policies"]["none"]["retry_batches"] += 1
json.dump(g, open(sys.argv[2], "w"))
PY
python3 "$checker" off "$tmp/off.json" "$tmp/tiny-replay.json" >"$tmp/off.out" 2>&1
if grep -q "^fail.*retry_batches" "$tmp/off.out"; then
	ok "a golden figure off by one fails the comparison"
else
	not_ok "a golden figure off by one fails the comparison" "$(cat "$tmp/off.out")"
fi
python3 - "$g/tiny.stats.golden.json" "$tmp/star.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
del g["results"][0]["nodes"][0]["throttles"]["ISOLATED"]
json.dump(g, open(sys.argv[2], "w"))
PY
python3 "$checker" star "$tmp/star.json" "$tmp/tiny-stats.json" >"$tmp/star.out" 2>&1
if grep -q "^fail.*ISOLATED" "$tmp/star.out"; then
	ok "\"*\": 0 fails when an unlisted figure is not zero"
else
	not_ok "\"*\": 0 fails when an unlisted figure is not zero" "$(cat "$tmp/star.out")"
fi
tap_done
