#!/usr/bin/env python3
"""Memory aliasing benchmark: M_a and the memory-dependence study (paper 004 section 3.3; docs/analyses.md).

Usage: scripts/bench_alias.py [BUILD_DIR (build)] [--programs gzip,bzip2,sqlite3,perl,memchase] [--keep DIR]

For every shipped program (the runs of tests/traces/*.hwpt.zst, same
command, input and environment as scripts/trace_programs.sh) and the
memory-bound workload tests/traces/inputs/memchase.c (built here with gcc -O2):

1. runs it under valgrind lackey (`--tool=lackey --trace-mem=yes`, as
   scripts/record_val_trace.sh does) with -d for valgrind's address map:
   every instruction and data address of the real run;
2. `bench_alias` computes the real (store, load) alias profile over windows
   of 256, 512 and 1024 instructions, the same instruction stream decorated
   with symbolic addresses (abstract execution of every 1,000-instruction
   chunk from a fresh random state: 004 Fig. 7's method) and its profile,
   and M_a (bi-directional, 004 footnote 3) beside the paper's ~95%;
3. for the four shipped traces, `hwprof fabricate` (N = instructions / 1,000
   tracelets of 1,000, seed 1) writes OUT.alias; M_a of the fabricated
   tracelets' alias profile against the real one (pcs compared as object file
   and offset);
4. the memory-dependence study: each 1,000-instruction chunk of the real
   stream as a tracelet through the critical-path model with memory
   dependences (a) off, (b) by the same address expression (today's rule),
   (c) from abstract execution, (d) from the real addresses: CPI, the share
   of critical-path cycles on store -> load edges, binary criticality
   agreement with (d); with --study-variants also without injected events
   (kept in the JSON of --keep, not tabled).

--keep DIR keeps each program's JSON; --report-only DIR prints the tables
from such files without running anything.

Prints markdown tables and writes them to BUILD_DIR/bench/alias.md.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from benchlib import machine

PAPER_MA = 95.0  # 004 section 3.3, Fig. 7: "averaging about 95%"
ENV = ["env", "-i", "PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C", "HOME=/nonexistent", "TERM=dumb"]
PROGRAMS = {  # scripts/trace_programs.sh: (stdin file, extra env, argv)
    "gzip": (None, [], ["gzip", "-6", "-n", "-c", "GPL-2"]),
    "bzip2": (None, [], ["bzip2", "-9", "-c", "sqlite_inserts.sql"]),
    "sqlite3": ("sqlite_inserts.sql", [], ["sqlite3", "-batch", ":memory:"]),
    "perl": (None, ["PERL_HASH_SEED=0", "PERL_PERTURB_KEYS=0"], ["perl", "perl_workload.pl"]),
    "memchase": (None, [], None),
}


def lackey(inputs, tmp, name, argv, stdin, extra_env):
    out = os.path.join(tmp, name + ".lackey")
    vgd = os.path.join(tmp, name + ".vgd")
    with open(out, "wb") as fl, open(vgd, "wb") as err, \
            open(os.path.join(inputs, stdin) if stdin else os.devnull, "rb") as fin:
        cmd = ENV + extra_env + ["valgrind", "-d", "--tool=lackey", "--trace-mem=yes",
                                 f"--log-fd={fl.fileno()}"] + argv
        subprocess.run(cmd, cwd=inputs, stdin=fin, stdout=subprocess.DEVNULL, stderr=err, pass_fds=(fl.fileno(),),
                       check=True)
    return out, vgd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--programs", default="gzip,bzip2,sqlite3,perl,memchase")
    ap.add_argument("--keep", help="keep the JSON of each run in this directory")
    ap.add_argument("--study-variants", action="store_true", help="also the study with other machine settings")
    ap.add_argument("--report-only", metavar="DIR", help="no runs: the tables from the JSON files --keep wrote")
    a = ap.parse_args()
    if a.report_only:
        rows = []
        for name in a.programs.split(","):
            with open(os.path.join(a.report_only, name + ".json")) as f:
                rows.append(json.load(f))
        report(a, os.path.abspath(a.build), rows, None)
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(a.build)
    hw = os.path.join(build, "host/cli/hwprof")
    ba = os.path.join(build, "host/analyses/bench_alias")
    for exe in (hw, ba):
        if not os.path.exists(exe):
            sys.exit(f"bench_alias.py: {exe} not found (cmake --build {a.build} --target hwprof bench_alias)")
    for tool in ("valgrind", "gcc"):
        if not shutil.which(tool):
            sys.exit(f"bench_alias.py: {tool} is not installed (make deps)")
    inputs = os.path.join(root, "tests/traces/inputs")
    tmp = tempfile.mkdtemp(prefix="bench_alias.")
    rows = []
    t_all = time.time()
    try:
        chase = os.path.join(tmp, "memchase")
        subprocess.run(["gcc", "-O2", "-o", chase, os.path.join(inputs, "memchase.c")], check=True)
        for name in a.programs.split(","):
            stdin, extra, argv = PROGRAMS[name]
            if argv is None:
                argv = [chase]
            t0 = time.time()
            lk, vgd = lackey(inputs, tmp, name, argv, stdin, extra)
            t_lk = time.time() - t0
            cmd = [ba, "--lackey", lk, "--vgmap", vgd]
            trace = os.path.join(root, "tests/traces", name + ".hwpt.zst")
            if os.path.exists(trace):
                info = json.loads(subprocess.run([hw, "-q", "trace", "info", "--json", trace], check=True,
                                                 capture_output=True, text=True).stdout)
                n = max(1, int(info["instructions"]) // 1000)
                fab = os.path.join(tmp, name + "_fab.hwpt.zst")
                subprocess.run([hw, "-q", "fabricate", "--from", trace, "--tracelets", str(n), "--seed", "1",
                                "-o", fab, "--aliases"], check=True)
                cmd += ["--fab", fab]
            t1 = time.time()
            j = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            j["program"] = name
            j["lackey_seconds"] = t_lk
            j["analysis_seconds"] = time.time() - t1
            if a.study_variants:
                j["variants"] = {}
                for label, extra_args in (("no events", ["--miss-rate", "0", "--mispredict-rate", "0"]),):
                    v = json.loads(subprocess.run(cmd[:5] + extra_args, check=True, capture_output=True,
                                                  text=True).stdout)
                    j["variants"][label] = v["study"]
            rows.append(j)
            for p in (lk, vgd):
                os.remove(p)
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                with open(os.path.join(a.keep, name + ".json"), "w") as f:
                    json.dump(j, f, indent=1)
            print(f"[bench_alias] {name}: {j['instructions']:,} instructions, lackey {t_lk:.0f} s, "
                  f"analysis {j['analysis_seconds']:.0f} s", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(a, build, rows, time.time() - t_all)


def report(a, build, rows, seconds):
    out = []
    took = f" ({seconds:.0f} s)" if seconds is not None else ""
    out.append(f"Command: `python3 scripts/bench_alias.py {a.build}`{took}. Machine: {machine()}. "
               f"Date: {time.strftime('%Y-%m-%d')}.\n")
    out.append("Alias profiles: (store pc, load pc) pairs whose load reads a byte the store wrote last, "
               "counted when the distance is below the window. Real: valgrind lackey's addresses. Abstract: the "
               "same instruction stream, each chunk of 1,000 instructions executed abstractly from fresh random "
               "registers and lazily seeded memory (004 Fig. 7's method). Fabricated: `hwprof fabricate` tracelets "
               "(seed 1, N = instructions / 1,000) with their OUT.alias. M_a(A, B) = sum over A's pairs of "
               "min(r_A, r_B) / sum of r_A, r = instances per instruction; recall = M_a(real, x), precision = "
               "M_a(x, real), M_a = their mean (004 footnote 3).\n")
    out.append("| program | instructions | window | real pairs | abstract pairs | M_a % | recall % | precision % "
               "| fabricated M_a % | fab. recall % | fab. precision % | paper M_a % |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    means, fmeans = {}, {}
    for j in rows:
        for w in j["windows"]:
            fab = [f"{w[k]:.1f}" if k in w else "" for k in ("fab_M_a", "fab_M_a_recall", "fab_M_a_precision")]
            out.append(f"| {j['program']} | {j['instructions']:,} | {w['window']} | {w['real_pairs']:,} | "
                       f"{w['abstract_pairs']:,} | {w['M_a']:.1f} | {w['M_a_recall']:.1f} | {w['M_a_precision']:.1f} "
                       f"| {' | '.join(fab)} | ~{PAPER_MA:.0f} |")
            means.setdefault(w["window"], []).append(w["M_a"])
            if "fab_M_a" in w:
                fmeans.setdefault(w["window"], []).append(w["fab_M_a"])
    for win, v in sorted(means.items()):
        fv = fmeans.get(win, [])
        fm = f"**{sum(fv) / len(fv):.1f}**" if fv else ""
        out.append(f"| **mean** | | {win} | | | **{sum(v) / len(v):.1f}** | | | {fm} | | | ~{PAPER_MA:.0f} |")
    out.append("")
    out.append("Memory-dependence study: every 1,000-instruction chunk of the real stream as a tracelet through the "
               "timing model (default machine, misprediction rate 5% on conditional and indirect branches, "
               "2% load misses, seed 1), memory dependences (a) none, (b) same address expression, (c) abstract "
               "execution, (d) real addresses. mem %: share of critical-path cycles on store -> load edges; "
               "agree %: dynamic instructions whose binary criticality equals (d)'s.\n")
    out.append("| program | CPI none | CPI expr | CPI abstract | CPI real | mem % expr | mem % abstract | mem % real "
               "| mem edges / 1k expr | abstract | real | agree % none | agree % expr | agree % abstract "
               "| binary critical none / real |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for j in rows:
        s = j["study"]
        out.append(f"| {j['program']} | {s['none']['cpi']:.3f} | {s['expression']['cpi']:.3f} | "
                   f"{s['abstract']['cpi']:.3f} | {s['real']['cpi']:.3f} | {100 * s['expression']['mem_share']:.2f} | "
                   f"{100 * s['abstract']['mem_share']:.2f} | {100 * s['real']['mem_share']:.2f} | "
                   + " | ".join(f"{1000 * s[m]['mem_edges'] / max(1, j['instructions']):.2f}"
                                for m in ("expression", "abstract", "real")) + " | "
                   + f"{s['none']['agreement_with_real']:.1f} | {s['expression']['agreement_with_real']:.1f} | "
                   f"{s['abstract']['agreement_with_real']:.1f} | {s['none']['binary_critical']:,} / "
                   f"{s['real']['binary_critical']:,} |")
    out.append("")
    out.append("| program | real aliasing loads (any distance) | of which within a chunk | abstract steps failed | "
               "pages seeded | lackey s | analysis s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for j in rows:
        ab = j["abstract"]
        out.append(f"| {j['program']} | {j['real_aliasing_loads']:,} | {j['real_aliasing_loads_in_chunk']:,} | "
                   f"{ab['failed']:,} of {ab['emulated']:,} | {ab['pages']:,} | {j['lackey_seconds']:.0f} | "
                   f"{j['analysis_seconds']:.0f} |")
    text = "\n".join(out) + "\n"
    print(text)
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    with open(os.path.join(build, "bench", "alias.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
