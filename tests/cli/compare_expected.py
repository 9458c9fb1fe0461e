#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `reclaim-replay stats --json` output with rr-gen's expected.json.

    compare_expected.py expect NAME EXPECTED.json STATS.json
    compare_expected.py same   NAME STATS_A.json STATS_B.json

Prints one line per check, tab separated: `ok<TAB>description` or
`not ok<TAB>description<TAB>detail`. The shell test turns them into numbered
TAP lines, so the numbering stays with tests/lib.sh. Exit status 0 when the
inputs could be read (failed checks are reported as lines, not by status).
"""
import json
import sys

# Throttle reasons the stats JSON reports, in its order.
REASONS = ("WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED",
           "CONGESTION_WAIT", "WAIT_IFF_CONGESTED")
KINDS = ("direct", "memcg", "kswapd")

# Per scenario: the fields of the analyzer's event table (docs/event-model.md
# section 3) that the scenario's formats lack, exactly as
# inputs[0].missing_fields must list them ("event.field"). oldformat.scn is
# kernel "old" (4.8-4.10 like, tests/gen/formats.h): shrink_inactive has only
# nid/nr_scanned/nr_reclaimed/priority/reclaim_flags, kswapd_wake no zid,
# wakeup_kswapd no gfp_flags. lru_isolate's classzone_idx and "int file"
# (newer kernels: highest_zoneidx and lru) and block_rq_complete's "errors"
# (newer: "error") are not missing: the event table names them as the
# fields' alt_name and both readers decode them (docs/event-model.md).
MISSING_FIELDS = {
    "oldformat": (
        "mm_vmscan_lru_shrink_inactive.nr_dirty",
        "mm_vmscan_lru_shrink_inactive.nr_writeback",
        "mm_vmscan_lru_shrink_inactive.nr_congested",
        "mm_vmscan_lru_shrink_inactive.nr_immediate",
        "mm_vmscan_lru_shrink_inactive.nr_activate0",
        "mm_vmscan_lru_shrink_inactive.nr_activate1",
        "mm_vmscan_kswapd_wake.zid",
        "mm_vmscan_wakeup_kswapd.gfp_flags",
    ),
}


def out(good, desc, detail=""):
    line = ("ok" if good else "not ok") + "\t" + desc
    if not good and detail:
        line += "\t" + " ".join(str(detail).split())
    print(line)


def cmp(name, what, got, want):
    out(got == want, "%s: %s" % (name, what),
        "got %s, expected %s" % (got, want))


def diff_dict(got, want):
    """Keys whose values differ, as 'key: got X want Y' strings."""
    keys = sorted(set(got) | set(want))
    return ["%s: got %s want %s" % (k, got.get(k, 0), want.get(k, 0))
            for k in keys if got.get(k, 0) != want.get(k, 0)]


def node_map(stats):
    return {str(n["nid"]): n for n in stats["results"][0]["nodes"]}


def throttle_sum(node, reason):
    """Count and delay of REASON on a node, direct and kswapd sleeps together."""
    c = d = 0
    for key in ("throttles", "kswapd_throttles"):
        t = node.get(key, {}).get(reason)
        if t:
            c += t["count"]
            d += t["total_delayed_us"]
    return c, d


def expect(name, exp, stats):
    inp = stats["inputs"][0]

    d = diff_dict(inp.get("events", {}), exp["events"])
    out(not d, "%s: event counts by name (%d names)" % (name, len(exp["events"])),
        "; ".join(d))
    cmp(name, "lost events total", inp["lost_events"]["total"],
        exp["lost_events"])

    nodes = node_map(stats)
    for nid in sorted(exp["per_node"], key=int):
        en = exp["per_node"][nid]
        sn = nodes.get(nid)
        if sn is None:
            out(False, "%s: node %s present" % (name, nid),
                "nodes reported: %s" % sorted(nodes, key=int))
            continue
        pre = "node %s" % nid

        for r in REASONS:
            want = en["throttle"].get(r, {"count": 0, "usec_delayed": 0})
            c, dl = throttle_sum(sn, r)
            if not want["count"] and not c:
                continue	# reason absent on both sides: nothing to say
            cmp(name, "%s %s throttles count" % (pre, r), c, want["count"])
            cmp(name, "%s %s usec_delayed sum" % (pre, r), dl,
                want["usec_delayed"])

        si = en["shrink_inactive"]
        cmp(name, "%s shrink_inactive nr_scanned" % pre, sn["scan"]["scanned"],
            si["nr_scanned"])
        cmp(name, "%s shrink_inactive nr_reclaimed" % pre,
            sn["scan"]["reclaimed"], si["nr_reclaimed"])

        ep = sn["episodes"]
        # "begun" counts begins in the trace (docs/reclaim-replay-stats.md);
        # episodes_begun leaves out those whose begin fell in a lost window.
        begun = en.get("episodes_begun", en["episodes"])
        for k in ("direct", "memcg"):
            cmp(name, "%s %s episodes begun" % (pre, k), ep[k]["begun"],
                begun[k])
            cmp(name, "%s %s episodes completed" % (pre, k),
                ep[k]["completed"], en["episodes_complete"][k])
        # kswapd: only wake-to-sleep spans count as episodes in expected.json;
        # a run without kswapd_sleep may show up as open, not completed.
        cmp(name, "%s kswapd completed spans" % pre, ep["kswapd"]["completed"],
            en["episodes_complete"]["kswapd"])

        if name == "lost":
            # Every episode that is not complete must show up as cut by the
            # loss or open (each episode is in exactly one of completed,
            # cut_by_loss, open): none may be silently paired across the gap.
            for k in ("direct", "memcg"):
                inc = en["episodes"][k] - en["episodes_complete"][k]
                if not inc:
                    continue
                e = ep[k]
                got = e["cut_by_loss"] + e["open"]
                out(got == inc and e["completed"] == en["episodes_complete"][k],
                    "%s: %s %d incomplete %s episodes reported cut_by_loss/open"
                    % (name, pre, inc, k),
                    "cut_by_loss %d + open %d, completed %d; expected %d "
                    "incomplete and %d completed" %
                    (e["cut_by_loss"], e["open"], e["completed"], inc,
                     en["episodes_complete"][k]))

    if name == "lost":
        cut = inp["lost_events"].get("episodes_cut", 0)
        inc = sum(n["episodes"][k] - n["episodes_complete"][k]
                  for n in exp["per_node"].values() for k in KINDS)
        out(cut >= 1, "%s: lost_events.episodes_cut reported" % name,
            "episodes_cut %d, %d incomplete expected" % (cut, inc))

    if name in MISSING_FIELDS:
        mf = set(inp.get("missing_fields", {}))
        want = set(MISSING_FIELDS[name])
        out(mf == want, "%s: missing_fields lists the %d absent fields"
            % (name, len(want)),
            "not listed: %s; listed but present: %s"
            % (sorted(want - mf), sorted(mf - want)))

    if name == "legacy510":
        # Legacy waits carry no nid: each must be charged to the node of its
        # CPU (or the scenario's nid=), and to no other node.
        for r in ("CONGESTION_WAIT", "WAIT_IFF_CONGESTED"):
            got = {n: throttle_sum(nodes[n], r)[0] for n in nodes}
            want = {n: exp["per_node"].get(n, {}).get("throttle", {})
                    .get(r, {}).get("count", 0) for n in nodes}
            out(got == want, "%s: %s counted on the right nodes" % (name, r),
                "got %s, expected %s" % (got, want))


def strip_input(stats):
    """A copy without what names the file: inputs' path, format and size,
    and the path in the warnings (each starts with it)."""
    s = json.loads(json.dumps(stats))
    for i in s.get("inputs", []):
        path = i.get("path")
        if path:
            s["warnings"] = [w.replace(path, "TRACE")
                             for w in s.get("warnings", [])]
        for k in ("path", "format", "size_bytes", "sha256"):
            i.pop(k, None)
    return s


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return "%s: %r vs %r" % (path or "/", a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s/%s: only in %s" % (path, k, "v6" if k in a else "v7")
            d = first_diff(a[k], b[k], "%s/%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: length %d vs %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %r vs %r" % (path, a, b)


def main(argv):
    if len(argv) != 5 or argv[1] not in ("expect", "same"):
        sys.stderr.write(__doc__)
        return 2
    mode, name = argv[1], argv[2]
    try:
        with open(argv[3]) as f:
            a = json.load(f)
        with open(argv[4]) as f:
            b = json.load(f)
    except (OSError, ValueError) as e:
        out(False, "%s: read JSON" % name, e)
        return 0
    if mode == "expect":
        try:
            expect(name, a, b)
        except (KeyError, IndexError, TypeError) as e:
            out(False, "%s: stats JSON has the expected layout" % name,
                "%s: %r" % (type(e).__name__, e))
    else:
        d = first_diff(strip_input(a), strip_input(b))
        out(d is None, "%s: v7 stats JSON identical to v6" % name,
            "first difference v6 vs v7 at %s" % d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
