#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks on `reclaim-replay replay --json` and `validate --json` output for
t0400-replay.sh and t0410-validate.sh.

    replay_checks.py identity  NAME REPLAY.json STATS.json
    replay_checks.py manifest  NAME REPLAY.json MANIFEST.json
    replay_checks.py none      NAME REPLAY.json STATS.json
    replay_checks.py whole     NAME REPLAY.json
    replay_checks.py isolated  NAME REPLAY.json STATS.json
    replay_checks.py monotone  NAME REPLAY.json SETTING V1 V2 ...
    replay_checks.py whatif    NAME REPLAY.json STATS.json
    replay_checks.py summary   VALIDATE.json PLAIN-LAST-LINE
    replay_checks.py manifests VALIDATE.json MANIFEST...
    replay_checks.py shared    VALIDATE.json

Prints one line per check, tab separated: `ok<TAB>description`,
`not ok<TAB>description<TAB>detail`, `skip<TAB>description<TAB>reason` (the
trace holds nothing the check could fail on), or `note<TAB>text` (a figure
worth reading, printed as a TAP comment). The shell turns them into numbered TAP
lines. Exit status 0 when the inputs could be read.
"""
import json
import re
import sys

REASONS = ("WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED",
           "CONGESTION_WAIT", "WAIT_IFF_CONGESTED")
# the reasons of mm_vmscan_throttled, the only ones a manifest's
# trace.throttled block can hold
TRACEPOINT_REASONS = ("WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED")
SLACK = 1e-4            # docs/model.md section 5: monotonicity slack
HZ10_MS = 100           # HZ/10 at HZ=250: 25 jiffies = 100 ms
JIFFY_NS = 4000000      # one jiffy at HZ=250
SUMMARY_RE = re.compile(r"^fidelity: within-tolerance=[0-9.]+% total-time-error=[0-9.]+% "
                        r"identity-error=0 properties=ok$")
SUMMARY_FORM = re.compile(r"^fidelity: within-tolerance=[0-9.]+% total-time-error=[0-9.]+% "
                          r"identity-error=[0-9]+ properties=(ok|FAILED)$")


def out(res, desc, detail=""):
    print(f"{res}\t{desc}\t{detail}" if detail else f"{res}\t{desc}")


def check(cond, desc, detail):
    out("ok" if cond else "not ok", desc, "" if cond else detail)


def note(text):
    print(f"note\t{text}")


def load(path):
    with open(path) as f:
        return json.load(f)


def replay_nodes(path):
    """{nid: {label: policy figures}} of the first result."""
    doc = load(path)
    return {n["nid"]: n["policies"] for n in doc["results"][0]["nodes"]}


def stats_nodes(path):
    doc = load(path)
    return {n["nid"]: n for n in doc["results"][0]["nodes"]}


def sleeps(pol, key="throttles"):
    return sum(x["sleep_ns"] for x in pol[key].values())


def counts(pol, key="throttles"):
    return sum(x["count"] for x in pol[key].values())


def cmd_identity(name, replay, stats):
    """recorded replay = stats, per node, figure by figure."""
    rn, sn = replay_nodes(replay), stats_nodes(stats)
    diffs = []
    if sorted(rn) != sorted(sn):
        diffs.append(f"nodes replay {sorted(rn)} stats {sorted(sn)}")
    for nid in sorted(set(rn) & set(sn)):
        r, s = rn[nid].get("recorded"), sn[nid]
        if r is None:
            diffs.append(f"node {nid}: no 'recorded' policy in replay output")
            continue
        pairs = [("stall_ns", r["stall_ns"], s["stall_ns"]),
                 ("scanned", r["scanned"], s["scan"]["scanned"]),
                 ("reclaimed", r["reclaimed"], s["scan"]["reclaimed"])]
        for key in ("throttles", "kswapd_throttles"):
            for reason in REASONS:
                rr = r[key].get(reason, {"count": None, "sleep_ns": None})
                ss = s[key].get(reason, {"count": None, "total_delayed_us": None})
                pairs.append((f"{key}.{reason}.count", rr["count"], ss["count"]))
                # sleep_ns is the recorded usec_delayed x 1000, so it must
                # divide exactly; a remainder is itself a difference
                rus = rr["sleep_ns"]
                if rus is not None:
                    rus = rus // 1000 if rus % 1000 == 0 else rus / 1000
                pairs.append((f"{key}.{reason}.sleep_ns/1000", rus, ss["total_delayed_us"]))
        for what, a, b in pairs:
            if a != b:
                diffs.append(f"node {nid} {what}: replay {a} stats {b}")
    check(not diffs, f"{name}: recorded replay = stats (stall, scanned, reclaimed, "
          f"throttles per reason) on {len(rn)} node(s)", "; ".join(diffs[:8]) +
          (f" (+{len(diffs) - 8} more)" if len(diffs) > 8 else ""))


def cmd_manifest(name, replay, manifest):
    """recorded replay = the recorder's own sums (trace-cmd report + awk)."""
    rn = replay_nodes(replay)
    tr = load(manifest).get("trace", {})
    thr = tr.get("throttled", {}) or {}
    diffs = []
    rec = {nid: pols["recorded"] for nid, pols in rn.items()}

    def node_reason(nid, reason, field):
        p = rec[nid]
        return sum(p[k].get(reason, {}).get(field, 0) for k in ("throttles", "kswapd_throttles"))

    for reason in sorted(set(TRACEPOINT_REASONS) | set(thr)):
        m = thr.get(reason, {"count": 0, "sum_usec_delayed": 0, "by_nid": {}})
        cnt = sum(node_reason(n, reason, "count") for n in rec)
        ns = sum(node_reason(n, reason, "sleep_ns") for n in rec)
        if cnt != m["count"]:
            diffs.append(f"{reason} count: replay {cnt} manifest {m['count']}")
        if ns != m["sum_usec_delayed"] * 1000:
            diffs.append(f"{reason} sleep: replay {ns} ns manifest {m['sum_usec_delayed']} us")
        for nid_s, bn in (m.get("by_nid") or {}).items():
            nid = int(nid_s)
            if nid not in rec:
                diffs.append(f"{reason}: manifest node {nid} not in replay")
                continue
            c, s = node_reason(nid, reason, "count"), node_reason(nid, reason, "sleep_ns")
            if c != bn["count"] or s != bn["sum_usec_delayed"] * 1000:
                diffs.append(f"node {nid} {reason}: replay {c}/{s} ns manifest "
                             f"{bn['count']}/{bn['sum_usec_delayed']} us")
    by_nid = tr.get("shrink_inactive_by_nid")
    scan_checked = by_nid is not None
    for nid_s, v in (by_nid or {}).items():
        nid = int(nid_s)
        if nid not in rec:
            diffs.append(f"manifest node {nid} not in replay")
            continue
        if rec[nid]["scanned"] != v["sum_nr_scanned"]:
            diffs.append(f"node {nid} scanned: replay {rec[nid]['scanned']} manifest "
                         f"{v['sum_nr_scanned']}")
        if rec[nid]["reclaimed"] != v["sum_nr_reclaimed"]:
            diffs.append(f"node {nid} reclaimed: replay {rec[nid]['reclaimed']} manifest "
                         f"{v['sum_nr_reclaimed']}")
    what = "throttle counts and usec_delayed" + (
        ", shrink_inactive_by_nid" if scan_checked else
        " (manifest has no shrink_inactive_by_nid: scan sums not compared)")
    check(not diffs, f"{name}: recorded replay = manifest {what}", "; ".join(diffs[:8]))


def cmd_none(name, replay, stats):
    rn, sn = replay_nodes(replay), stats_nodes(stats)
    slept, retry = [], []
    for nid, pols in sorted(rn.items()):
        p = pols.get("none")
        if p is None:
            slept.append(f"node {nid}: no 'none' policy in replay output")
            continue
        for key in ("throttles", "kswapd_throttles"):
            if sleeps(p, key) or counts(p, key):
                slept.append(f"node {nid} {key}: {counts(p, key)} sleeps, {sleeps(p, key)} ns")
        s = sn.get(nid)
        thr = counts(s) + counts(s, "kswapd_throttles") if s else 0
        if thr and p["retry_batches"] <= 0:
            retry.append(f"node {nid}: {thr} recorded throttles, retry_batches "
                         f"{p['retry_batches']}")
    check(not slept, f"{name}: none sleeps 0 ns on every node", "; ".join(slept))
    nodes_thr = [n for n, s in sn.items() if counts(s) + counts(s, "kswapd_throttles")]
    if nodes_thr:
        check(not retry, f"{name}: none has retry_batches > 0 on the {len(nodes_thr)} node(s) "
              "with throttles", "; ".join(retry))
    else:
        out("skip", f"{name}: none retry_batches > 0 where throttled", "trace has no throttles")


def cmd_whole(name, replay):
    """legacy-broken: WRITEBACK/ISOLATED sleeps all run to their timeout."""
    rn = replay_nodes(replay)
    bad, n = [], 0
    for nid, pols in sorted(rn.items()):
        p = pols["legacy-broken"]
        for key in ("throttles", "kswapd_throttles"):
            for reason in ("WRITEBACK", "ISOLATED"):
                x = p[key].get(reason)
                if not x:
                    continue
                n += x["count"]
                if x["woken"] or x["timed_out"] != x["count"]:
                    bad.append(f"node {nid} {key}.{reason}: count {x['count']} timed_out "
                               f"{x['timed_out']} woken {x['woken']}")
    if not n and not bad:
        # nothing to check: an ok here would claim what was never tested
        out("skip", f"{name}: legacy-broken WRITEBACK/ISOLATED sleeps all timed out",
            "no WRITEBACK or ISOLATED sleep under legacy-broken on this trace")
        return
    check(not bad, f"{name}: legacy-broken WRITEBACK/ISOLATED sleeps all timed out "
          f"({n} sleeps)", "; ".join(bad))


def cmd_isolated(name, replay, stats):
    """isolated-noswap-a: too_many_isolated() is msleep(100) under legacy-broken.

    Every recorded ISOLATED throttle there waited at most 20 ms, so a 100 ms
    sleep always ends after the recorded resume: no retries, one sleep per
    recorded throttle, each exactly 100 ms (no added delay)."""
    rn, sn = replay_nodes(replay), stats_nodes(stats)
    bad, total = [], 0
    for nid, pols in sorted(rn.items()):
        p = pols["legacy-broken"]["throttles"].get("ISOLATED", {})
        rec = sn[nid]["throttles"]["ISOLATED"]["count"]
        total += rec
        want_ns = rec * 100 * 1000000
        if p.get("count") != rec:
            bad.append(f"node {nid}: {p.get('count')} ISOLATED sleeps, recorded {rec}")
        if p.get("sleep_ns") != p.get("count", 0) * 100 * 1000000:
            bad.append(f"node {nid}: sleep_ns {p.get('sleep_ns')} != count {p.get('count')} x 100 ms")
        elif p.get("sleep_ns") != want_ns:
            bad.append(f"node {nid}: sleep_ns {p.get('sleep_ns')}, expected {want_ns}")
    if not total:
        out("not ok", f"{name}: legacy-broken ISOLATED sleeps are 100 ms each",
            "no recorded ISOLATED throttles in this trace")
        return
    check(not bad, f"{name}: legacy-broken ISOLATED sleep_ns = count x 100 ms "
          f"({total} sleeps, count = recorded count)", "; ".join(bad))


def cmd_monotone(name, replay, setting, values):
    """parametric along SETTING (VALUES in increasing order): stall never
    falls, wasted never rises (docs/model.md section 5 slack), and somewhere
    on the trace one of them moves the right way strictly. Without such a
    move the figures are identical at every point, the check could not have
    failed, and it says skip."""
    rn = replay_nodes(replay)
    labels = [f"parametric:{setting}={v}" for v in values]
    seq = ", ".join(values)
    bad, moved, nodes = [], [], 0
    for nid, pols in sorted(rn.items()):
        missing = [lab for lab in labels if lab not in pols]
        if missing:
            out("not ok", f"{name}: node {nid}: parametric runs present",
                f"missing {missing}; have {sorted(pols)}")
            continue
        nodes += 1
        stall = [pols[lab]["stall_ns"] for lab in labels]
        wasted = [pols[lab]["wasted"] for lab in labels]
        for i in range(len(values) - 1):
            step = f"node {nid} {values[i]}->{values[i + 1]}"
            if stall[i + 1] < stall[i] * (1 - SLACK):
                bad.append(f"{step}: stall_ns {stall[i]} -> {stall[i + 1]}")
            if wasted[i + 1] > wasted[i] * (1 + SLACK):
                bad.append(f"{step}: wasted {wasted[i]} -> {wasted[i + 1]}")
            if stall[i + 1] > stall[i]:
                moved.append(f"{step}: stall up")
            if wasted[i + 1] < wasted[i]:
                moved.append(f"{step}: wasted down")
        note(f"{name} node {nid} {setting} {seq}: stall_ns {stall}, wasted {wasted}")
    desc = (f"{name}: parametric stall non-decreasing, wasted non-increasing over "
            f"{setting} {seq} on {nodes} node(s) (slack 1e-4)")
    if bad:
        out("not ok", desc, "; ".join(bad[:6]))
    elif not moved:
        out("skip", desc, f"stall and wasted identical at every {setting} on every node: "
            "nothing could have failed")
    else:
        out("ok", desc + f"; strict moves: {', '.join(moved[:3])}"
            + (f" (+{len(moved) - 3})" if len(moved) > 3 else ""))


def cmd_whatif(name, replay, stats):
    rn, sn = replay_nodes(replay), stats_nodes(stats)
    legacy_events = sum(s["throttles"][r]["count"] + s["kswapd_throttles"][r]["count"]
                        for s in sn.values() for r in ("CONGESTION_WAIT", "WAIT_IFF_CONGESTED"))
    check(legacy_events > 0, f"{name}: stats sees congestion_wait/wait_iff_congested events",
          "none found: the generated trace is not a legacy trace")
    for pol in ("mainline", "legacy-broken"):
        obs = {nid: p[pol]["decisions"]["observed"] for nid, p in rn.items() if pol in p}
        check(len(obs) == len(rn) and sum(obs.values()) > 0,
              f"{name}: {pol} sees the recorded legacy waits as observed decisions",
              f"decisions.observed per node {obs}")
    diff = {nid: p["mainline"]["stall_ns"] - p["recorded"]["stall_ns"] for nid, p in rn.items()}
    vs = {nid: p["mainline"]["vs_recorded"]["stall_ns"] for nid, p in rn.items()}
    check(any(diff.values()), f"{name}: mainline stall differs from recorded",
          f"mainline - recorded per node {diff}")
    check(diff == vs, f"{name}: mainline vs_recorded.stall_ns = mainline - recorded stall",
          f"computed {diff}, reported {vs}")
    # legacy-broken sleeps each recorded congestion_wait(HZ/10) whole: on a
    # trace whose recorded timeouts are all 100 ms at HZ=250 that is 100 ms +
    # one jiffy, counted as CONGESTION_WAIT, one timed-out sleep per recorded
    # wait (retry sleeps before the recorded resume end early, as "woken").
    bad = []
    for nid, p in sorted(rn.items()):
        x = p["legacy-broken"]["throttles"]["CONGESTION_WAIT"]
        want = sn[nid]["throttles"]["CONGESTION_WAIT"]["count"]
        whole = x["timed_out"] * (HZ10_MS * 1000000 + JIFFY_NS)
        if x["timed_out"] != want or not whole <= x["sleep_ns"] < whole + \
                x["woken"] * (HZ10_MS * 1000000 + JIFFY_NS) + 1:
            bad.append(f"node {nid}: {x}, recorded waits {want}")
    nwb = sum(p["legacy-broken"]["throttles"]["CONGESTION_WAIT"]["timed_out"] for p in rn.values())
    check(not bad and nwb > 0, f"{name}: legacy-broken sleeps each recorded congestion_wait "
          f"100 ms + 1 jiffy ({nwb} sleeps)", "; ".join(bad) or "no CONGESTION_WAIT sleeps")
    for nid, p in sorted(rn.items()):
        parts = []
        for pol in ("recorded", "mainline", "legacy-broken"):
            x = p[pol]
            sl = {r: (v["count"], v["sleep_ns"] / 1e6) for r, v in x["throttles"].items()
                  if v["count"]}
            parts.append(f"{pol}: stall {x['stall_ns'] / 1e6:.1f} ms "
                         f"(vs rec {x['vs_recorded']['stall_ns'] / 1e6:+.1f}), "
                         f"wasted {x['wasted']}, observed/latent "
                         f"{x['decisions']['observed']}/{x['decisions']['latent']}, "
                         f"retry {x['retry_batches']}, sleeps {sl}")
        note(f"{name} node {nid}: " + "; ".join(parts))


def cmd_summary(vjson, plain_last):
    try:
        doc = load(vjson)
    except (OSError, ValueError) as e:
        out("not ok", "validate --json parses", str(e))
        return
    out("ok", "validate --json parses")
    check(doc.get("schema_version") == 1 and doc.get("command") == "validate",
          "validate --json: schema_version 1, command validate",
          f"schema_version {doc.get('schema_version')!r} command {doc.get('command')!r}")
    s = doc.get("summary")
    check(isinstance(s, str) and SUMMARY_FORM.match(s) is not None,
          "validate --json: summary has the form of the plain last line", f"summary {s!r}")
    check(s == plain_last, "validate --json: summary equals the plain output's last line",
          f"json {s!r} plain {plain_last!r}")
    # each recorded throttle is within tolerance, predicted early or late: once
    rows = [(r["input"], f) for r in doc.get("results", []) for f in r.get("fidelity", [])]
    bad = [f"input {i} node {f['nid']} {f['reason']}: {f.get('within_tolerance')} + "
           f"{f.get('predicted_early')} + {f.get('predicted_late')} != {f['throttles']}"
           for i, f in rows
           if f.get("within_tolerance", -1) + f.get("predicted_early", -1) +
           f.get("predicted_late", -1) != f["throttles"]]
    check(rows and not bad, f"validate --json: within + early + late = throttles "
          f"in all {len(rows)} fidelity rows", "; ".join(bad) or "no fidelity rows")


def cmd_manifests(vjson, manifests):
    doc = load(vjson)
    res = doc.get("results", [])
    got = [r.get("manifest") for r in res]
    check(got == manifests, "validate --manifest pairs each manifest with its trace, in order",
          f"results[].manifest {got}, given {manifests}")
    gt = [i for i, r in enumerate(res) if "ground_truth" not in r]
    check(not gt, "validate --manifest: every result has ground_truth",
          f"results without ground_truth: {gt}")


def cmd_shared(vjson):
    doc = load(vjson)
    for r in doc.get("results", []):
        path = doc["inputs"][r["input"]]["path"]
        name = path.rsplit("/", 1)[-1]
        check(r.get("identity_error") == 0, f"{name}: identity_error 0",
              f"identity_error {r.get('identity_error')}")
        props = r.get("properties", [])
        bad = [f"{p['name']}: {p['detail']}" for p in props if not p.get("ok")]
        check(len(props) == 3 and not bad, f"{name}: all {len(props)} properties ok",
              "; ".join(bad) or f"{len(props)} properties")
        unexercised = [p["name"] for p in props if not p.get("exercised")]
        if unexercised:
            note(f"{name}: not exercised: {', '.join(unexercised)}")
    note(f"shared summary: {doc.get('summary')}")


def cmd_free(name, vjson, stats, replay, applicable, manifest="-"):
    """validate's free_mainline against stats (the recorded side) and a
    `replay --policy mainline` of the same trace (the replayed side): the
    same figures from two other commands' code paths. With a manifest, the
    recorded throttles and their sleep per node must also be the recorder's
    own sums (trace-cmd report + awk)."""
    v = load(vjson)["results"][0]["free_mainline"]
    want = applicable == "yes"
    if not want:
        check(v["applicable"] is False and v["nodes"] == [],
              f"{name}: free_mainline not applicable, no nodes", json.dumps(v)[:200])
        return
    sn, rn = stats_nodes(stats), replay_nodes(replay)
    diffs = []
    if not v["applicable"]:
        diffs.append("applicable is false")
    if sorted(n["nid"] for n in v["nodes"]) != sorted(sn):
        diffs.append(f"nodes {[n['nid'] for n in v['nodes']]} stats {sorted(sn)}")
    for n in v["nodes"]:
        s, m = sn.get(n["nid"]), rn.get(n["nid"], {}).get("mainline")
        if s is None or m is None:
            diffs.append(f"node {n['nid']} missing in stats or replay")
            continue
        rec_sleep = 1000 * sum(x["total_delayed_us"] for k in ("throttles", "kswapd_throttles")
                               for x in s[k].values())
        rec_count = sum(x["count"] for k in ("throttles", "kswapd_throttles")
                        for x in s[k].values())
        pairs = [("stall_ns", n["stall_ns"], [s["stall_ns"], m["stall_ns"]]),
                 ("sleep_ns", n["sleep_ns"], [rec_sleep, sleeps(m) + sleeps(m, "kswapd_throttles")]),
                 ("throttles", n["throttles"], [rec_count, counts(m) + counts(m, "kswapd_throttles")]),
                 ("wasted", n["wasted"], [s["scan"]["wasted"], m["wasted"]])]
        for what, got, exp in pairs:
            if got != exp:
                diffs.append(f"node {n['nid']} {what}: validate {got}, stats/replay {exp}")
            key = {"stall_ns": "stall_change_pct", "sleep_ns": "sleep_change_pct",
                   "wasted": "wasted_change_pct"}.get(what)
            if key and exp[0]:
                pct = 100.0 * (exp[1] - exp[0]) / exp[0]
                if n[key] is None or abs(n[key] - pct) > 1e-6 * max(1.0, abs(pct)):
                    diffs.append(f"node {n['nid']} {key}: {n[key]}, computed {pct}")
            elif key and n[key] is not None:
                diffs.append(f"node {n['nid']} {key}: {n[key]} with nothing recorded")
    if manifest != "-":
        thr = load(manifest).get("trace", {}).get("throttled", {}) or {}
        for n in v["nodes"]:
            nid = str(n["nid"])
            cnt = sum(r.get("by_nid", {}).get(nid, {}).get("count", 0) for r in thr.values())
            us = sum(r.get("by_nid", {}).get(nid, {}).get("sum_usec_delayed", 0)
                     for r in thr.values())
            if [n["throttles"][0], n["sleep_ns"][0]] != [cnt, us * 1000]:
                diffs.append(f"node {nid} recorded throttles/sleep_ns: validate "
                             f"{n['throttles'][0]}/{n['sleep_ns'][0]}, manifest {cnt}/{us * 1000}")
    check(not diffs, f"{name}: free_mainline = stats (recorded) and replay --policy mainline "
          f"(replayed) on {len(v['nodes'])} node(s)" +
          (", recorded throttles = manifest" if manifest != "-" else ""), "; ".join(diffs[:6]))


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "identity":
        cmd_identity(*args)
    elif cmd == "manifest":
        cmd_manifest(*args)
    elif cmd == "none":
        cmd_none(*args)
    elif cmd == "whole":
        cmd_whole(*args)
    elif cmd == "isolated":
        cmd_isolated(*args)
    elif cmd == "monotone":
        cmd_monotone(args[0], args[1], args[2], args[3:])
    elif cmd == "whatif":
        cmd_whatif(*args)
    elif cmd == "summary":
        cmd_summary(*args)
    elif cmd == "manifests":
        cmd_manifests(args[0], args[1:])
    elif cmd == "free":
        cmd_free(*args)
    elif cmd == "shared":
        cmd_shared(*args)
    else:
        sys.exit(f"replay_checks.py: unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
