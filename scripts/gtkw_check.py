#!/usr/bin/env python3
"""Checks GTKWave layouts against a waveform, or drafts a layout from one.

  gtkw_check.py check WAVE.fst LAYOUT.gtkw...   every signal a layout names
                                                 exists in WAVE (exit 1 if not)
  gtkw_check.py draft WAVE.fst SCOPE [TITLE [SUB...]]
                                                a layout of SCOPE's own
                                                 signals: clock/reset, inputs,
                                                 outputs, registers (_q); then
                                                 each SUB instance's outputs
                                                 and registers

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


def draft(fst, scope, title, subs=()):
    allnames = wavelib.signals(fst)
    wide = lambda n: n.endswith("]") and ":" in n[n.rfind("[") :]  # noqa: E731

    def own(sc):
        return [n for n in allnames if n.startswith(sc + ".") and "." not in n[len(sc) + 1 :].split("[")[0]]

    def leaf(sc, n):
        return wavelib.base_name(n[len(sc) + 1 :])

    out = [f"[*] hwprof: saved GTKWave layout for {title or scope} (make wave TEST=...; drafted by",
           "[*] scripts/gtkw_check.py draft, kept valid by the wave.layouts test)", "[timestart] 0"]

    def emit(group, ns):
        if not ns:
            return
        out.append(f"@200\n-{group}")
        fmt = None
        for n in ns:
            f = "@22" if wide(n) else "@28"
            if f != fmt:
                out.append(f)
                fmt = f
            out.append(n)

    names = own(scope)
    emit("clock, reset", [n for n in names if leaf(scope, n) in ("clk_i", "rst_ni")])
    emit("inputs", [n for n in names if leaf(scope, n).endswith("_i") and leaf(scope, n) not in ("clk_i", "rst_ni")])
    emit("outputs", [n for n in names if leaf(scope, n).endswith("_o")])
    emit("registers", [n for n in names if leaf(scope, n).endswith("_q")])
    for sub in subs:
        sc = scope + "." + sub
        ns = own(sc)
        emit(f"{sub}: outputs", [n for n in ns if leaf(sc, n).endswith("_o")])
        emit(f"{sub}: registers", [n for n in ns if leaf(sc, n).endswith("_q")])
    print("\n".join(out))
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        return check(sys.argv[2], sys.argv[3:])
    if len(sys.argv) >= 4 and sys.argv[1] == "draft":
        return draft(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "", sys.argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
