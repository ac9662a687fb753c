#!/usr/bin/env python3
"""Phase-quality study (papers 003 section 5-6 and 000 section 6; docs/results.md, "Phase quality").

Usage: scripts/bench_phase.py [BUILD_DIR (build)] [--engine model|rtl] [--quick]

For every shipped trace (intervals of 100,000 instructions: the traces hold
2-5 M instructions) and the long cc1_full trace (intervals of 1,000,000
instructions, as in 003), runs

  hwprof critpath TRACE --cpi-interval N --cpi-out CPI.json    (per-interval CPI)
  hwprof profile --unit phase --detector D [--threshold T] --interval N --cpi CPI.json --json TRACE

for the DCR tracker, the path-based detector and the BBV detector (Manhattan
thresholds of 10% and 40% of the signature total, as 003 Table 1 does for
BBV), and prints the number of phases, the average phase length, the
next-phase prediction accuracy and the CoV of CPI within phases. Plots phase
id over time for the three detectors (with the CPI above them, as in 003
Fig. 2) on cc1_full into docs/img/phase_cc1_full.png (needs matplotlib: run
with the project venv's python). --quick skips cc1_full.

Prints markdown tables and writes them to BUILD_DIR/bench/phase.md.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from benchlib import machine

# 003 section 6 (SPEC CPU2000, 1 M-instruction intervals, 32-entry stack /
# accumulator table, 64-entry signature table, 256-entry Markov predictor).
PAPER = {"dcr_prediction": 84.9, "bbv10_prediction": 42.9, "bbv40_prediction": 73.3}
TOTAL = 1024  # signature elements sum to 2^sig_w (docs/phase_detector.md)
DETECTORS = [  # (label, detector, threshold)
    ("DCR", "dcr", None),
    ("path 10%", "path", TOTAL * 10 // 100),
    ("path 40%", "path", TOTAL * 40 // 100),
    ("BBV 10%", "bbv", TOTAL * 10 // 100),
    ("BBV 40%", "bbv", TOTAL * 40 // 100),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--engine", default="model", choices=["model", "rtl"])
    ap.add_argument("--quick", action="store_true", help="shipped traces only")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(a.build)
    exe = os.path.join(build, "host/cli/hwprof")
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench_phase: {exe} not found (build first: make build)")
    runs = [(t, 100_000) for t in sorted(glob.glob(os.path.join(root, "tests/traces/*.hwpt.zst")))]
    full = os.path.join(root, "tests/traces/long/cc1_full.hwpt.zst")
    if not a.quick:
        if not os.path.exists(full):
            sys.exit(f"bench_phase: {full} missing (scripts/record_long_traces.sh cc1_full)")
        runs.append((full, 1_000_000))
    tmp = tempfile.mkdtemp(prefix="hwprof_bench_phase.")

    def run(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"bench_phase: {' '.join(cmd)}: {r.stderr.strip()}")
        return r

    t_start = time.time()
    results = []  # (name, interval, {label: json}, cpi list)
    for trace, interval in runs:
        name = os.path.basename(trace).split(".")[0]
        cpi = os.path.join(tmp, name + ".cpi.json")
        t0 = time.time()
        run([exe, "-q", "critpath", trace, "--cpi-interval", str(interval), "--cpi-out", cpi, "--json"])
        print(f"bench_phase: {name}: CPI per interval in {time.time() - t0:.0f} s", file=sys.stderr)
        per = {}
        for label, det, thr in DETECTORS:
            cmd = [exe, "-q", "profile", "--unit", "phase", "--detector", det, "--engine", a.engine,
                   "--interval", str(interval), "--cpi", cpi, "--json", trace]
            if thr is not None:
                cmd[-1:-1] = ["--threshold", str(thr)]
            t0 = time.time()
            per[label] = json.loads(run(cmd).stdout)
            per[label]["wall"] = time.time() - t0
        with open(cpi) as f:
            results.append((name, interval, per, json.load(f)["cpi"]))
    wall = time.time() - t_start

    f1 = lambda x: f"{x:.1f}"
    f2 = lambda x: f"{x:.2f}"
    f3 = lambda x: f"{x:.3f}"
    cmdline = " ".join(["scripts/bench_phase.py"] + sys.argv[1:])
    lines = [
        "## Phase quality: DCR vs path-based vs BBV (003 Table 1, Fig. 4-5)", "",
        f"Command: `.venv/bin/python {cmdline}` ({wall:.0f} s). Machine: {machine()}. "
        f"Date: {time.strftime('%Y-%m-%d')}.", "",
        f"Each cell: `hwprof profile --unit phase --detector D --engine {a.engine} --interval N [--threshold T] "
        "--cpi CPI.json --json TRACE`, with the default hardware (DCR: 32-entry stack, 64-entry signature table; "
        "path/BBV: 32 accumulators, 10-bit signature elements summing to 1,024, 32-entry signature table; all: "
        "256-entry Markov predictor). Thresholds 10% / 40% of the signature total (102 / 410), as 003 Table 1 "
        "uses for BBV. CPI per interval from `hwprof critpath TRACE --cpi-interval N --cpi-out CPI.json` (the "
        "timing model of docs/analyses.md). Accuracy = correct predictions / scored intervals; CoV = CoV of CPI "
        "within each phase, weighted by intervals (the whole run's CoV beside it).", "",
        "| trace | interval | intervals | CoV CPI whole | " + " | ".join(
            f"{l} phases / avg len / pred % / CoV" for l, _, _ in DETECTORS) + " |",
        "|---|---:|---:|---:|" + "---|" * len(DETECTORS),
    ]
    for name, interval, per, _ in results:
        first = per[DETECTORS[0][0]]["summary"]
        cells = []
        for label, _, _ in DETECTORS:
            s = per[label]["summary"]
            cells.append(f"{s['phases']} / {f1(s['avg_length'])} / {f1(100 * s['prediction_accuracy'])} / "
                         f"{f3(s.get('cov_cpi_within', 0))}")
        lines.append(f"| {name} | {interval:,} | {first['intervals']} | {f3(first.get('cov_cpi_whole', 0))} | "
                     + " | ".join(cells) + " |")
    mean = lambda label, key: sum(p[label]["summary"][key] for _, _, p, _ in results) / len(results)
    lines.append("| **mean** | | | | " + " | ".join(
        f"{f1(mean(l, 'phases'))} / {f1(mean(l, 'avg_length'))} / **{f1(100 * mean(l, 'prediction_accuracy'))}** / "
        f"{f3(mean(l, 'cov_cpi_within'))}" for l, _, _ in DETECTORS) + " |")
    lines += ["", f"Paper 003 (SPEC CPU2000 means): DCR prediction {PAPER['dcr_prediction']}%, BBV 10% "
              f"{PAPER['bbv10_prediction']}%, BBV 40% {PAPER['bbv40_prediction']}%.", ""]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    with open(os.path.join(build, "bench", "phase.md"), "w") as f:
        f.write(text)

    long = [r for r in results if r[0] == "cc1_full"]
    if long:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("bench_phase: matplotlib missing, no plot (run with .venv/bin/python)", file=sys.stderr)
        else:
            name, interval, per, cpi = long[0]
            shown = ["DCR", "path 10%", "BBV 10%"]
            fig, axes = plt.subplots(len(shown) + 1, 1, figsize=(10, 8), sharex=True)
            axes[0].plot(range(len(cpi)), cpi, color="black", lw=0.8)
            axes[0].set_ylabel("CPI")
            axes[0].set_title(f"{name}: CPI and phase id per {interval:,}-instruction interval")
            for ax, label in zip(axes[1:], shown):
                ph = [iv["phase"] for iv in per[label]["intervals"]]
                s = per[label]["summary"]
                ax.step(range(len(ph)), ph, where="post", lw=0.8)
                ax.set_ylabel(f"{label}\nphase id")
                ax.text(0.99, 0.9, f"{s['phases']} phases, prediction {100 * s['prediction_accuracy']:.1f}%",
                        transform=ax.transAxes, ha="right", va="top", fontsize=8)
            axes[-1].set_xlabel("interval")
            fig.tight_layout()
            out = os.path.join(root, "docs/img/phase_cc1_full.png")
            fig.savefig(out, dpi=110)
            print(f"bench_phase: wrote {out}", file=sys.stderr)
    for p in glob.glob(os.path.join(tmp, "*")):
        os.remove(p)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
