#!/usr/bin/env python3
"""make bench: records per clock and stall-cycle fraction of every unit on
every shipped trace (issue 15, docs/results.md "Units: throughput and
stalls").

Every figure comes from a cycle model (cycle-exact with the RTL; the
lock-step tests check it), fed one record per clock with its consumer always
ready:

* branch_queue: `hwprof profile --unit queue` (BranchQueue model) behind a
  64-wide retire stage with a one-cycle consumer (--latency 1 1 1 1 1), so
  only the queue itself can hold a record back; stall = ENQ stall cycles.
* path_frontend, path_profiler, hpt, markov: build/host/analyses/bench_units
  (PathFrontend, PathProfiler and MarkovPredictor models; see its header).
  path_profiler's stall = front end STALL_CYCLES + HPT STALL_CYCLES; hpt's
  rate is descriptors per feed cycle (a descriptor per record at most), its
  stall its own STALL_CYCLES; markov has no ready signal (n/a).
* dcr_tracker, path_phase, bbv_phase: `hwprof profile --unit phase
  --detector dcr|path|bbv --interval INTERVAL` (model engine = the cycle
  models); records over feed cycles; stall = the unit's STALL_CYCLES
  statistic (`stats.stall_cycles` of the JSON report), n/a when the unit
  does not report one.
* rap_engine: `hwprof profile --unit rap` (model engine, default
  configuration): events per clock and in_stall cycles.

Prints the table and writes BUILD/bench/units.md and units.json.
Usage: bench_units.py [BUILD] [--interval N] [--traces GLOB]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

from benchlib import machine

ap = argparse.ArgumentParser()
ap.add_argument("build", nargs="?", default="build")
ap.add_argument("--interval", type=int, default=100000,
                help="phase units' IntervalInsns (default 100000)")
ap.add_argument("--traces", default="tests/traces/*.hwpt.zst")
args = ap.parse_args()

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
build = args.build
hwprof = os.path.join(build, "host/cli/hwprof")
bench_units = os.path.join(build, "host/analyses/bench_units")
traces = sorted(glob.glob(args.traces))
UNITS = ["branch_queue", "path_frontend", "path_profiler", "hpt", "dcr_tracker",
         "bbv_phase", "path_phase", "markov", "rap_engine"]


def cli(*argv):
    out = subprocess.run([hwprof, "-q", *argv], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def row(records, cycles, stall, note=""):
    return {"records": records, "cycles": cycles, "stall_cycles": stall,
            "records_per_clock": records / cycles if cycles else None,
            "stall_frac": (stall / cycles) if (stall is not None and cycles) else None,
            "note": note}


results = {}  # (unit, trace name) -> row
t0 = time.perf_counter()
for t in traces:
    name = os.path.basename(t).split(".")[0]
    j = cli("profile", "--unit", "queue", "--json", "--retire-width", "64", "--latency", "1", "1", "1", "1", "1", t)
    s = j["stats"]
    results[("branch_queue", name)] = row(s["records"], s["cycles"], s.get("enq_stall_cycles"))

    out = subprocess.run([bench_units, t], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        u = json.loads(line)
        results[(u["unit"], name)] = row(u["records"], u["cycles"], u["stall_cycles"])

    for unit, det in (("dcr_tracker", "dcr"), ("path_phase", "path"), ("bbv_phase", "bbv")):
        j = cli("profile", "--unit", "phase", "--detector", det, "--interval", str(args.interval), "--json", t)
        # STALL_CYCLES: read it where the unit reports it (n/a otherwise).
        stall = j["stats"].get("stall_cycles")
        results[(unit, name)] = row(j["records"], j.get("feed_cycles") or j["cycles"], stall)

    j = cli("profile", "--unit", "rap", "--json", t)
    s = j["stats"]
    results[("rap_engine", name)] = row(s["events"], s["cycles"], s.get("in_stall"))

names = [os.path.basename(t).split(".")[0] for t in traces]


def cell(r):
    if r is None:
        return "-"
    rpc = "n/a" if r["records_per_clock"] is None else f"{r['records_per_clock']:.4f}"
    st = "n/a" if r["stall_frac"] is None else f"{100 * r['stall_frac']:.3f}%"
    return f"{rpc} / {st}"


lines = ["## Units: throughput and stalls", "",
         f"Command: `make bench` (scripts/bench_units.py). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}.", "",
         "Each cell: records per clock / stall cycles as a fraction of the cycles, from the cycle models with one",
         "record offered per clock and the consumer always ready (scripts/bench_units.py says how each unit is driven).",
         f"Phase units: interval {args.interval:,} instructions. n/a: the unit has no stall statistic (markov: no ready).",
         "hpt: descriptors (not records) per clock of the path profiler's feed: bounded by the path stream's",
         "descriptors per record, not by the HPT; its stall fraction is what shows an HPT hold-up.",
         "Issue 15: the path profiler >= 0.999 records/clock; stall cycles < 1% everywhere.", "",
         "| unit | " + " | ".join(names) + " |",
         "|---|" + "---:|" * len(names)]
for u in UNITS:
    lines.append(f"| {u} | " + " | ".join(cell(results.get((u, n))) for n in names) + " |")
lines += ["", "| unit | trace | records | cycles | records/clock | stall cycles | stall % |",
          "|---|---|---:|---:|---:|---:|---:|"]
for u in UNITS:
    for n in names:
        r = results.get((u, n))
        if r is None:
            continue
        rpc = "n/a" if r["records_per_clock"] is None else f"{r['records_per_clock']:.5f}"
        st = "n/a" if r["stall_cycles"] is None else str(r["stall_cycles"])
        sf = "n/a" if r["stall_frac"] is None else f"{100 * r['stall_frac']:.3f}%"
        lines.append(f"| {u} | {n} | {r['records']} | {r['cycles']} | {rpc} | {st} | {sf} |")
lines += ["", f"({time.perf_counter() - t0:.0f} s)"]
text = "\n".join(lines) + "\n"
os.makedirs(os.path.join(build, "bench"), exist_ok=True)
open(os.path.join(build, "bench", "units.md"), "w").write(text)
json.dump({"interval": args.interval,
           "rows": [{"unit": u, "trace": n, **r} for (u, n), r in results.items()]},
          open(os.path.join(build, "bench", "units.json"), "w"), indent=1)
print(text)
