#!/usr/bin/env python3
"""CTest wave.layouts: every saved GTKWave layout names only signals that a
freshly written waveform of its unit has (docs/debugging.md).

For each layout below, runs one short test of its unit with TRACE=1 (first
TRACE_END cycles only) into a scratch directory and checks the layout
against the FST (scripts/gtkw_check.py), and the comparison layouts the
harness wrote beside the FSTs against those FSTs. A layout file under tb/ or
sim/ that is missing from the table fails the test, so a new layout gets a
check. A renamed RTL signal breaks this test, not a debugging session.

  check_layouts.py BUILD_DIR [LAYOUT_SUBSTRING]
"""

import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gtkw_check  # noqa: E402

# layout -> (test binary relative to the build, gtest filter or argv)
LAYOUTS = {
    "tb/path_profiler/branch_queue.gtkw": ("tb/tb_branch_queue", "Depths/BranchQueueDepth.FillsToDepthThenRefusesAndDrainsInOrder/depth8"),
    "tb/path_profiler/path_classifier.gtkw": ("tb/tb_path_stack", "PathClassifier.RandomLockstepWithBubblesAndBackpressure"),
    "tb/path_profiler/path_stack.gtkw": ("tb/tb_path_stack", "Configs/PathStackConfig.RandomLockstepWithBubblesAndBackpressure/d16_l32"),
    "tb/path_profiler/path_frontend.gtkw": ("tb/tb_path_stack", "Configs/PathFrontendConfig.RandomLockstepWithBubblesBackpressureAndRegisterTraffic/q4_d16_l32"),
    "tb/path_profiler/hpt.gtkw": ("tb/tb_hpt", "HptConfigs/HptConfigTest.RandomLockstepWithBubblesBackpressureCtrlAndCommands/s128_w4"),
    "tb/path_profiler/path_profiler.gtkw": ("tb/tb_path_profiler", "PathProfiler.HandCountedHotPathsOfALoopInARoutine"),
    "tb/phase/dcr_tracker.gtkw": ("tb/tb_dcr", "DcrTracker.Fig1ProgramGivesOnePhasePerCodeRegion"),
    "tb/phase/detector.gtkw": ("tb/tb_detector", "DetectorDirected.BbvAllocatesMatchesAndEvictsLeastRecentlyUsed"),
    "tb/phase/markov_predictor.gtkw": ("tb/tb_markov", "MarkovPredictorRtl.ResultOneCycleAfterEachBackToBackUpdate"),
    "tb/phase/interval_counter.gtkw": ("tb/tb_markov", "IntervalCounterRtl.BoundariesDoNotDrift"),
    "tb/rap/rap_engine.gtkw": ("tb/tb_rap", "RapEngine.PaperFig1Scenario"),
    "tb/board/board_core.gtkw": ("tb/tb_board", "BoardShell.InfoBeforeOpenAndNoSession"),
    "tb/ingress/rvfi_ingress.gtkw": ("tb/tb_rvfi_ingress", "Depths/Ingress.BackToBackBranchesOnePerClock/depth4"),
    # The stage and primitive tests (their own loops through tb/common/cycle_check.h).
    "tb/rap/rap_merge_buffer.gtkw": ("tb/tb_rap", "RapStage.MergeBufferLockstep"),
    "tb/rap/rap_arbiter.gtkw": ("tb/tb_rap", "RapStage.ArbiterLockstepRange8Groups16"),
    "tb/rap/rap_threshold.gtkw": ("tb/tb_rap", "RapStage.ThresholdLockstepRange8"),
    "tb/rap/rap_tcam.gtkw": ("tb/tb_rap", "RapStage.TcamFfLockstepRange8Groups8"),
    "tb/rap/rap_tcam_ram.gtkw": ("tb/tb_rap", "RapStage.TcamRamLockstepRange8Groups8Slice4"),
    "tb/rap/rap_counter_ram.gtkw": ("tb/tb_rap", "RapStage.CounterRamLockstepGroups8"),
    "tb/prim/fifo_sync.gtkw": ("tb/tb_prim", "PrimFifoSync.MatchesSyncFifoModelRamRead"),
    "tb/prim/argmin_tree.gtkw": ("tb/tb_prim", "PrimArgmin.PipeGivesTheResultOneCycleLater"),
    "tb/prim/ram_2p.gtkw": ("tb/tb_prim", "PrimRam2p.ReadsWrittenGranulesCollidingGranuleUndefined"),
    "tb/prim/stat_bank.gtkw": ("tb/tb_prim", "PrimStatBank.CountersSaturateAndClearWins"),
    "sim/board_sc/vboard.gtkw": None,  # checked by cli.vboard's own run below
}

TRACE_END = "400"


def run_unit(build, layout, binary, filt, scratch):
    d = os.path.join(scratch, os.path.basename(layout).replace(".gtkw", ""))
    os.makedirs(d, exist_ok=True)
    env = dict(os.environ, TRACE="1", TRACE_END=TRACE_END, WAVE_DIR=d, FAIL_WAVE="0", SEEDS="1")
    r = subprocess.run([os.path.join(build, binary), f"--gtest_filter={filt}", "--gtest_brief=1"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    fsts = sorted(glob.glob(os.path.join(d, "*.fst")))
    if not fsts:
        print(f"{layout}: {binary} --gtest_filter={filt} wrote no waveform (rc {r.returncode})\n{r.stdout[-2000:]}")
        return None
    return fsts


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    scratch = os.path.join(build, "tmp", "wave_layouts")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    bad = 0
    found = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "tb", "*", "*.gtkw"))
                   + glob.glob(os.path.join(ROOT, "sim", "*", "*.gtkw")))
    for f in found:
        if f not in LAYOUTS:
            print(f"{f}: layout without a check: add it to {os.path.relpath(__file__, ROOT)}")
            bad += 1
    for layout, how in LAYOUTS.items():
        if only and only not in layout:
            continue
        if not os.path.exists(os.path.join(ROOT, layout)):
            print(f"{layout}: missing")
            bad += 1
            continue
        if how is None:
            exe = os.path.join(build, "sim", "board_sc", "hwprof_vboard")
            if not os.path.exists(exe):
                print(f"{layout}: skipped ({exe} not built)")
                continue
            fst = os.path.join(scratch, "vboard.fst")
            r = subprocess.run([exe, "--wave", fst, "--exit-after-idle", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=120)
            if not os.path.exists(fst):
                print(f"{layout}: hwprof_vboard --wave wrote nothing (rc {r.returncode}): {r.stdout[-500:]}")
                bad += 1
                continue
            fsts = [fst]
        else:
            fsts = run_unit(build, layout, how[0], how[1], scratch)
            if not fsts:
                bad += 1
                continue
        bad += gtkw_check.check(fsts[0], [os.path.join(ROOT, layout)])
        for fst in fsts:
            g = fst[:-4] + ".gtkw"
            if os.path.exists(g):
                bad += gtkw_check.check(fst, [g])
    print("wave.layouts:", "FAILED" if bad else "every layout's signals exist")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
