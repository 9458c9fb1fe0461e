#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structural checks of an `--export-timeline` file (Chrome Trace Event format).

usage: timeline_check.py TIMELINE.json REPORT.json [--stats STATS.json]
           [--manifest M.json] [--expected GEN.expected.json]
Prints "ok|fail<TAB>description<TAB>detail" lines for tap_report (lib.sh).

REPORT.json is the same run's --json (policies, nodes, inputs). The counts
of the `recorded` processes are compared with `stats --json` (another code
path), the throttle time with the manifest's usec_delayed sums and the
episode time with its sum_duration_us, the lost-event instants with
rr-gen's expected.json.
"""
import argparse
import json
import re
import sys
from collections import Counter, defaultdict

out = []
EPISODES = {"mm_vmscan_direct_reclaim": "direct", "mm_vmscan_memcg_reclaim": "memcg",
            "mm_vmscan_memcg_softlimit_reclaim": "softlimit", "mm_vmscan_node_reclaim": "node",
            "kswapd": "kswapd"}
THROTTLES = ("mm_vmscan_throttled", "writeback_congestion_wait", "writeback_wait_iff_congested")
TIME = re.compile(rb'"(ts|dur|timeout)":(-?[0-9][0-9eE+.\-]*)')
US_NS = re.compile(rb"^-?[0-9]+\.[0-9]{3}$")


def res(ok, desc, detail=""):
    out.append("%s\t%s\t%s" % ("ok" if ok else "fail", desc, str(detail)[:300]))


def ns(v):
    return int(round(v * 1000))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("timeline")
    ap.add_argument("report")
    ap.add_argument("--stats")
    ap.add_argument("--manifest")
    ap.add_argument("--expected")
    a = ap.parse_args()

    raw = open(a.timeline, "rb").read()
    try:
        doc = json.loads(raw)
    except ValueError as e:
        res(False, "timeline is one valid JSON document", e)
        return
    res(isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list),
        "timeline is a JSON object with a traceEvents array")
    ev = doc["traceEvents"]
    times = TIME.findall(raw)
    bad = [v for _, v in times if not US_NS.match(v)]
    res(times and not bad, "every ts/dur/timeout is microseconds with 3 decimals (ns)",
        (len(times), bad[:3]))

    req = {"X": ("ts", "dur", "cat", "args"), "C": ("ts", "args"), "i": ("ts", "s", "args"),
           "M": ("args",)}
    missing = []
    for e in ev:
        if not all(k in e for k in ("name", "ph", "pid", "tid")):
            missing.append(e)
            continue
        if e["ph"] not in req or not all(k in e for k in req[e["ph"]]):
            missing.append(e)
        elif not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
            missing.append(e)
        elif e["ph"] == "X" and (e["dur"] < 0 or not isinstance(e["ts"], (int, float))):
            missing.append(e)
        elif e["ph"] == "C" and not all(isinstance(v, (int, float)) for v in e["args"].values()):
            missing.append(e)
        elif e["ph"] == "i" and e["s"] not in ("g", "p", "t"):
            missing.append(e)
    res(not missing, "every event has the fields its phase needs", missing[:2])

    rep = json.load(open(a.report))
    if rep["command"] == "replay":
        policies = list(rep["results"][0]["nodes"][0]["policies"])
    else:
        policies = [p["label"] for p in rep["results"][0]["policies"]]
    procs = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
               if e["ph"] == "M" and e["name"] == "thread_name"}
    ins = rep["inputs"]
    want = sorted("%s node %d%s" % (p, n, " [%s]" % i["path"].rsplit("/", 1)[-1]
                                      if len(ins) > 1 else "")
                  for i in ins for p in policies for n in range(i["nodes"]))
    res(sorted(procs.values()) == want, "one process per (policy, node), named 'POLICY node N'",
        (sorted(procs.values())[:6], want[:6]))
    res(all(1 <= p < 1000 for p in procs), "process ids are small integers", sorted(procs)[:5])
    used = {e["pid"] for e in ev if e["ph"] != "M"}
    res(used <= set(procs), "every event's pid has a process_name", used - set(procs))
    xs = [e for e in ev if e["ph"] == "X"]
    unnamed = {(e["pid"], e["tid"]) for e in xs} - set(threads)
    res(not unnamed, "every slice's thread has a thread_name", list(unnamed)[:3])
    badname = [(k, v) for k, v in threads.items() if not re.match(r"^.*-%d$" % k[1], v)]
    res(not badname, "thread names are 'comm-pid' with the tid as pid", badname[:3])
    names = Counter(e["name"] for e in xs)
    unknown = set(names) - set(EPISODES) - set(THROTTLES) - {"retry"}
    res(not unknown, "slices are named like the kernel events", unknown)
    thr_args = [e for e in xs if e["name"] in THROTTLES and not
                {"reason", "timeout", "timed_out", "replayed_dur", "clipped"} <= set(e["args"])]
    res(not thr_args, "throttle slices carry reason, timeout and timed_out", thr_args[:2])

    # Nesting per thread: sorted by start (longest first), a slice either
    # starts after the enclosing one ended or ends inside it.
    per_thread = defaultdict(list)
    for e in xs:
        per_thread[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e))
    partial = []
    orphan = []
    for key, sl in per_thread.items():
        sl.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]["name"] in THROTTLES))
        stack = []
        for b, en, e in sl:
            while stack and stack[-1][1] <= b:
                stack.pop()
            if stack and en > stack[-1][1]:
                partial.append((key, stack[-1][2]["name"], stack[-1][0], stack[-1][1],
                                e["name"], b, en))
            # (a zero-length sleep at a sibling's start is drawn as a mark, not nested)
            if e["name"] in THROTTLES and en > b and stack and \
                    stack[-1][2]["name"] not in EPISODES:
                orphan.append((key, e["name"], b))
            if en > b:  # a zero-length slice contains nothing
                stack.append((b, en, e))
    res(not partial, "slices nest per thread (no partial overlap)", partial[:2])
    res(not orphan, "a throttle inside a slice lies directly in its episode", orphan[:2])

    # the count checks compare one input's recorded processes with its stats
    rec = {p for p, n in procs.items() if n.startswith("recorded node ")} \
        if len(ins) == 1 else set()
    ep = Counter()
    if rec:
        recx = [e for e in xs if e["pid"] in rec]
        ep = Counter(EPISODES[e["name"]] for e in recx if e["name"] in EPISODES)
        thr = [e for e in recx if e["name"] in THROTTLES]
        if a.stats:
            st = json.load(open(a.stats))["results"][0]["nodes"]
            want_ep = Counter()
            want_thr = 0
            for n in st:
                for kind, v in n["episodes"].items():
                    # completed, open at an edge, or cut by a loss: each is one slice
                    want_ep[kind] += v["completed"] + v["open"] + v["cut_by_loss"]
                for v in list(n["throttles"].values()) + list(n["kswapd_throttles"].values()):
                    want_thr += v["count"]
            want_ep = +want_ep
            res(ep == want_ep, "recorded: episode slices per kind = stats --json episodes",
                (dict(ep), dict(want_ep)))
            res(len(thr) == want_thr, "recorded: throttle slices = stats --json throttles",
                (len(thr), want_thr))
        if a.manifest:
            m = json.load(open(a.manifest))["trace"]
            want_us = sum(v["sum_usec_delayed"] for v in m["throttled"].values())
            want_n = sum(v["count"] for v in m["throttled"].values())
            # the replayed length: drawn slices may be clipped to nest (see the doc)
            got_ns = sum(ns(e["args"]["replayed_dur"]) for e in thr)
            clipped = [e for e in thr if e["args"]["clipped"]]
            out.append("note\trecorded: %d of %d throttle slices clipped to nest, by %.3f ms in all"
                       % (len(clipped), len(thr), (got_ns - sum(ns(e["dur"]) for e in thr)) / 1e6))
            res(got_ns == want_us * 1000 and len(thr) == want_n,
                "recorded: throttle slices' count and time = manifest (usec_delayed)",
                (len(thr), got_ns, want_n, want_us * 1000))
            for kind in ("direct", "memcg"):
                r = m["reclaim"].get(kind, {})
                if "sum_duration_us" not in r:
                    continue
                got = sum(ns(e["args"]["replayed_dur"]) for e in recx
                          if EPISODES.get(e["name"]) == kind) / 1e3
                n = r.get("count_completed", 0)
                # the manifest rounds each sum to 0.1 us
                res(abs(got - r["sum_duration_us"]) <= 0.051 + 1e-6 * n,
                    "recorded: %s slices' time = manifest sum_duration_us" % kind,
                    (got, r["sum_duration_us"]))
    inst = [e for e in ev if e["ph"] == "i"]
    gaps = sum(i["lost_events"]["gaps"] for i in ins)
    res(len(inst) == gaps, "one lost-events instant per loss notice (report's lost_events.gaps)",
        (len(inst), gaps))
    if a.expected:
        exp = json.load(open(a.expected))
        total = sum(e["args"]["count"] for e in inst)
        want = Counter()
        for node in exp["per_node"].values():
            want.update(node["episodes"])
        if rec:
            res(ep == +want, "recorded: episode slices per kind = rr-gen's scenario episodes",
                (dict(ep), dict(+want)))
        res(total == exp["lost_events"], "lost-events instants' counts sum to rr-gen's lost_events",
            (total, exp["lost_events"]))
    counters = Counter(e["name"] for e in ev if e["ph"] == "C")
    res(counters.get("reclaim efficiency", 0) + counters.get("written pages", 0) > 0 or
        not xs, "counter tracks for the node curves are present", dict(counters))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a crash is a failed check, not a silent pass
        res(False, "timeline_check ran", repr(e))
    print("\n".join(out))
