#!/usr/bin/env python3
"""2-D RAP accuracy benchmark (paper 001 section 5.5, Fig. 13; docs/rap2d.md).

Usage: scripts/bench_rap2d_accuracy.py [BUILD_DIR (build)] [--trace T] [--hot F (0.10)]

Runs `hwprof profile --unit rap2d --exact --json` on the shipped code x data
trace (tests/traces/val/gzip_pcmem.hwpt.zst: gzip's memory accesses with
their pcs) for eps in {10%, 5%, 1%} and NodeCap 64 to 32768, hot
rectangles at 10%. Per hot rectangle v, two estimates against brute-force
exact counts (the CLI's --exact: the distinct pairs summed over v's
rectangle): **rect** = subtree(v) against the exact weight of v's whole
rectangle, and **carry** = v's reported carry against the exact weight of v's
rectangle minus its maximal hot sub-rectangles. Error = |estimate - exact| /
exact in %, average and maximum over the hot rectangles. Also checks the
per-rectangle bound subtree <= exact <= subtree + ancestors (docs/rap2d.md,
bound 1) on every hot rectangle and fails if it is broken.

Prints a markdown table and writes it to BUILD_DIR/bench/rap2d_accuracy.md.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from benchlib import machine

EPS = (0.10, 0.05, 0.01)
NODES = (64, 128, 512, 2048, 8192, 32768)


def run(hwprof, trace, eps, nodes, hot):
    cmd = [hwprof, "-q", "profile", "--unit", "rap2d", "--eps", str(eps), "--nodes", str(nodes), "--hot", str(hot),
           "--exact", "--json", trace]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench_rap2d_accuracy: {' '.join(cmd)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def errors(j):
    """(rect errors, carry errors, bound violations) over the hot rectangles."""
    hot = j["hot"]
    rect, carry, bad = [], [], 0
    for i, h in enumerate(hot):
        ex = h["exact"]
        if not (h["subtree"] <= ex <= h["subtree"] + h["ancestors"]):
            bad += 1
        if ex:
            rect.append(100.0 * abs(h["subtree"] - ex) / ex)
        # Maximal hot sub-rectangles: the following entries one level deeper,
        # up to the next entry at v's level or above (pre-order).
        sub = 0
        for g in hot[i + 1:]:
            if g["level"] <= h["level"]:
                break
            if g["level"] == h["level"] + 1:
                sub += g["exact"]
        if ex - sub > 0:
            carry.append(100.0 * abs(h["carry"] - (ex - sub)) / (ex - sub))
    return rect, carry, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--trace", default=None)
    ap.add_argument("--hot", type=float, default=0.10)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(a.build)
    hwprof = os.path.join(build, "host/cli/hwprof")
    if not os.access(hwprof, os.X_OK):
        sys.exit(f"bench_rap2d_accuracy: {hwprof} not found (build first)")
    trace = a.trace or os.path.join(root, "tests/traces/val/gzip_pcmem.hwpt.zst")
    t0 = time.time()
    rows = []
    violations = 0
    for eps in EPS:
        for nodes in NODES:
            j = run(hwprof, trace, eps, nodes, a.hot)
            rect, carry, bad = errors(j)
            violations += bad
            s = j["stats"]
            rows.append((eps, nodes, len(j["hot"]), rect, carry, s["peak_nodes"], s["splits_skipped"], bad, j["n"]))
    wall = time.time() - t0
    avg = lambda v: sum(v) / len(v) if v else 0.0
    f2 = lambda x: f"{x:,.2f}"
    cmdline = " ".join(["scripts/bench_rap2d_accuracy.py"] + sys.argv[1:])
    lines = [
        "## 2-D RAP accuracy: hot code x data rectangles against exact counts (001 section 5.5)", "",
        f"Command: `python3 {cmdline}` ({wall:.0f} s). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}.", "",
        f"Trace: `{os.path.relpath(trace, root)}` (n = {rows[0][8]:,} pairs). Tree: K = 32 bits per address "
        "(64-bit interleaved keys), b = 4, MergeFirst 1,024, no final pass; hot rectangles at "
        f"{a.hot * 100:.0f}%. rect: subtree vs the exact weight of the rectangle; carry: the reported carry vs "
        "the exact weight without the maximal hot sub-rectangles. Bound: subtree <= exact <= subtree + "
        "ancestors on every hot rectangle (violations must be 0).", "",
        "| eps | NodeCap | hot | rect err avg % | rect err max % | carry err avg % | carry err max % | "
        "peak nodes | splits skipped | bound violations |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for eps, nodes, nh, rect, carry, peak, skipped, bad, _ in rows:
        lines.append(f"| {eps * 100:.0f}% | {nodes:,} | {nh} | {f2(avg(rect))} | {f2(max(rect, default=0))} | "
                     f"{f2(avg(carry))} | {f2(max(carry, default=0))} | {peak:,} | {skipped:,} | {bad} |")
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    with open(os.path.join(build, "bench", "rap2d_accuracy.md"), "w") as f:
        f.write(text)
    if violations:
        sys.exit(f"bench_rap2d_accuracy: {violations} hot rectangles outside their bound")


if __name__ == "__main__":
    main()
