#!/usr/bin/env python3
"""make coverage: merges the Verilator coverage files the lock-step tests
wrote (HWPROF_COVERAGE_DIR, sim/rtl_harness.h) and writes, under --out:

  summary.md    per RTL module and per core: line (block) coverage, toggle
                coverage, cover points hit; the uncovered lines with their
                source, marked when scripts/coverage_waivers.txt gives a reason
  summary.json  the same numbers
  merged.dat    every count (verilator_coverage format)
  coverage.info lcov tracefile (verilator_coverage --write-info) and html/
                (genhtml, when lcov is installed: make deps-coverage)
  annotated/    the sources with counts (verilator_coverage --annotate)

  scripts/coverage.py DATDIR [--out DIR] [--ctest-log FILE] [--min-line 95]

A point counts as covered when any instance of the module in any
configuration hit it. Exit status 1 when a core's line coverage, waived
lines counted as covered, is below --min-line (the issue 18 target), or when
no coverage file was found.
"""
import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIVERS = ROOT / "scripts" / "coverage_waivers.txt"


def parse_dat(path, points):
    """Adds the counts of one .dat file to points[(file, line, kind, comment, bit)]."""
    with open(path, "rb") as f:
        for raw in f:
            if not raw.startswith(b"C '"):
                continue
            ln = raw.decode("utf-8", "replace").rstrip("\n")
            q = ln.rfind("'")
            body, count = ln[3:q], int(ln[q + 1:].strip())
            kv = {}
            for item in body.split("\x01"):
                if "\x02" in item:
                    k, v = item.split("\x02", 1)
                    kv[k] = v
            page = kv.get("page", "")
            kind = page.split("/")[0]
            fname = kv.get("f", "?")
            line = int(kv.get("l", "0") or 0)
            comment = kv.get("o", "")
            key = (fname, line, kind, comment, kv.get("n", ""), kv.get("S", ""))
            points[key] = points.get(key, 0) + count


def span_lines(line, spec):
    """Lines a block point covers: 'S' holds ranges like '12-14,17'."""
    if not spec:
        return [line]
    out = []
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-", 1)
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out or [line]


def load_waivers():
    w = {}
    if WAIVERS.exists():
        for ln in WAIVERS.read_text().splitlines():
            ln = ln.strip()
            if not ln or ln.startswith("#"):
                continue
            m = re.match(r"(\S+):(\d+)\s+(.*)", ln)
            if m:
                w[(m.group(1), int(m.group(2)))] = m.group(3)
    return w


def core_of(rel):
    parts = Path(rel).parts
    return parts[1] if len(parts) > 2 and parts[0] == "rtl" else "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datdir")
    ap.add_argument("--out", default=str(ROOT / "build" / "coverage"))
    ap.add_argument("--ctest-log", default="")
    ap.add_argument("--min-line", type=float, default=95.0)
    a = ap.parse_args()
    dats = sorted(Path(a.datdir).glob("*.dat"))
    if not dats:
        sys.exit(f"coverage: no .dat file in {a.datdir} (did the tests run with HWPROF_COVERAGE_DIR?)")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    points = {}
    for d in dats:
        parse_dat(d, points)

    # Merged .dat, lcov info, annotation, html (Verilator's own tools).
    merged = out / "merged.dat"
    lst = out / "dat-files.txt"
    batch, parts = 400, []
    for i in range(0, len(dats), batch):
        part = out / f"merged-{i // batch}.dat"
        subprocess.run(["verilator_coverage", "-write", str(part)] + [str(x) for x in dats[i:i + batch]],
                       check=True, capture_output=True)
        parts.append(part)
    subprocess.run(["verilator_coverage", "-write", str(merged)] + [str(p) for p in parts],
                   check=True, capture_output=True)
    for p in parts:
        p.unlink()
    lst.write_text("".join(f"{d}\n" for d in dats))
    info = out / "coverage.info"
    subprocess.run(["verilator_coverage", "-write-info", str(info), str(merged)], check=False, capture_output=True)
    ann = out / "annotated"
    shutil.rmtree(ann, ignore_errors=True)
    subprocess.run(["verilator_coverage", "--annotate", str(ann), "--annotate-min", "1", str(merged)],
                   check=False, capture_output=True)
    html = None
    if shutil.which("genhtml") and info.exists():
        r = subprocess.run(["genhtml", "-q", "-o", str(out / "html"), str(info)], capture_output=True, text=True)
        html = out / "html" / "index.html" if r.returncode == 0 else None

    waivers = load_waivers()
    per = collections.defaultdict(lambda: {"line": [0, 0], "toggle": [0, 0], "user": [0, 0],
                                           "uncovered": {}, "waived": {}, "cover_missed": []})
    # Collapse points to (file, kind, identity): covered if any instance hit.
    for (fname, line, kind, comment, n, spec), cnt in points.items():
        try:
            rel = str(Path(fname).resolve().relative_to(ROOT))
        except ValueError:
            rel = fname
        if not rel.startswith("rtl/"):
            continue
        k = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle", "v_user": "user"}.get(kind)
        if k is None:
            continue
        ent = per[rel]
        ent[k][1] += 1
        if cnt > 0:
            ent[k][0] += 1
        elif k == "line":
            for l in span_lines(line, spec):
                if (rel, l) in waivers:
                    ent["waived"][l] = waivers[(rel, l)]
                else:
                    ent["uncovered"].setdefault(l, comment)
        elif k == "user":
            ent["cover_missed"].append(f"{line}:{comment}")

    def pct(c):
        return 100.0 * c[0] / c[1] if c[1] else None

    def fmt(c):
        p = pct(c)
        return "-" if p is None else f"{p:.1f}% ({c[0]}/{c[1]})"

    cores = collections.defaultdict(lambda: {"line": [0, 0], "toggle": [0, 0], "user": [0, 0], "waived": 0})
    for rel, e in per.items():
        c = cores[core_of(rel)]
        for k in ("line", "toggle", "user"):
            c[k][0] += e[k][0]
            c[k][1] += e[k][1]
        # Waived points count as covered for the target.
        nw = sum(1 for _ in e["waived"])
        c["waived"] += nw

    tests = ""
    if a.ctest_log and Path(a.ctest_log).exists():
        m = re.search(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", Path(a.ctest_log).read_text())
        if m:
            tests = f"{int(m.group(3)) - int(m.group(2))} of {m.group(3)} tests passed"
    lines = ["# RTL coverage under the lock-step tests (make coverage)", "",
             f"{len(dats)} coverage files merged" + (f"; {tests}" if tests else "") +
             ". Line = Verilator block coverage (every statement block, branch arm and case item);"
             " toggle = every bit of the signals the build instruments (HWPROF_COVERAGE_TOGGLE_W) changed at least once;"
             " cover = HWPROF_COVER points hit. A point counts once per module, hit in any configuration.", "",
             "## Per core", "", "| core | line | line with waivers | toggle | cover points |", "|---|---|---|---|---|"]
    bad = []
    for core in sorted(cores):
        c = cores[core]
        lw = [min(c["line"][0] + c["waived"], c["line"][1]), c["line"][1]]
        lines.append(f"| {core} | {fmt(c['line'])} | {fmt(lw)} | {fmt(c['toggle'])} | {fmt(c['user'])} |")
        if pct(lw) is not None and pct(lw) < a.min_line:
            bad.append(f"{core}: line coverage {pct(lw):.1f}% < {a.min_line}%")
    lines += ["", "## Per module", "", "| module | line | toggle | cover points | uncovered lines |", "|---|---|---|---|---|"]
    for rel in sorted(per):
        e = per[rel]
        unc = ", ".join(str(l) for l in sorted(e["uncovered"]))
        lines.append(f"| {Path(rel).stem} | {fmt(e['line'])} | {fmt(e['toggle'])} | {fmt(e['user'])} | {unc or '-'} |")
    lines += ["", "## Uncovered lines", ""]
    for rel in sorted(per):
        e = per[rel]
        if not e["uncovered"] and not e["waived"] and not e["cover_missed"]:
            continue
        src = (ROOT / rel).read_text().splitlines() if (ROOT / rel).exists() else []
        lines.append(f"### {rel}")
        lines.append("")
        for l in sorted(e["uncovered"]):
            text = src[l - 1].strip() if 0 < l <= len(src) else ""
            lines.append(f"- {l}: `{text}`")
        for l in sorted(e["waived"]):
            text = src[l - 1].strip() if 0 < l <= len(src) else ""
            lines.append(f"- {l} (waived: {e['waived'][l]}): `{text}`")
        for c in e["cover_missed"]:
            lines.append(f"- cover point not reached: {c}")
        lines.append("")
    if html:
        lines.append(f"HTML report: {html}")
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    (out / "summary.json").write_text(json.dumps(
        {"files": len(dats), "tests": tests,
         "cores": {k: {kk: v[kk] for kk in ("line", "toggle", "user", "waived")} for k, v in cores.items()},
         "modules": {r: {"line": e["line"], "toggle": e["toggle"], "user": e["user"],
                         "uncovered": sorted(e["uncovered"]), "waived": sorted(e["waived"])}
                     for r, e in per.items()}}, indent=1))
    print("\n".join(lines[:12 + len(cores)]))
    print(f"\ncoverage: {out / 'summary.md'}")
    if bad:
        print("coverage: below target:\n  " + "\n  ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
