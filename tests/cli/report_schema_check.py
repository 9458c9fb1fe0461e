#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of the --json reports for tests/cli/t0600-schema.sh.

    report_schema_check.py schema SCHEMA.json NAME REPORT.json
        REPORT validates against the schema (docs/reclaim-replay-report.schema.json)
    report_schema_check.py rejects SCHEMA.json NAME REPORT.json MUTATION
        REPORT changed by MUTATION (see MUTATIONS) does not validate, so the
        schema is strict where docs/report-schema.md says it is
    report_schema_check.py compare COMPARE.json STATS.json
        compare's first policy (`recorded`) equals stats per node; every
        vs_baseline difference equals B - A and (B - A) / A recomputed here;
        the totals are the sums of the per-trace figures

Prints one line per check, tab separated: `ok<TAB>description` or
`not ok<TAB>description<TAB>detail`, or `skip<TAB>description<TAB>reason`;
the shell test numbers them (tests/lib.sh). Exit status 0 when the inputs
could be read.
"""
import json
import math
import sys


def out(status, desc, detail=""):
    print("\t".join(x for x in (status, desc, detail) if x or x == status))


def load(path):
    with open(path) as f:
        return json.load(f)


def check_schema(schema_path, name, report_path):
    try:
        import jsonschema
    except ImportError:
        out("skip", f"{name}: validates against the schema", "python3-jsonschema is missing")
        return
    schema = load(schema_path)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(load(report_path)), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path)
        out("not ok", f"{name}: validates against the schema",
            f"{len(errors)} errors; first at /{where}: {e.message[:300]}")
    else:
        out("ok", f"{name}: validates against the schema")


def _del_sha(d):
    del d["inputs"][0]["sha256"]


def _set(path, value):
    def f(d):
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return f


MUTATIONS = {
    "top-level-extra": _set(["bogus"], 1),
    "tool-extra": _set(["tool", "bogus"], 1),
    "input-extra": _set(["inputs", 0, "bogus"], 1),
    "input-no-sha256": _del_sha,
    "input-bad-sha256": _set(["inputs", 0, "sha256"], "XYZ"),
    "schema-version-2": _set(["schema_version"], 2),
    "unknown-command": _set(["command"], "frobnicate"),
    "compare-stall-string": _set(["results", 0, "nodes", 0, "figures", 0, "stall_ns"], "1"),
    "compare-bad-scope": _set(["results", 0, "scope"], "node"),
    "stats-negative-stall": _set(["results", 0, "nodes", 0, "stall_ns"], -1),
    "summary-on-stats": _set(["summary"], "x"),
}


def check_rejects(schema_path, name, report_path, mutation):
    try:
        import jsonschema
    except ImportError:
        out("skip", f"{name}: schema rejects {mutation}", "python3-jsonschema is missing")
        return
    schema, doc = load(schema_path), load(report_path)
    MUTATIONS[mutation](doc)
    cls = jsonschema.validators.validator_for(schema)
    if any(True for _ in cls(schema).iter_errors(doc)):
        out("ok", f"{name}: schema rejects {mutation}")
    else:
        out("not ok", f"{name}: schema rejects {mutation}", "the changed document validates")


def close(a, b, tol=1e-9):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


FIGS = ("stall_ns", "sleep_ns", "wasted", "scanned")


def check_compare(compare_path, stats_path):
    cmp_doc, stats = load(compare_path), load(stats_path)
    blocks = [r for r in cmp_doc["results"] if r["scope"] == "trace"]
    totals = [r for r in cmp_doc["results"] if r["scope"] == "totals"]
    if len(blocks) != len(stats["results"]) or len(totals) != 1:
        out("not ok", "compare: one block per trace and one totals block",
            f"{len(blocks)} blocks, {len(totals)} totals, {len(stats['results'])} traces")
        return
    out("ok", f"compare: {len(blocks)} trace blocks and one totals block")

    # recorded against stats, per trace and node
    bad = []
    for blk, st in zip(blocks, stats["results"]):
        if blk["baseline"] != "recorded":
            bad.append(f"input {blk['input']}: baseline {blk['baseline']}")
            continue
        for node, snode in zip(blk["nodes"], st["nodes"]):
            rec = node["figures"][0]
            want = {"stall_ns": snode["stall_ns"], "scanned": snode["scan"]["scanned"],
                    "reclaimed": snode["scan"]["reclaimed"], "wasted": snode["scan"]["wasted"]}
            for k, v in want.items():
                if rec[k] != v:
                    bad.append(f"input {blk['input']} node {node['nid']} {k}: {rec[k]} != stats {v}")
            if not close(rec["efficiency"], snode["scan"]["efficiency"]):
                bad.append(f"input {blk['input']} node {node['nid']} efficiency")
        if len(blk["nodes"]) != len(st["nodes"]):
            bad.append(f"input {blk['input']}: {len(blk['nodes'])} nodes, stats has {len(st['nodes'])}")
    if bad:
        out("not ok", "compare: recorded equals stats stall_ns and scan per node", "; ".join(bad[:5]))
    else:
        out("ok", "compare: recorded equals stats stall_ns and scan per node")

    # differences recomputed from the figures
    bad, nr, rel_checked = [], 0, 0

    def diffs(figures, p99):
        nonlocal nr, rel_checked
        base = figures[0]
        for f in figures:
            for k in FIGS + (p99,):
                d = f["vs_baseline"][k]
                nr += 1
                if d["abs"] != f[k] - base[k]:
                    bad.append(f"{f['policy']} {k} abs {d['abs']} != {f[k] - base[k]}")
                want = (f[k] - base[k]) / base[k] if base[k] else None
                if want is None:
                    if d["rel"] is not None:
                        bad.append(f"{f['policy']} {k} rel should be null")
                elif d["rel"] is None or not close(d["rel"], want):
                    bad.append(f"{f['policy']} {k} rel {d['rel']} != (B-A)/A = {want}")
                else:
                    rel_checked += 1
            d, a, b = f["vs_baseline"]["efficiency"], base["efficiency"], f["efficiency"]
            if not close(d["abs"], b - a, 1e-8):
                bad.append(f"{f['policy']} efficiency abs")
            if a and (d["rel"] is None or not close(d["rel"], (b - a) / a, 1e-8)):
                bad.append(f"{f['policy']} efficiency rel {d['rel']} != {(b - a) / a}")

    for blk in blocks:
        for node in blk["nodes"]:
            diffs(node["figures"], "p99_ns")
    diffs(totals[0]["figures"], "max_node_p99_ns")
    if bad:
        out("not ok", "compare: vs_baseline abs = B-A and rel = (B-A)/A", "; ".join(bad[:5]))
    else:
        out("ok", f"compare: vs_baseline abs = B-A and rel = (B-A)/A ({nr} figures, "
            f"{rel_checked} relative)")

    # totals: sums over every node of every trace, p99 the largest
    bad = []
    tot = totals[0]
    for p, f in enumerate(tot["figures"]):
        per_node = [n["figures"][p] for blk in blocks for n in blk["nodes"]]
        for k in ("stall_ns", "sleep_ns", "sleeps", "episodes", "scanned", "reclaimed", "wasted"):
            if f[k] != sum(x[k] for x in per_node):
                bad.append(f"{f['policy']} {k}")
        if f["max_node_p99_ns"] != max(x["p99_ns"] for x in per_node):
            bad.append(f"{f['policy']} max_node_p99_ns")
        want = f["reclaimed"] / f["scanned"] if f["scanned"] else 0.0
        if not close(f["efficiency"], want):
            bad.append(f"{f['policy']} efficiency")
    if tot["nodes"] != sum(len(b["nodes"]) for b in blocks):
        bad.append("node count")
    if bad:
        out("not ok", "compare: totals are the sums over traces and nodes", "; ".join(bad[:5]))
    else:
        out("ok", "compare: totals are the sums over traces and nodes")


def main():
    try:
        run()
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        # A missing or malformed report is a failed check, not a traceback.
        name = sys.argv[3] if len(sys.argv) > 3 and sys.argv[1] != "compare" else "compare"
        out("not ok", f"{name}: report readable for {sys.argv[1]} checks", f"{type(e).__name__}: {e}")


def run():
    if len(sys.argv) == 5 and sys.argv[1] == "schema":
        check_schema(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 6 and sys.argv[1] == "rejects":
        check_rejects(*sys.argv[2:6])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        check_compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
