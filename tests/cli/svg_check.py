#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structural checks of a `--plot` SVG against the command's --json report.

usage: svg_check.py FILE.svg REPORT.json PNG [EXPECT_PATH]
Prints "ok|fail<TAB>description<TAB>detail" lines for tap_report (lib.sh).

The bars must carry the JSON's stall_ns and wasted for every (node, policy);
each cumulative-stall curve must end at the JSON's stall_ns. The curve comes
from the engine's episode slices (the observer), the JSON from the result
structs: two paths through the code that must agree.
"""
import json
import struct
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
out = []


def res(ok, desc, detail=""):
    out.append("%s\t%s\t%s" % ("ok" if ok else "fail", desc, str(detail)[:300]))


def main():
    svg, rep, png = sys.argv[1:4]
    want_path = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        res(False, "SVG is well-formed XML", e)
        return
    res(root.tag == NS + "svg", "root element is <svg> in the SVG namespace", root.tag)
    w, h = float(root.get("width", 0)), float(root.get("height", 0))
    res(w > 0 and h > 0 and root.get("viewBox") == "0 0 %.0f %.0f" % (w, h),
        "width, height and viewBox agree", (w, h, root.get("viewBox")))
    with open(png, "rb") as f:
        head = f.read(24)
    ok = head[:8] == b"\x89PNG\r\n\x1a\n"
    pw, ph = struct.unpack(">II", head[16:24]) if ok else (0, 0)
    res(ok and (pw, ph) == (int(w), int(h)), "rsvg-convert PNG has the SVG's size",
        (pw, ph, w, h))

    doc = json.load(open(rep))
    cmd = doc["command"]
    if cmd == "replay":
        blocks = doc["results"]
    else:
        blocks = [r for r in doc["results"] if r.get("scope") == "trace"]
    groups = root.findall(".//%sg[@class='input']" % NS)
    res(len(groups) == len(blocks), "one input block per trace", (len(groups), len(blocks)))
    for g, blk in zip(groups, blocks):
        path = doc["inputs"][blk["input"]]["path"]
        res(g.get("data-path") == path, "block names its input (escaped text reads back)",
            (g.get("data-path"), path))
        if want_path is not None:
            res(g.get("data-path") == want_path, "path with XML specials reads back unchanged",
                g.get("data-path"))
        # figures[(nid, policy)] = (stall_ns, wasted), whatever the command's layout
        fig = {}
        for node in blk["nodes"]:
            for name, p in node_policies(cmd, blk, node):
                fig[(node["nid"], name)] = (p["stall_ns"], p["wasted"])
        bars = {}
        for b in g.findall(".//%sg[@class='bars']" % NS):
            metric = b.get("data-metric")
            for d in b.findall("%sdesc" % NS):
                bars[(metric, int(d.get("data-node")), d.get("data-policy"))] = \
                    float(d.get("data-value"))
        curves = {(int(c.get("data-node")), c.get("data-policy")): float(c.get("data-final-ms"))
                  for c in g.findall(".//%sg[@class='stall-curve']" % NS)}
        rects = g.findall(".//%srect[@class='bar']" % NS)
        res(len(rects) == 2 * len(fig), "one bar per (node, policy) in each chart",
            (len(rects), 2 * len(fig)))
        bad_s = [(k, bars.get(("stall_ms",) + k), v[0] / 1e6) for k, v in fig.items()
                 if abs(bars.get(("stall_ms",) + k, -1) - v[0] / 1e6) > 1e-6]
        res(not bad_s, "stall bars equal the JSON stall_ns", bad_s[:3])
        bad_w = [(k, bars.get(("wasted",) + k), v[1]) for k, v in fig.items()
                 if bars.get(("wasted",) + k) != v[1]]
        res(not bad_w, "wasted-scanning bars equal the JSON wasted", bad_w[:3])
        bad_c = [(k, curves.get(k), v[0] / 1e6) for k, v in fig.items()
                 if abs(curves.get(k, -1) - v[0] / 1e6) > 1e-3]
        res(not bad_c, "each cumulative stall curve ends at the JSON stall_ns (slices vs results)",
            bad_c[:3])
        lines = [c for c in g.findall(".//%sg[@class='stall-curve']" % NS)
                 if c.find("%spolyline" % NS) is not None]
        res(len(lines) == len(fig), "one polyline per (node, policy) curve", (len(lines), len(fig)))
        mono = True
        for c in lines:
            pts = [tuple(map(float, p.split(","))) for p in
                   c.find("%spolyline" % NS).get("points").split()]
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            # SVG y grows downwards: a cumulative curve never goes up the page's y
            if xs != sorted(xs) or any(b > a + 0.05 for a, b in zip(ys, ys[1:])):
                mono = False
        res(mono, "cumulative curves run left to right and never decrease")
    texts = [t.text or "" for t in root.iter(NS + "text")]
    for word in ("ms", "pages", "(s)"):
        res(any(word in t for t in texts), "an axis label names the unit '%s'" % word)


def node_policies(cmd, blk, node):
    if cmd == "replay":
        for name, p in node["policies"].items():
            yield name, p
    else:
        for p in node["figures"]:
            yield p["policy"], p


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a crash is a failed check, not a silent pass
        res(False, "svg_check ran", repr(e))
    print("\n".join(out))
