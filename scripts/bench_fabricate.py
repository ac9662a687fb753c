#!/usr/bin/env python3
"""Trace fabrication quality benchmark (paper 004 section 3.2; docs/analyses.md).

Usage: scripts/bench_fabricate.py [BUILD_DIR (build)] [--seeds S (5)] [--tracelets N (0)]

For every shipped trace (tests/traces/*.hwpt.zst, each with its load map),
runs `hwprof fabricate --report --json` and reports M_f, the overlap of the
real trace's BL path profile with the fabricated tracelets' (004 Fig. 5),
beside the paper's ~95%. As in 004, the tracelets add up to the real trace's
length (N = instructions / 1,000) unless --tracelets N is given. Also: M_f
with ten times as many tracelets (the sampling-noise floor), for tracelet
lengths of 250 to 4,000 instructions (Fig. 5's 1k/2k/4k bars), and for
sampled profiles.

Prints markdown tables and writes them to BUILD_DIR/bench/fabricate.md.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import machine

PAPER_MF = 95.0  # 004 section 3.2.2: "close to 95% of the real trace's flow"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--tracelets", type=int, default=0, help="tracelets per run (0 = real length / 1,000)")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(a.build)
    exe = os.path.join(build, "host/cli/hwprof")
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench_fabricate: {exe} not found (build first: make build)")
    traces = sorted(glob.glob(os.path.join(root, "tests/traces/*.hwpt.zst")))
    if not traces:
        sys.exit("bench_fabricate: no shipped traces in tests/traces")
    tmp = tempfile.mkdtemp(prefix="hwprof_bench_fab.")

    def fabricate(trace, tracelets, seed=1, length=1000, rate=1.0):
        out = os.path.join(tmp, "fab.hwpt.zst")
        cmd = [exe, "-q", "fabricate", "--from", trace, "--tracelets", str(tracelets), "--tracelet-len",
               str(length), "--seed", str(seed), "--sample-rate", str(rate), "-o", out, "--json"]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"bench_fabricate: {' '.join(cmd)}: {r.stderr.strip()}")
        j = json.loads(r.stdout)
        j["wall"] = time.time() - t0
        return j

    t_start = time.time()
    rows, lens, rates = [], [], []
    for trace in traces:
        name = os.path.basename(trace).split(".")[0]
        info = json.loads(subprocess.run([exe, "-q", "trace", "info", "--json", trace], check=True,
                                         capture_output=True, text=True).stdout)
        n = a.tracelets or max(1, info["instructions"] // 1000)
        runs = [fabricate(trace, n, seed=s) for s in range(1, a.seeds + 1)]
        big = fabricate(trace, 10 * n)
        rows.append((name, info, n, runs, big))
        lens.append((name, [fabricate(trace, max(1, n * 1000 // L), length=L)["M_f"]
                            for L in (250, 1000, 2000, 4000)]))
        rates.append((name, [fabricate(trace, n, rate=r) for r in (1.0, 0.1, 0.01)]))
    wall = time.time() - t_start

    f1 = lambda x: f"{x:.1f}"
    cmdline = " ".join(["scripts/bench_fabricate.py"] + sys.argv[1:])
    lines = [
        "## Trace fabrication: path-profile overlap M_f (004 Fig. 5)", "",
        f"Command: `python3 {cmdline}` ({wall:.0f} s). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}.", "",
        "Each run: `hwprof fabricate --from TRACE --tracelets N --json` (profile of the whole trace, tracelets of "
        "1,000 instructions, seeds weighted by instructions). N = the real trace's instructions / 1,000, so the "
        "tracelets add up to the real trace's length as in 004. M_f: the real trace's BL path profile (path-stack "
        "model, BL preset, depth 16) against the tracelets' (the stack emptied at each tracelet; its incomplete "
        "first paths and the paths still open at its end are not counted), on path counts. "
        f"Seeds 1 to {a.seeds}: mean (min-max). 10x N: seed 1 with ten times as many tracelets. Stream: the output "
        "read as one trace, as `hwprof paths OUT` sees it (seed 1).", "",
        "| program | real instructions | BL paths (distinct) | N | M_f % | M_f % 10x N | M_f % stream | paper M_f % | "
        "records | ended early | static guesses | returns guessed / popped | time s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    means = []
    for name, info, n, runs, big in rows:
        mf = [r["M_f"] for r in runs]
        means.append(statistics.mean(mf))
        r1 = runs[0]
        st = r1["stats"]
        early = sum(v for k, v in st["ends"].items() if k != "length")
        lines.append(
            f"| {name} | {info['instructions']:,} | {r1['paths']['real_paths']:,} ({r1['paths']['real_distinct']:,}) | "
            f"{n:,} | {f1(statistics.mean(mf))} ({f1(min(mf))}-{f1(max(mf))}) | {f1(big['M_f'])} | "
            f"{f1(r1['M_f_stream'])} | ~{PAPER_MF:.0f} | {st['records']:,} | {early} | {st['br_static']} | "
            f"{st['ret_guessed']:,} / {st['ret_popped']:,} | {r1['wall']:.2f} |")
    lines.append(f"| **mean** | | | | **{f1(statistics.mean(means))}** | | | ~{PAPER_MF:.0f} | | | | | |")
    lines += ["", "Tracelet length (seed 1, tracelets adding up to the real length; 004 Fig. 5 has 1k, 2k, 4k "
              "and 1M):", "",
              "| program | M_f % L=250 | L=1,000 | L=2,000 | L=4,000 |", "|---|---:|---:|---:|---:|"]
    for name, mfs in lens:
        lines.append(f"| {name} | " + " | ".join(f1(x) for x in mfs) + " |")
    lines += ["", "Sampled profiles (seed 1, `--sample-rate R`: one window of 100 records in round(1/R) "
              "contributes; 004 section 5.3.2):", "",
              "| program | M_f % R=1 | R=0.1 | R=0.01 | sampled records R=0.01 | static guesses R=0.1 | "
              "static guesses R=0.01 |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, rs in rates:
        lines.append(f"| {name} | " + " | ".join(f1(r["M_f"]) for r in rs) +
                     f" | {rs[2]['profile']['sampled_records']:,} | {rs[1]['stats']['br_static']:,} | "
                     f"{rs[2]['stats']['br_static']:,} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    with open(os.path.join(build, "bench", "fabricate.md"), "w") as f:
        f.write(text)
    for p in glob.glob(os.path.join(tmp, "*")):
        os.remove(p)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
