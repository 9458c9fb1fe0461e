#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent checks of `sweep --json` reports, for t0800-sweep.sh and
t0810-fleet.sh. Each check prints "ok|skip|fail<TAB>description<TAB>detail" lines
(tests/lib.sh tap_report). Expected values come from the command line of the
sweep (the spec), from other commands' reports (replay) or from recomputing
the definitions of docs/sweep.md here, never from the sweep's own answer.

  sweep_check.py grid REPORT SPEC...          points = the grid of the specs
  sweep_check.py lhs REPORT N SPEC...         each stratum of each spec once
  sweep_check.py sums REPORT                  totals, per node, per trace sums
  sweep_check.py pareto REPORT                the front, recomputed
  sweep_check.py objective REPORT             recommendation and robustness
  sweep_check.py mainline REPORT REPLAY       point 0 = replay -P mainline
  sweep_check.py point REPORT ID REPLAY       point ID = replay -P parametric
  sweep_check.py monotone REPORT KEY          stall up, waste down along KEY
                                              (skip when nothing moves)
  sweep_check.py same REPORT OTHER [WHAT]     results[0] equal (fleet merge)
  sweep_check.py replaysum REPLAY MERGED      merge of replays = one replay
  sweep_check.py csv REPORT CSV               the CSV holds the JSON's figures
"""
import csv
import itertools
import json
import math
import sys

UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
DURATION_KEYS = {"writeback.timeout", "isolated.timeout", "noprogress.timeout",
                 "congested.timeout"}


def out(res, desc, detail=""):
    print(f"{res}\t{desc}\t{detail}")


def check(cond, desc, detail=""):
    out("ok" if cond else "fail", desc, "" if cond else detail)


def sweep(path):
    doc = json.load(open(path))
    return doc, doc["results"][0]


def duration_ns(text, hz):
    """docs: ns, us, ms, s or j (jiffies at the trace's HZ)"""
    if text.endswith("j"):
        return float(text[:-1]) * 1e9 / hz
    for unit in ("ns", "us", "ms", "s"):
        if text.endswith(unit) and text[:-len(unit)].replace(".", "", 1).isdigit():
            return float(text[:-len(unit)]) * UNITS[unit]
    raise ValueError(text)


def value(key, text, hz):
    if key in DURATION_KEYS:
        return duration_ns(text, hz)
    return float(text)


def parse_spec(spec, hz):
    """KEY=LO..HI:SCALE:N or KEY=V1,V2: (key, list of values) or (key, lo, hi, scale)"""
    key, rest = spec.split("=", 1)
    if ".." not in rest:
        return key, [value(key, v, hz) for v in rest.split(",")], None
    rng, _, tail = rest.partition(":")
    lo, hi = rng.split("..")
    scale, _, n = tail.partition(":")
    return key, (value(key, lo, hz), value(key, hi, hz), scale or "lin", int(n or 5)), 1


def grid_values(spec, hz):
    key, v, is_range = parse_spec(spec, hz)
    if not is_range:
        return key, v
    lo, hi, scale, n = v
    if n == 1:
        return key, [lo]
    if scale == "log":
        return key, [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]
    return key, [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def close(a, b):
    """durations are whole ns in the report: allow the rounding"""
    return abs(a - b) <= max(1.0, 1e-6 * abs(b))


def same_value(key, a, b):
    return close(a, b) if key in DURATION_KEYS else abs(a - b) <= 1e-9 * max(1, abs(b))


def cmd_grid(path, specs):
    doc, s = sweep(path)
    hz = s["traces"][0]["hz"]
    axes = [grid_values(sp, hz) for sp in specs]
    want = list(itertools.product(*[v for _, v in axes]))
    pts = [p for p in s["points"] if not p["mainline"]]
    check(len(pts) == len(want) and s["sample"]["points"] == len(want),
          f"grid: {len(want)} points = product of the steps",
          f"{len(pts)} points, sample.points {s['sample']['points']}")
    check(s["points"][0]["mainline"] and s["points"][0]["id"] == 0 and
          sum(p["mainline"] for p in s["points"]) == 1,
          "grid: point 0 is mainline, the only one")
    got = [tuple(p["settings"][k] for k, _ in axes) for p in pts]
    keys = [k for k, _ in axes]
    bad = [(g, w) for g, w in zip(sorted(got), sorted(want))
           if not all(same_value(k, a, b) for k, a, b in zip(keys, g, w))]
    check(not bad and len(got) == len(want), "grid: the points' values are the spec's grid",
          f"first mismatch {bad[:1]}")
    check(len(set(got)) == len(got), "grid: no point twice")


def to_unit(key, v, lo, hi, scale):
    if scale == "log":
        return math.log(v / lo) / math.log(hi / lo)
    return (v - lo) / (hi - lo)


def cmd_lhs(path, n, specs):
    doc, s = sweep(path)
    hz = s["traces"][0]["hz"]
    pts = [p for p in s["points"] if not p["mainline"]]
    check(len(pts) == n and s["sample"]["method"] == "lhs", f"lhs: {n} points",
          f"{len(pts)} points, method {s['sample']['method']}")
    for sp in specs:
        key, v, is_range = parse_spec(sp, hz)
        if is_range:
            lo, hi, scale, _ = v
            strata = sorted(min(n - 1, int(to_unit(key, p["settings"][key], lo, hi, scale) * n))
                            for p in pts)
            inside = all(lo - 1 <= p["settings"][key] <= hi + 1 for p in pts)
            check(strata == list(range(n)) and inside,
                  f"lhs: {key} has one point in each of its {n} strata",
                  f"strata {strata}")
        else:
            # a list of m values: each about n/m times (a stratum may straddle two)
            counts = [sum(same_value(key, p["settings"][key], x) for p in pts) for x in v]
            check(sum(counts) == n and max(counts) - min(counts) <= 2,
                  f"lhs: {key}'s {len(v)} values shared evenly", f"counts {counts}")


FIGS = ("stall_ns", "episodes", "sleep_ns", "scanned", "reclaimed", "wasted")


def add(acc, f, p99key):
    for k in FIGS:
        acc[k] = acc.get(k, 0) + f[k]
    acc["p99"] = max(acc.get("p99", 0), f[p99key])
    return acc


def cmd_sums(path):
    doc, s = sweep(path)
    bad = []
    for p in s["points"]:
        tot, per_nid = {}, {}
        for t in p["traces"]:
            tt = {}
            for n in t["nodes"]:
                add(tot, n, "p99_ns")
                add(tt, n, "p99_ns")
                add(per_nid.setdefault(n["nid"], {}), n, "p99_ns")
            if any(tt[k] != t[k] for k in FIGS) or tt["p99"] != t["max_node_p99_ns"]:
                bad.append(("trace", p["id"], t["input"]))
        if any(tot[k] != p["totals"][k] for k in FIGS) or \
                tot["p99"] != p["totals"]["max_node_p99_ns"]:
            bad.append(("totals", p["id"]))
        for n in p["nodes"]:
            w = per_nid.get(n["nid"], {})
            if any(w.get(k) != n[k] for k in FIGS) or w.get("p99") != n["p99_ns"]:
                bad.append(("node", p["id"], n["nid"]))
    check(not bad, f"sums: totals, per-node and per-trace figures add up ({len(s['points'])} "
          "points)", f"{bad[:3]}")


def front(points):
    """non-dominated in (stall, wasted), both minimised"""
    res = []
    for a in points:
        sa, wa = a["totals"]["stall_ns"], a["totals"]["wasted"]
        dominated = any(b["totals"]["stall_ns"] <= sa and b["totals"]["wasted"] <= wa and
                        (b["totals"]["stall_ns"] < sa or b["totals"]["wasted"] < wa)
                        for b in points)
        if not dominated:
            res.append(a["id"])
    return res


def cmd_pareto(path):
    doc, s = sweep(path)
    want = front(s["points"])
    check(sorted(want) == sorted(s["pareto_front"]),
          f"pareto: the front ({len(want)} of {len(s['points'])} points) is the "
          "non-dominated set", f"want {sorted(want)[:10]}, got {sorted(s['pareto_front'])[:10]}")
    flags = sorted(p["id"] for p in s["points"] if p["pareto"])
    check(flags == sorted(want), "pareto: points[].pareto mark the same set")
    stalls = [s["points"][i]["totals"]["stall_ns"] for i in s["pareto_front"]]
    check(stalls == sorted(stalls), "pareto: the front is listed by stall")


def key_of(obj, f, ref, pid):
    """the objective's order of docs/sweep.md: (infeasible, figures..., id)"""
    st, p99, w = f["stall_ns"], f["max_node_p99_ns"], f["wasted"]
    name = obj["name"]
    if name == "p99-capped":
        return (w > ref["wasted"], p99, st, w, pid)
    if name == "min-p99":
        return (0, p99, st, w, pid)
    if name == "min-stall":
        return (0, st, w, p99, pid)
    if name == "min-waste":
        return (0, w, st, p99, pid)
    alpha = float(name.split(":")[1])
    score = alpha * st / max(ref["stall_ns"], 1) + (1 - alpha) * w / max(ref["wasted"], 1)
    return (0, score, st, w, pid)


def bad_on(obj, f, ref):
    m = obj["bad_margin"]

    def worse(a, b):
        return a > b * (1 + m)
    name = obj["name"]
    if name == "p99-capped":
        return worse(f["max_node_p99_ns"], ref["max_node_p99_ns"]) or \
            worse(f["wasted"], ref["wasted"])
    if name == "min-p99":
        return worse(f["max_node_p99_ns"], ref["max_node_p99_ns"])
    if name == "min-stall":
        return worse(f["stall_ns"], ref["stall_ns"])
    if name == "min-waste":
        return worse(f["wasted"], ref["wasted"])
    return key_of(obj, f, ref, 0)[1] > key_of(obj, ref, ref, 0)[1] * (1 + m)


def cmd_objective(path):
    doc, s = sweep(path)
    obj = s["objective"]
    pts = s["points"]
    ref = pts[0]["totals"]
    best = min(pts, key=lambda p: key_of(obj, p["totals"], ref, p["id"]))
    check(best["id"] == s["recommended"] and
          [p["id"] for p in pts if p["recommended"]] == [best["id"]],
          f"objective {obj['name']}: recommended point {best['id']}",
          f"program says {s['recommended']}")
    if obj["name"] == "p99-capped":
        check(s["points"][s["recommended"]]["totals"]["wasted"] <= ref["wasted"],
              "objective p99-capped: the recommendation wastes no more than mainline")
    bad = []
    for r in s["robustness"]:
        i = r["input"]
        per = {p["id"]: p["traces"][i] for p in pts}
        tref = per[0]
        order = sorted(per, key=lambda pid: key_of(obj, per[pid], tref, pid))
        rank = order.index(s["recommended"]) + 1
        flag = bad_on(obj, per[s["recommended"]], tref)
        if rank != r["rank"] or flag != r["bad"] or order[0] != r["best"]:
            bad.append((i, rank, r["rank"], flag, r["bad"], order[0], r["best"]))
    check(not bad, f"objective {obj['name']}: rank, best and flag on each trace alone "
          f"({len(s['robustness'])} traces)", f"{bad[:3]}")
    check(s["flagged"] == any(r["bad"] for r in s["robustness"]),
          f"objective {obj['name']}: flagged when some trace is bad")


def replay_nodes(path, label):
    doc = json.load(open(path))
    res = {}
    for r in doc["results"]:
        for n in r["nodes"]:
            pol = n["policies"][label]
            sleep = sum(t["sleep_ns"] for t in pol["throttles"].values())
            res[(r["input"], n["nid"])] = (pol["stall_ns"], pol["episodes"]["p99_ns"],
                                           pol["scanned"], pol["reclaimed"], pol["wasted"],
                                           sleep)
    return res


def point_nodes(p):
    return {(t["input"], n["nid"]): (n["stall_ns"], n["p99_ns"], n["scanned"], n["reclaimed"],
                                     n["wasted"], n["sleep_ns"])
            for t in p["traces"] for n in t["nodes"]}


def cmd_mainline(path, replay):
    doc, s = sweep(path)
    want = replay_nodes(replay, "mainline")
    got = point_nodes(s["points"][0])
    check(want == got, f"mainline: point 0 equals replay -P mainline on {len(want)} nodes",
          f"replay {sorted(want.items())[:2]}, sweep {sorted(got.items())[:2]}")


def cmd_point(path, pid, replay):
    doc, s = sweep(path)
    rdoc = json.load(open(replay))
    label = [k for k in rdoc["results"][0]["nodes"][0]["policies"]
             if k.startswith("parametric")][0]
    want = replay_nodes(replay, label)
    got = point_nodes(s["points"][pid])
    check(want == got, f"point {pid}: equals replay -P parametric with its settings",
          f"replay {sorted(want.items())[:2]}, sweep {sorted(got.items())[:2]}")


def cmd_monotone(path, key):
    """Along KEY stall never falls and waste never rises, and somewhere one
    of them moves the right way strictly; points whose figures are all
    identical could not have failed, so that is a skip, not an ok."""
    doc, s = sweep(path)
    pts = sorted((p for p in s["points"] if not p["mainline"]),
                 key=lambda p: p["settings"][key])
    bad, moved = [], 0
    for a, b in zip(pts, pts[1:]):
        for t in range(len(a["traces"])):
            for na, nb in zip(a["traces"][t]["nodes"], b["traces"][t]["nodes"]):
                # docs/model.md section 6: slack of 1 part in 10^4
                if nb["stall_ns"] < na["stall_ns"] * (1 - 1e-4) or \
                        nb["wasted"] > na["wasted"] * (1 + 1e-4) + 1:
                    bad.append((key, a["settings"][key], b["settings"][key], t, na["nid"]))
                if nb["stall_ns"] > na["stall_ns"] or nb["wasted"] < na["wasted"]:
                    moved += 1
    desc = f"monotone: along {key} stall never falls, waste never rises ({len(pts)} points)"
    if not bad and not moved:
        out("skip", desc, f"stall and waste identical at every {key} on every node of "
            f"{len(pts[0]['traces']) if pts else 0} trace(s): nothing could have failed")
        return
    check(not bad, desc + f", {moved} strict move(s)", f"{bad[:3]}")


def cmd_same(path, other, what="the merged sweep"):
    a, b = sweep(path)[1], sweep(other)[1]
    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    check(not diff, f"fleet: {what} equals one sweep over every trace",
          f"differs in {diff}")


def cmd_replaysum(replay, merged):
    doc = json.load(open(replay))
    m = json.load(open(merged))["results"][0]
    want = {}
    for r in doc["results"]:
        for n in r["nodes"]:
            for label, pol in n["policies"].items():
                acc = want.setdefault(label, {})
                for k in ("stall_ns", "scanned", "reclaimed", "wasted"):
                    acc[k] = acc.get(k, 0) + pol[k]
                acc["episodes"] = acc.get("episodes", 0) + pol["episodes"]["completed"]
                acc["p99"] = max(acc.get("p99", 0), pol["episodes"]["p99_ns"])
    got = {p["label"]: dict(p["totals"], p99=p["totals"]["max_node_p99_ns"])
           for p in m["policies"]}
    bad = [lab for lab in want
           if lab not in got or any(want[lab][k] != got[lab][k] for k in want[lab])]
    check(not bad and set(want) == set(got),
          f"fleet: merged replay sums equal one replay over {len(doc['results'])} traces "
          f"({len(want)} policies)", f"differ: {bad} / {sorted(got)}")
    check(m["traces"] == len(doc["results"]), "fleet: merge counts every trace")
    # the spread over traces: each trace's stall summed over its nodes
    for p in m["policies"]:
        per = sorted(sum(n["policies"][p["label"]]["stall_ns"] for n in r["nodes"])
                     for r in doc["results"])
        d = p["over_traces"]["stall_ns"]
        ok_ = d["min"] == per[0] and d["max"] == per[-1] and \
            abs(d["mean"] - sum(per) / len(per)) <= 1e-6 * max(1, d["mean"])
        check(ok_, f"fleet: {p['label']} stall spread over traces (min, max, mean)",
              f"{d} vs {per}")


def cmd_csv(path, csvpath):
    doc, s = sweep(path)
    rows = list(csv.DictReader(open(csvpath)))
    nids = len(s["points"][0]["nodes"])
    ntr = len(s["traces"])
    check(len(rows) == len(s["points"]) * (1 + nids + ntr),
          f"csv: one row per point and scope ({len(rows)} rows)")
    tot = {int(r["point"]): r for r in rows if r["trace"] == "*" and r["nid"] == "*"}
    bad = [p["id"] for p in s["points"]
           if int(tot[p["id"]]["stall_ns"]) != p["totals"]["stall_ns"] or
           int(tot[p["id"]]["wasted"]) != p["totals"]["wasted"] or
           int(tot[p["id"]]["pareto"]) != p["pareto"]]
    check(not bad, "csv: the totals rows hold the JSON's figures", f"{bad[:5]}")


def main():
    a = sys.argv[1:]
    try:
        {"grid": lambda: cmd_grid(a[1], a[2:]),
         "lhs": lambda: cmd_lhs(a[1], int(a[2]), a[3:]),
         "sums": lambda: cmd_sums(a[1]),
         "pareto": lambda: cmd_pareto(a[1]),
         "objective": lambda: cmd_objective(a[1]),
         "mainline": lambda: cmd_mainline(a[1], a[2]),
         "point": lambda: cmd_point(a[1], int(a[2]), a[3]),
         "monotone": lambda: cmd_monotone(a[1], a[2]),
         "same": lambda: cmd_same(*a[1:4]),
         "replaysum": lambda: cmd_replaysum(a[1], a[2]),
         "csv": lambda: cmd_csv(a[1], a[2])}[a[0]]()
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        out("fail", f"sweep_check {' '.join(a[:2])}", f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
