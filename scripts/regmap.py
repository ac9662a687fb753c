#!/usr/bin/env python3
"""Register maps from one source: data/regs/<unit>.json.

Each unit's JSON file defines the registers of one csr port (address, NAME,
descriptive title, access, reset value, description, bit fields). From it
this script writes, per unit:

  <rtl_dir>/hwprof_<unit>_reg_pkg.sv   SystemVerilog package: addresses,
                                      field positions, reset values
  <model_dir>/<unit>_regs.h            C++ enum class and constants for the
                                      models, testbenches and engines
  <doc>                                the Markdown register table between
                                      <!-- regmap:<unit> begin/end -->

Usage:
  scripts/regmap.py            rewrite the generated files in the tree (make regs)
  scripts/regmap.py --check    exit 1 naming every checked-in file that differs
  scripts/regmap.py --out DIR  write the generated files under DIR instead

Python 3 standard library only. JSON schema (data/regs/*.json):
  unit, prefix (UpperCamel, e.g. "Rap"), module, rtl_dir, model_dir, doc,
  addr_width, cpp_enum, cpp_count, registers: [{addr, name (UPPER_SNAKE),
  title, access, reset, desc, fields: [{bits (n or "hi:lo"), name
  (lower_snake), access, desc, cpp (optional C++ name)}], presets (optional:
  [{name (UPPER_SNAKE), value, desc}], named values of the register, emitted
  as <Unit><Reg><Name> / k<Unit><Reg><Name>)}].
  access: rw, rw-staged (applied by a command), ro, wo (reads 0); a field may
  be rw1c (write 1 clears). reset: a number, or text for values that depend
  on parameters.
"""
import argparse
import difflib
import json
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "regs"
ACCESS = {"rw": "rw", "rw-staged": "rw, staged", "ro": "ro", "wo": "wo, reads 0"}
FIELD_ACCESS = {"rw", "ro", "wo", "rw1c"}
WIDTH = 32


def camel(name):
    """UPPER_SNAKE or lower_snake -> UpperCamel."""
    return "".join(p[:1].upper() + p[1:].lower() for p in name.split("_"))


def bits_of(field):
    """(msb, lsb) of a field's "bits": 5 or "7:4"."""
    b = field["bits"]
    if isinstance(b, int):
        return b, b
    hi, lo = (int(x) for x in b.split(":"))
    return hi, lo


def reset_lit(reset, sv):
    """A numeric reset value as an SV or C++ literal: hex when written in hex."""
    v = reset_int(reset)
    if isinstance(reset, str) and reset.startswith("0x"):
        return f"32'h{v:08x}" if sv else f"0x{v:08x}u"
    return f"32'd{v}" if sv else f"{v}u"


def reset_int(reset):
    """The reset value as a number, or None when it depends on parameters."""
    if isinstance(reset, int):
        return reset
    if isinstance(reset, str) and re.fullmatch(r"0x[0-9a-fA-F_]+|\d+", reset):
        return int(reset.replace("_", ""), 0)
    return None


def load(path):
    """Read and check one unit file."""
    u = json.loads(path.read_text())
    where = path.relative_to(ROOT)
    for key in ("unit", "prefix", "module", "rtl_dir", "model_dir", "doc", "addr_width", "cpp_enum",
                "cpp_count", "registers"):
        if key not in u:
            sys.exit(f"{where}: missing key '{key}'")
    regs = u["registers"]
    if [r["addr"] for r in regs] != list(range(len(regs))):
        sys.exit(f"{where}: addresses must be 0..{len(regs) - 1} in order")
    if len(regs) > 1 << u["addr_width"]:
        sys.exit(f"{where}: {len(regs)} registers do not fit addr_width {u['addr_width']}")
    names = [r["name"] for r in regs]
    if len(set(names)) != len(names):
        sys.exit(f"{where}: duplicate register names")
    for r in regs:
        if r.get("access") not in ACCESS:
            sys.exit(f"{where}: {r['name']}: access must be one of {', '.join(ACCESS)}")
        used = 0
        for f in r.get("fields", []):
            hi, lo = bits_of(f)
            mask = ((1 << (hi - lo + 1)) - 1) << lo
            if not 0 <= lo <= hi < WIDTH or used & mask:
                sys.exit(f"{where}: {r['name']}.{f['name']}: bits {f['bits']} out of range or overlapping")
            if f.get("access", "rw") not in FIELD_ACCESS:
                sys.exit(f"{where}: {r['name']}.{f['name']}: access must be one of {', '.join(FIELD_ACCESS)}")
            used |= mask
        for s in r.get("presets", []):
            if reset_int(s.get("value")) is None or not re.fullmatch(r"[A-Z][A-Z0-9_]*", s.get("name", "")):
                sys.exit(f"{where}: {r['name']}: a preset needs an UPPER_SNAKE name and a numeric value")
    return u


def banner(u, comment):
    return (f"{comment} Register map of {u['module']}'s csr port ({u['doc']}).\n"
            f"{comment} Generated from data/regs/{u['unit']}.json by scripts/regmap.py; do not edit:\n"
            f"{comment} edit the JSON file and run `make regs`.\n")


def one_line(text):
    return " ".join(text.split())


def doc_lines(text, indent):
    """A `///` comment wrapped at 100 columns."""
    return "".join(f"{indent}/// {line}\n" for line in textwrap.wrap(one_line(text), 96 - len(indent)))


def gen_sv(u):
    p, aw, regs = u["prefix"], u["addr_width"], u["registers"]
    pkg = f"hwprof_{u['unit']}_reg_pkg"
    out = [f"// {pkg}: generated register map, see below.\n", banner(u, "//"),
           "`default_nettype none\n\n", f"package {pkg};\n\n",
           f"  /// Width of csr_addr_i.\n  localparam int unsigned {p}AddrW = {aw};\n",
           f"  /// Registers at addresses 0..{p}NumRegs-1; other addresses read 0, writes ignored.\n",
           f"  localparam int unsigned {p}NumRegs = {len(regs)};\n\n  // Addresses.\n"]
    for r in regs:
        out.append(f"  /// {r['name']}: {r['title']} ({ACCESS[r['access']]}).\n")
        out.append(f"  localparam logic [{p}AddrW-1:0] {p}Addr{camel(r['name'])} = {aw}'d{r['addr']};\n")
    resets = [r for r in regs if r["access"].startswith("rw") and reset_int(r.get("reset")) is not None]
    if resets:
        out.append("\n  // Reset values.\n")
        for r in resets:
            out.append(f"  localparam logic [31:0] {p}{camel(r['name'])}Reset = {reset_lit(r['reset'], True)};\n")
    for r in regs:
        for s in r.get("presets", []):
            out.append(doc_lines(f"{r['name']} preset {s['name']}: {s['desc']}.", "  "))
            out.append(f"  localparam logic [31:0] {p}{camel(r['name'])}{camel(s['name'])} = "
                       f"{reset_lit(s['value'], True)};\n")
    for r in regs:
        if not r.get("fields"):
            continue
        out.append(f"\n  // {r['name']} fields.\n")
        for f in r["fields"]:
            hi, lo = bits_of(f)
            base = f"{p}{camel(r['name'])}{camel(f['name'])}"
            out.append(doc_lines(f"{r['name']}.{f['name']}: {f['desc']}.", "  "))
            if hi == lo:
                out.append(f"  localparam int unsigned {base}Bit = {lo};\n")
            else:
                out.append(f"  localparam int unsigned {base}Lsb = {lo};\n")
                out.append(f"  localparam int unsigned {base}W = {hi - lo + 1};\n")
    out.append("\nendpackage\n\n`default_nettype wire\n")
    return "".join(out)


def gen_h(u):
    p, regs = u["prefix"], u["registers"]
    out = [banner(u, "//"), "#pragma once\n\n#include <cstdint>\n\nnamespace hwprof::model {\n\n",
           f"/// Register addresses of {u['module']}'s csr port ({u['doc']}).\n",
           f"enum class {u['cpp_enum']} : unsigned {{\n"]
    for r in regs:
        out.append(f"  {camel(r['name'])} = {r['addr']},  ///< {r['name']}: {r['title']} ({ACCESS[r['access']]})\n")
    out.append(f"}};\ninline constexpr unsigned {u['cpp_count']} = {len(regs)};\n")
    for r in regs:
        v = reset_int(r.get("reset"))
        if r["access"].startswith("rw") and v is not None:
            out.append(f"inline constexpr uint32_t k{p}{camel(r['name'])}Reset = {reset_lit(r['reset'], False)};  ///< {r['name']} reset\n")
        for s in r.get("presets", []):
            out.append(doc_lines(f"{r['name']} preset {s['name']}: {s['desc']}", ""))
            out.append(f"inline constexpr uint32_t k{p}{camel(r['name'])}{camel(s['name'])} = "
                       f"{reset_lit(s['value'], False)};\n")
    for r in regs:
        if not r.get("fields"):
            continue
        out.append(f"// {r['name']} fields.\n")
        for f in r["fields"]:
            hi, lo = bits_of(f)
            name = f.get("cpp", f"k{p}{camel(r['name'])}{camel(f['name'])}")
            out.append(doc_lines(f"{r['name']}.{f['name']}: {f['desc']}", ""))
            if hi == lo:
                out.append(f"inline constexpr uint32_t {name} = 1u << {lo};\n")
            else:
                out.append(f"inline constexpr unsigned {name}Lsb = {lo}, {name}W = {hi - lo + 1};\n")
    out.append("\n}  // namespace hwprof::model\n")
    return "".join(out)


def md_cell(text):
    return one_line(text).replace("|", "\\|")


def gen_table(u):
    """The Markdown table (without the marker lines)."""
    out = [f"<!-- generated from data/regs/{u['unit']}.json by scripts/regmap.py (make regs); do not edit -->\n",
           "| addr | name | access | reset | meaning |\n", "|---:|---|---|---|---|\n"]
    for r in regs_sorted(u):
        fields = r.get("fields", [])
        access = ACCESS[r["access"]]
        if any(f.get("access") == "rw1c" for f in fields):
            access += " / W1C"
        reset = r.get("reset", "-")
        reset = f"`0x{reset:x}`" if isinstance(reset, int) and reset > 9 and fields else str(reset)
        head = r.get("desc", "" if fields else r["title"])
        parts = []
        for f in fields:
            hi, lo = bits_of(f)
            pos = f"bit {lo}" if hi == lo else f"bits {hi}:{lo}"
            acc = " (W1C)" if f.get("access") == "rw1c" else ""
            parts.append(f"{pos} `{f['name']}`{acc}: {f['desc']}")
        presets = "; ".join(f"`{s['name']}` = `{s['value']}`: {s['desc']}" for s in r.get("presets", []))
        meaning = ". ".join(x for x in (head, "; ".join(parts), presets and f"Presets: {presets}") if x)
        out.append(f"| {r['addr']} | `{r['name']}` | {access} | {md_cell(reset)} | {md_cell(meaning)} |\n")
    return "".join(out)


def regs_sorted(u):
    return sorted(u["registers"], key=lambda r: r["addr"])


def patch_doc(u, text):
    """The doc with the table between the unit's markers replaced."""
    begin, end = f"<!-- regmap:{u['unit']} begin -->\n", f"<!-- regmap:{u['unit']} end -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        sys.exit(f"{u['doc']}: markers '{begin.strip()}' ... '{end}' not found")
    return text[: i + len(begin)] + gen_table(u) + text[j:]


def outputs(u):
    """(path relative to the root, generated text) of every file of one unit."""
    doc = ROOT / u["doc"]
    return [(f"{u['rtl_dir']}/hwprof_{u['unit']}_reg_pkg.sv", gen_sv(u)),
            (f"{u['model_dir']}/{u['unit']}_regs.h", gen_h(u)),
            (u["doc"], patch_doc(u, doc.read_text()))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when a checked-in generated file is stale")
    ap.add_argument("--out", type=Path, help="write under this directory instead of the source tree")
    ap.add_argument("units", nargs="*", help="unit names (default: every data/regs/*.json)")
    a = ap.parse_args()
    files = sorted(DATA.glob("*.json")) if not a.units else [DATA / f"{n}.json" for n in a.units]
    stale = 0
    for path in files:
        for rel, text in outputs(load(path)):
            dst = (a.out or ROOT) / rel
            old = dst.read_text() if dst.exists() else None
            if a.check:
                if old != text:
                    stale += 1
                    print(f"regmap: stale: {rel} differs from what data/regs/{path.name} generates "
                          f"(run `make regs`)")
                    sys.stdout.writelines(difflib.unified_diff((old or "").splitlines(True), text.splitlines(True),
                                                               f"{rel} (checked in)", f"{rel} (generated)", n=1))
            elif old != text:
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(text)
                print(f"regmap: wrote {dst}")
    if a.check:
        print(f"regmap: {stale} stale file(s)" if stale else f"regmap: {len(files)} unit(s) up to date")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
