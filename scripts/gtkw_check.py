#!/usr/bin/env python3
"""Checks GTKWave layouts against a waveform, or drafts a layout from one.

  gtkw_check.py check WAVE.fst LAYOUT.gtkw...   every signal a layout names
                                                 exists in WAVE (exit 1 if not)
  gtkw_check.py draft WAVE.fst SCOPE [TITLE]    a layout of SCOPE's own
                                                 signals: clock/reset, inputs,
                                                 outputs, registers (_q)

A layout signal "x[7:0]" also matches a variable "x" of the same scope with
no range and vice versa (GTKWave accepts both). docs/debugging.md.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavelib  # noqa: E402


def check(fst, layouts):
    have = set(wavelib.signals(fst))
    bases = {wavelib.base_name(n) for n in have}
    bad = 0
    for g in layouts:
        missing = [s for s in wavelib.layout_signals(g) if s not in have and wavelib.base_name(s) not in bases]
        n = len(wavelib.layout_signals(g))
        if missing:
            bad += 1
            print(f"{g}: {len(missing)} of {n} signals missing from {fst}:")
            for s in missing[:40]:
                print(f"  {s}")
        else:
            print(f"{g}: all {n} signals present in {fst}")
    return 1 if bad else 0


def draft(fst, scope, title):
    names = [n for n in wavelib.signals(fst) if n.startswith(scope + ".") and "." not in n[len(scope) + 1 :].split("[")[0]]
    leaf = lambda n: wavelib.base_name(n[len(scope) + 1 :])  # noqa: E731
    wide = lambda n: n.endswith("]") and ":" in n[n.rfind("[") :]  # noqa: E731
    groups = [
        ("clock, reset", [n for n in names if leaf(n) in ("clk_i", "rst_ni")]),
        ("inputs", [n for n in names if leaf(n).endswith("_i") and leaf(n) not in ("clk_i", "rst_ni")]),
        ("outputs", [n for n in names if leaf(n).endswith("_o")]),
        ("registers", [n for n in names if leaf(n).endswith("_q") or "_q[" in leaf(n)]),
    ]
    print(f"[*] hwprof: saved GTKWave layout for {title or scope} (make wave TEST=...)")
    print("[timestart] 0")
    for g, ns in groups:
        if not ns:
            continue
        print(f"@200\n-{g}")
        fmt = None
        for n in ns:
            f = "@22" if wide(n) else "@28"
            if f != fmt:
                print(f)
                fmt = f
            print(n)
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        return check(sys.argv[2], sys.argv[3:])
    if len(sys.argv) >= 4 and sys.argv[1] == "draft":
        return draft(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
