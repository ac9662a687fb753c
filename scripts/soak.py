#!/usr/bin/env python3
"""make soak: long seeded random lock-step runs of every RTL unit, plus the
shipped real traces through every unit (docs/verification.md "Soak").

  scripts/soak.py BUILD [--seconds S] [--cycles C] [--jobs J] [--seed N] [--seeds K] [--short]
                        [--long DIR] [--tbs tb_a,tb_b] [--out DIR]

Phase 1 runs every lock-step test that replays a shipped trace
(tests/traces/) once, in every test executable. With --long DIR, phase 1b
runs the same tests again over the traces in DIR (HWPROF_TRACES=DIR; make
soak gives tests/traces/long: gcc cc1 and sqlite3, 53 million records),
whole (the trace tests' record caps lifted: DET_TRACE_RECORDS=0, RAP_EVENTS
at LONG_RAP_EVENTS, the RAP engine being the slowest lock-step). Phase 2 repeats, until
--seconds have passed, a round over every test executable with the seeded
random tests (gtest filter *Random*), each round with a fresh base seed
(printed; SEED=<n> on the command line replays a round exactly, --seed
fixes the first round's seed) and each test's own seed sweep (or K seeds
per test with --seeds K: SEEDS=K). A failure
stops the soak and prints the command that reproduces it. --short (CI):
phase 1 on the gzip trace only and a single round of phase 2. --cycles C
ends phase 2 once C lock-step cycles have run (whichever of --seconds and
--cycles comes first; either alone when the other is 0); --jobs J runs J test
executables at a time.
"""
import argparse
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Every lock-step test executable (tb/), in the order the soak visits them.
TBS = ["tb_prim", "tb_branch_queue", "tb_path_stack", "tb_hpt", "tb_path_profiler",
       "tb_markov", "tb_dcr", "tb_detector", "tb_rap"]
SHIPPED_FILTER = "*Shipped*:*RealTrace*:*Real*:*Gzip*"
RANDOM_FILTER = "*Random*"
# Phase 1b: events per long trace through the RAP engine (its lock-step runs
# at about 55,000 cycles/s, a tenth of the other units).
LONG_RAP_EVENTS = 2_000_000
CYCLES_FILE = Path()  # set in main(): each test process appends its harness cycles (sim/rtl_harness.h)


def lockstep_cycles():
    try:
        return sum(int(x) for x in CYCLES_FILE.read_text().split())
    except FileNotFoundError:
        return 0


def run(build, tb, gfilter, env_extra):
    exe = Path(build) / "tb" / tb
    env = dict(os.environ, **env_extra)
    env["HWPROF_CYCLES_FILE"] = str(CYCLES_FILE)
    cmd = [str(exe), f"--gtest_filter={gfilter}", "--gtest_brief=1"]
    t0 = time.time()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    secs = time.time() - t0
    out = p.stdout + p.stderr
    text = f"$ {' '.join(f'{k}={v}' for k, v in env_extra.items())} {' '.join(cmd)}\n{out}\n"
    ran = 0
    for ln in out.splitlines():
        if ln.startswith("[==========]") and "ran" in ln:
            ran = int(ln.split()[1])
    repro = " ".join(f"{k}={v}" for k, v in env_extra.items()) + " " + " ".join(cmd)
    return p.returncode == 0, ran, secs, repro.strip(), text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--seconds", type=float, default=3600, help="phase 2 time budget (0: none)")
    ap.add_argument("--cycles", type=int, default=0, help="end phase 2 after this many lock-step cycles (0: none)")
    ap.add_argument("--jobs", type=int, default=1, help="test executables run at a time")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--seeds", type=int, default=0,
                    help="seeds per random test (SEEDS=); 0: each test's own sweep, which also checks that "
                         "the sweep reaches its corners (overflow, split, ...), so fewer seeds can fail those checks")
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--tbs", default="", help="comma-separated test executables (default: all of TBS)")
    ap.add_argument("--long", default="", help="phase 1b: the trace tests again over this directory's traces")
    ap.add_argument("--out", default="", help="log directory (default BUILD/soak)")
    a = ap.parse_args()
    if a.seconds <= 0 and a.cycles <= 0 and not a.short:
        ap.error("give --seconds or --cycles (or --short): phase 2 would never end")
    chosen = [t for t in a.tbs.split(",") if t] or TBS
    unknown = [t for t in chosen if t not in TBS]
    if unknown:
        ap.error(f"--tbs: unknown {', '.join(unknown)} (known: {', '.join(TBS)})")
    missing = [tb for tb in chosen if not (Path(a.build) / "tb" / tb).exists()]
    if len(missing) == len(chosen):
        sys.exit(f"soak: no test executable in {a.build}/tb (make soak builds them)")
    for tb in missing:
        print(f"[soak] warning: {a.build}/tb/{tb} not built: skipped (make soak builds it)")
    tbs = [tb for tb in chosen if tb not in missing]
    out = Path(a.out) if a.out else Path(a.build) / "soak"
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / "soak.log", "w")
    global CYCLES_FILE
    CYCLES_FILE = out / "cycles.txt"
    CYCLES_FILE.write_text("")
    t_start = time.time()
    tests = 0
    failures = []

    lock = threading.Lock()

    def step(tb, gfilter, env_extra, label):
        nonlocal tests
        ok, ran, secs, repro, out_text = run(a.build, tb, gfilter, env_extra)
        with lock:
            log.write(out_text)
            log.flush()
            tests += ran
            print(f"[soak] {label:<8} {tb:<17} {ran:4d} tests {secs:7.1f} s  {'PASS' if ok else 'FAIL'}"
                  f"  ({lockstep_cycles():,} lock-step cycles so far)", flush=True)
            if not ok:
                failures.append(repro)
                print(f"[soak]   reproduce: {repro}\n[soak]   log: {out / 'soak.log'}", flush=True)
        return ok

    def steps(jobs):
        """Runs (tb, filter, env, label) jobs, a.jobs at a time."""
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            return all(list(pool.map(lambda j: step(*j), jobs)))

    def done():
        if a.short:
            return True
        if a.seconds > 0 and time.time() - t_start >= a.seconds:
            return True
        return a.cycles > 0 and lockstep_cycles() >= a.cycles

    print(f"[soak] phase 1: shipped traces through every unit ({'gzip only' if a.short else 'every trace'})")
    gf = SHIPPED_FILTER if not a.short else ":".join(f"{f}gzip*" for f in ("*Shipped*", "*RealTrace*"))
    steps([(tb, gf, {}, "shipped") for tb in tbs])
    if a.long and not a.short and not failures:
        if not Path(a.long).is_dir():
            sys.exit(f"soak: --long {a.long}: not a directory")
        print(f"[soak] phase 1b: the trace tests over {a.long}, whole traces", flush=True)
        env_long = {"HWPROF_TRACES": str(Path(a.long).resolve()), "DET_TRACE_RECORDS": "0",
                    "RAP_EVENTS": str(LONG_RAP_EVENTS)}
        # The slowest first, so that the jobs finish together.
        order = ["tb_hpt", "tb_path_profiler", "tb_path_stack", "tb_branch_queue", "tb_detector", "tb_dcr",
                 "tb_rap", "tb_markov", "tb_prim"]
        steps([(tb, SHIPPED_FILTER, env_long, "long") for tb in sorted(tbs, key=order.index)])
    rounds = 0
    rng = random.SystemRandom()
    seed = a.seed if a.seed is not None else rng.randrange(1, 2**31)
    budget = ("one round" if a.short else
              " or ".join(x for x in (f"{a.seconds:.0f} s" if a.seconds > 0 else "",
                                      f"{a.cycles:,} lock-step cycles" if a.cycles > 0 else "") if x))
    print(f"[soak] phase 2: seeded random lock-step, {a.seeds or 'the default'} seeds per test, "
          f"{budget}, {a.jobs} at a time")
    while not failures:
        print(f"[soak] round {rounds + 1}: SEED={seed}" + (f" SEEDS={a.seeds}" if a.seeds else ""), flush=True)
        env_extra = {"SEED": str(seed)}
        if a.seeds:
            env_extra["SEEDS"] = str(a.seeds)
        steps([(tb, RANDOM_FILTER, env_extra, "random") for tb in tbs])
        rounds += 1
        if done():
            break
        seed = rng.randrange(1, 2**31)
    wall = time.time() - t_start
    summary = (f"[soak] {rounds} random rounds, {tests} test runs, {lockstep_cycles():,} lock-step "
               f"cycles, {wall:.0f} s wall, {len(failures)} failing")
    print(summary)
    (out / "summary.txt").write_text(summary + "\n" + "".join(f"reproduce: {r}\n" for r in failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
