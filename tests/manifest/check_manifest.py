#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check `reclaim-replay stats --json` against a trace's manifest.

The manifest's "trace" block was computed by the recorder with
`trace-cmd report -R -t` and awk (../shared/traces/recorder/rr-analyze.sh),
independently of reclaim-replay. Figures that must match exactly: event
counts, throttles per reason (count, sum of usec_delayed, per nid), and
shrink_inactive nr_scanned / nr_reclaimed per nid; reclaim episode counts
and duration sums (to the 0.1 us the manifest prints); kswapd spans.

usage: check_manifest.py RR_BIN TRACE MANIFEST
Prints TAP lines; exit status 1 if any check failed.
"""
import json
import subprocess
import sys

REASONS = {"WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED"}


class Tap:
    def __init__(self, name):
        self.name = name
        self.n = 0
        self.failed = 0

    def check(self, ok, desc, detail=""):
        self.n += 1
        if ok:
            print(f"ok {self.n} - {self.name}: {desc}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {self.name}: {desc} {detail}")


def main():
    rr_bin, trace, manifest = sys.argv[1:4]
    man = json.load(open(manifest))["trace"]
    name = trace.rsplit("/", 1)[-1]
    out = subprocess.run([rr_bin, "stats", "--json", "-q", trace], capture_output=True,
                         text=True)
    tap = Tap(name)
    tap.check(out.returncode == 0, "stats exits 0", out.stderr.strip())
    if out.returncode:
        return 1
    doc = json.loads(out.stdout)
    inp = doc["inputs"][0]
    res = doc["results"][0]
    nodes = {n["nid"]: n for n in res["nodes"]}

    want = man["event_counts"]
    got = inp["events"]
    diff = {k: (want.get(k), got.get(k)) for k in set(want) | set(got) if want.get(k) != got.get(k)}
    tap.check(not diff, f"event counts by name ({len(want)} kinds)", str(diff)[:400])
    tap.check(inp["records"]["read"] == sum(want.values()), "records read = events in trace",
              f'{inp["records"]["read"]} vs {sum(want.values())}')
    tap.check(inp["records"]["used"] + inp["records"]["ignored"] +
              inp["records"]["undecodable"] == inp["records"]["read"],
              "every record read is used, ignored or undecodable")

    thr = man.get("throttled") or {}
    for reason in REASONS:
        w = thr.get(reason, {"count": 0, "sum_usec_delayed": 0, "by_nid": {}})
        cnt = sum(n["throttles"][reason]["count"] + n["kswapd_throttles"][reason]["count"]
                  for n in nodes.values())
        dly = sum(n["throttles"][reason]["total_delayed_us"] +
                  n["kswapd_throttles"][reason]["total_delayed_us"] for n in nodes.values())
        tap.check(cnt == w["count"] and dly == w["sum_usec_delayed"],
                  f"{reason} throttles: count {w['count']}, sum usec_delayed {w['sum_usec_delayed']}",
                  f"got {cnt}, {dly}")
        for nid, v in (w.get("by_nid") or {}).items():
            n = nodes.get(int(nid))
            got_c = n["throttles"][reason]["count"] + n["kswapd_throttles"][reason]["count"] if n else None
            got_d = (n["throttles"][reason]["total_delayed_us"] +
                     n["kswapd_throttles"][reason]["total_delayed_us"]) if n else None
            tap.check(got_c == v["count"] and got_d == v["sum_usec_delayed"],
                      f"{reason} throttles on node {nid}", f"got {got_c}, {got_d} want {v}")

    for nid, v in (man.get("shrink_inactive_by_nid") or {}).items():
        n = nodes.get(int(nid))
        tap.check(n is not None and n["scan"]["scanned"] == v["sum_nr_scanned"]
                  and n["scan"]["reclaimed"] == v["sum_nr_reclaimed"],
                  f"node {nid} scanned {v['sum_nr_scanned']} reclaimed {v['sum_nr_reclaimed']}",
                  f"got {n and n['scan']['scanned']}, {n and n['scan']['reclaimed']}")

    rec = man["reclaim"]
    for kind in ("direct", "memcg"):
        w = rec[kind]
        begun = sum(n["episodes"][kind]["begun"] for n in nodes.values())
        done = sum(n["episodes"][kind]["completed"] for n in nodes.values())
        total_us = sum(n["episodes"][kind]["total_ns"] for n in nodes.values()) / 1000.0
        tap.check(begun == w["count_begin"] and done == w["count_completed"],
                  f"{kind} episodes begun {w['count_begin']} completed {w['count_completed']}",
                  f"got {begun}, {done}")
        # the manifest rounds each sum to 0.1 us; per-event times are exact ns
        tap.check(abs(total_us - w["sum_duration_us"]) <= 0.1,
                  f"{kind} episode time {w['sum_duration_us']} us", f"got {total_us:.1f}")
    ks = rec["kswapd"]
    ks_us = sum(n["kswapd_active_ns"] for n in nodes.values()) / 1000.0
    ks_spans = sum(n["episodes"]["kswapd"]["completed"] for n in nodes.values())
    tap.check(ks_spans == ks["wake_to_sleep_count"], f"kswapd wake-to-sleep spans {ks['wake_to_sleep_count']}",
              f"got {ks_spans}")
    tap.check(abs(ks_us - ks["awake_sum_us"]) <= 0.1 + 0.001 * max(1, ks_spans),
              f"kswapd awake {ks['awake_sum_us']} us", f"got {ks_us:.1f}")
    comp = man.get("compaction")
    if comp:
        mach = res["machine"]
        want_free = comp["isolate_freepages"]["sum_nr_scanned"] + \
            comp.get("fast_isolate_freepages", {}).get("sum_nr_scanned", 0)
        tap.check(mach["compaction_migrate_scanned"] == comp["isolate_migratepages"]["sum_nr_scanned"]
                  and mach["compaction_free_scanned"] == want_free
                  and mach["compaction_migrated"] == comp["migratepages"]["sum_nr_migrated"],
                  "compaction migrate/free scanned and migrated",
                  f'got {mach["compaction_migrate_scanned"]}, {mach["compaction_free_scanned"]}, '
                  f'{mach["compaction_migrated"]}')
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
