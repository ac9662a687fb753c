#!/usr/bin/env python3
"""k-iteration path profiling benchmark (paper 002 section 6; docs/analyses.md).

Usage: scripts/bench_kpaths.py BUILD_DIR [--reps R (11)] [--k-max K (16)]

Runs BUILD_DIR/host/analyses/bench_kpaths on every shipped trace: the BL path
stream of each trace (path-stack model, BL preset) is extracted once, then
consumed by plain BL hashing (count[id]++), BL hashing keyed by the path
itself, a hash table of all n-grams (n <= k), and the k-SF (Fig. 11) with its
conversion to the k-IPF (Fig. 12), for k = 1..K. Times are the best of R runs;
memory is the peak heap of each structure (every allocation counted).

Prints markdown tables and writes them to BUILD_DIR/bench/kpaths.md.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

from benchlib import machine

PAPER_KS = (2, 3, 4, 6, 8, 11, 16)  # the k of 002 Fig. 14


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--k-max", type=int, default=16)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(a.build)
    exe = os.path.join(build, "host/analyses/bench_kpaths")
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench_kpaths: {exe} not found (build first: make build)")
    traces = sorted(glob.glob(os.path.join(root, "tests/traces/*.hwpt.zst")))
    if not traces:
        sys.exit("bench_kpaths: no shipped traces in tests/traces")
    cmd = [exe, "--k-max", str(a.k_max), "--reps", str(a.reps)] + traces
    t0 = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.time() - t0
    rows = [json.loads(l) for l in out.splitlines() if l.strip()]
    names = sorted({r["trace"] for r in rows})
    by = {(r["trace"], r["k"]): r for r in rows}
    ks = sorted({r["k"] for r in rows})

    def tot(k, f):
        return sum(by[(t, k)][f] for t in names)

    items = tot(1, "items")
    acts = tot(1, "activations")
    distinct = tot(1, "distinct")
    ms = lambda s: f"{1e3 * s:.2f}"
    kib = lambda b: f"{b / 1024:,.0f}"
    lines = [
        "## k-iteration path profiling: k-SF vs n-gram hashing vs BL hashing", "",
        f"Command: `python3 scripts/bench_kpaths.py {' '.join(sys.argv[1:])}` (runs `bench_kpaths --k-max {a.k_max} "
        f"--reps {a.reps}` on {', '.join(names)}; {wall:.0f} s). Machine: {machine()}. "
        f"Date: {time.strftime('%Y-%m-%d')}.", "",
        f"Input: the BL path streams of the {len(names)} shipped traces (path-stack model, BL preset, "
        f"depth 16): {items:,} completed paths ({distinct:,} distinct) in {acts:,} routine activations, "
        "extracted once and held in memory, so only the consumers are timed. Times: best of "
        f"{a.reps} runs, summed over the traces. Memory: peak heap of the structure (every allocation "
        "counted, allocator overhead included), summed over the traces. k-SF and conversion are "
        "measured apart (the conversion's peak is counted above the finished k-SF).", "",
        "| k | BL hash ms | BL hash by path key ms | n-gram hash ms | k-SF ms | k-SF / BL | "
        "k-SF to k-IPF ms | BL KiB | n-gram KiB | k-SF KiB | conversion KiB | k-SF nodes | k-IPF nodes | "
        "n-gram hash ops / path | k-SF root lookups / path | k-SF sibling steps / path |",
        "|---:|" + "---:|" * 15,
    ]
    for k in ks:
        bl, ksf = tot(k, "bl_s"), tot(k, "ksf_s")
        lines.append(
            f"| {k} | {ms(bl)} | {ms(tot(k, 'bl_key_s'))} | {ms(tot(k, 'ngram_s'))} | {ms(ksf)} | "
            f"{ksf / bl:.1f} | {ms(tot(k, 'ipf_s'))} | {kib(tot(k, 'bl_bytes'))} | "
            f"{kib(tot(k, 'ngram_bytes'))} | {kib(tot(k, 'ksf_bytes'))} | {kib(tot(k, 'ipf_bytes'))} | "
            f"{tot(k, 'ksf_nodes'):,} | {tot(k, 'ipf_nodes'):,} | {tot(k, 'ngram_hash_ops') / items:.2f} | "
            f"{tot(k, 'ksf_root_lookups') / items:.3f} | {tot(k, 'ksf_sibling_steps') / items:.2f} |")
    pk = [k for k in PAPER_KS if k in ks]
    lines += ["", "Per trace, at the k of 002 Fig. 14: k-SF construction time relative to BL hashing "
              "(the paper's Fig. 14 metric is profiling overhead relative to BLPP), and root lookups "
              "(hash operations) per path (Fig. 15).", "",
              "| trace | paths | activations | BL hash ms | " +
              " | ".join(f"k-SF/BL k={k}" for k in pk) + " | " +
              " | ".join(f"lookups/path k={k}" for k in pk) + " |",
              "|---|---:|---:|---:|" + "---:|" * (2 * len(pk))]
    for t in names:
        r1 = by[(t, 1)]
        lines.append(f"| {t} | {r1['items']:,} | {r1['activations']:,} | {ms(r1['bl_s'])} | " +
                     " | ".join(f"{by[(t, k)]['ksf_s'] / by[(t, k)]['bl_s']:.1f}" for k in pk) + " | " +
                     " | ".join(f"{by[(t, k)]['ksf_root_lookups'] / by[(t, k)]['items']:.3f}" for k in pk) + " |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    with open(os.path.join(build, "bench", "kpaths.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
