#!/usr/bin/env python3
"""RAP engine throughput (docs/rap_engine.md): per shipped trace, code
profile, default parameters (eps 10%, NodeCap 512, MergeFirst 1024), merging
buffer 4 and 0, both engines: events per clock (raw events / cycles from the
first event to idle after the flush, every split and merge stall counted),
the stall breakdown and the peak node count, plus wall time per engine;
then the 2-D engine (RangeW = 64, hwprof profile --unit rap2d, buffer off;
docs/rap2d.md) on the shipped code x data trace: pairs per clock.

Usage: scripts/bench_rap.py [BUILD] [--model-only]
Prints a Markdown table and writes it to BUILD/bench/rap.md.
"""
import glob
import json
import os
import subprocess
import sys
import time

args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = args[0] if args else "build"
model_only = "--model-only" in sys.argv
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
hwprof = os.path.join(build, "host/cli/hwprof")
traces = sorted(glob.glob("tests/traces/*.hwpt.zst"))


def profile(trace, engine, buffer, tcam_slice=4):
    t0 = time.perf_counter()
    out = subprocess.run([hwprof, "-q", "profile", "--unit", "rap", "--engine", engine, "--buffer", str(buffer),
                          "--tcam-slice", str(tcam_slice), "--json", trace],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.perf_counter() - t0


lines = ["# RAP engine throughput", "",
         f"Command: `scripts/bench_rap.py {build}`. Date: {time.strftime('%Y-%m-%d')}. "
         "Code profile, eps 10%, NodeCap 512, MergeFirst 1024, the default build (RAM TCAM with 4-bit "
         "slices: 17 TCAM-write cycles per split); target >= 0.95 events/clock.", "",
         "| trace | buffer | engine | events | pairs | cycles | events/clock | replay | cap-pass cycles "
         "| sched-pass cycles | TCAM-write cycles | ingress waits | splits | skipped | passes (sched+cap) | peak nodes | wall s |",
         "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
for t in traces:
    name = os.path.basename(t).split(".")[0]
    for buffer in (4, 0):
        ref = None
        for engine in (("model",) if model_only else ("model", "rtl")):
            j, wall = profile(t, engine, buffer)
            s = j["stats"]
            if ref is None:
                ref = j
            elif j != ref:
                print(f"MISMATCH: {name} buffer {buffer}: RTL JSON differs from the model's", file=sys.stderr)
                sys.exit(1)
            lines.append(f"| {name} | {buffer} | {engine} | {s['events']} | {s['pairs']} | {s['cycles']} | "
                         f"{s['events_per_clock']:.4f} | {s['stall_flush']} | {s['stall_cap']} | {s['stall_sched']} | "
                         f"{s['stall_tcam']} | {s['in_stall']} | {s['splits']} | {s['splits_skipped']} | "
                         f"{s['scheduled_passes']}+{s['capacity_passes']} | {s['peak_nodes']} | {wall:.1f} |")
# The TCAM variant's cost (model only; the cycle model takes any slice width):
# 0 = flip-flop TCAM (no TWR), 4 = the default build, 8 = iCE40 EBR slices.
lines += ["", "TCAM variant (model, buffer 4): events/clock and TCAM-write cycles per TcamSlice.", "",
          "| trace | flip-flop (0) | RAM, 4-bit slices (default) | RAM, 8-bit slices (EBR) |",
          "|---|---:|---:|---:|"]
for t in traces:
    name = os.path.basename(t).split(".")[0]
    cells = []
    for ts in (0, 4, 8):
        s = profile(t, "model", 4, ts)[0]["stats"]
        cells.append(f"{s['events_per_clock']:.4f} ({s['stall_tcam']})")
    lines.append(f"| {name} | " + " | ".join(cells) + " |")
# The 2-D engine (docs/rap2d.md, "Engine"): the same build at RangeW = 64 on
# the interleaved (pc, address) keys of the shipped code x data trace.
lines += ["", "2-D engine (RangeW = 64, 127 groups, RAM TCAM with 4-bit slices, buffer off; hwprof profile "
          "--unit rap2d): pairs per clock on the shipped code x data trace, eps 10%, NodeCap 512.", "",
          "| trace | engine | pairs | cycles | pairs/clock | replay | cap-pass cycles | sched-pass cycles "
          "| TCAM-write cycles | ingress waits | splits | skipped | passes (sched+cap) | peak nodes | wall s |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
for t in sorted(glob.glob("tests/traces/val/*pcmem*.hwpt.zst")):
    name = os.path.basename(t).split(".")[0]
    ref = None
    for engine in (("model",) if model_only else ("model", "rtl")):
        t0 = time.perf_counter()
        j = json.loads(subprocess.run([hwprof, "-q", "profile", "--unit", "rap2d", "--engine", engine, "--json", t],
                                      check=True, capture_output=True, text=True).stdout)
        wall = time.perf_counter() - t0
        if ref is None:
            ref = j
        elif j != ref:
            print(f"MISMATCH: {name} rap2d: RTL JSON differs from the model's", file=sys.stderr)
            sys.exit(1)
        s = j["stats"]
        lines.append(f"| {name} | {engine} | {s['pairs']} | {s['cycles']} | {s['events_per_clock']:.4f} | "
                     f"{s['stall_flush']} | {s['stall_cap']} | {s['stall_sched']} | {s['stall_tcam']} | "
                     f"{s['in_stall']} | {s['splits']} | {s['splits_skipped']} | "
                     f"{s['scheduled_passes']}+{s['capacity_passes']} | {s['peak_nodes']} | {wall:.1f} |")
text = "\n".join(lines) + "\n"
print(text)
os.makedirs(os.path.join(build, "bench"), exist_ok=True)
with open(os.path.join(build, "bench", "rap.md"), "w") as f:
    f.write(text)
