#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a command's JSON output with a golden file (tests/golden/README.md).

usage: golden_check.py NAME GOLDEN.json OUTPUT.json
Prints "ok|fail<TAB>description<TAB>detail" lines for tap_report (lib.sh).

The golden lists the figures worked out by hand (or taken from a manifest);
the output must hold each of them. Rules:
- an object compares key by key; keys the golden does not list are not
  compared (the version, paths, sha256 and other volatile fields), except
- "*": 0 in an object: every key of the output's object not listed beside it
  must be all zero (numbers 0, false, empty, recursively): "nothing else
  happened";
- an array compares element by element and must have the same length;
- {"approx": V, "tol": T}: |output - V| <= T;
- reals compare to 10 significant digits (the JSON writes 10), integers and
  strings exactly; null only equals null.
"""
import json
import sys

mism = []


def zero(v):
    if isinstance(v, bool):
        return v is False
    if isinstance(v, (int, float)):
        return v == 0
    if isinstance(v, dict):
        return all(zero(x) for x in v.values())
    if isinstance(v, list):
        return all(zero(x) for x in v)
    if v is None:
        return True
    return True  # strings (names, sources) are not figures


def same_num(g, o):
    if isinstance(g, bool) or isinstance(o, bool):
        return g is o
    if isinstance(g, int) and isinstance(o, int):
        return g == o
    return abs(g - o) <= 1e-9 * max(abs(g), abs(o)) + 1e-12


def cmp(path, g, o):
    if isinstance(g, dict) and set(g) == {"approx", "tol"}:
        if not isinstance(o, (int, float)) or abs(o - g["approx"]) > g["tol"]:
            mism.append((path, g, o))
        return
    if isinstance(g, dict):
        if not isinstance(o, dict):
            mism.append((path, "object", o))
            return
        for k, v in g.items():
            if k == "*":
                continue
            if k not in o:
                mism.append((path + "." + k, v, "missing"))
            else:
                cmp(path + "." + k, v, o[k])
        if "*" in g:
            for k, v in o.items():
                if k not in g and not zero(v):
                    mism.append((path + "." + k, "zero", v))
        return
    if isinstance(g, list):
        if not isinstance(o, list) or len(o) != len(g):
            mism.append((path, "list of %d" % len(g), o if not isinstance(o, list) else len(o)))
            return
        for i, (gv, ov) in enumerate(zip(g, o)):
            cmp("%s[%d]" % (path, i), gv, ov)
        return
    if g is None or isinstance(g, str):
        if g != o:
            mism.append((path, g, o))
        return
    if not isinstance(o, (int, float)) or not same_num(g, o):
        mism.append((path, g, o))


def main():
    name, golden, output = sys.argv[1:4]
    g = json.load(open(golden))
    try:
        o = json.load(open(output))
    except ValueError as e:
        print("fail\t%s: output is JSON\t%s" % (name, e))
        return

    def leaves(v):
        if isinstance(v, dict):
            return sum(leaves(x) for k, x in v.items() if k != "*") + ("*" in v)
        if isinstance(v, list):
            return sum(leaves(x) for x in v)
        return 1
    cmp("", g, o)
    print("%s\t%s: the output holds the %d golden figures\t%s" %
          ("fail" if mism else "ok", name, leaves(g),
           "; ".join("%s: golden %s, program %s" % m for m in mism[:6])))


if __name__ == "__main__":
    main()
