#!/usr/bin/env python3
"""make wave-diff A=run1.fst B=run2.fst [OUT=prefix]: compare two waveforms.

Compares every signal present in both runs (by GTKWave name), value by
value, and reports the first time at which any signal differs (and which),
then the signals that differ at all and those present in one run only.
Writes OUT.fst with both runs side by side (a.* = A, b.* = B) and OUT.gtkw:
the differing signals as a/b pairs, a marker at the first difference.
Exit status: 0 same, 1 different, 2 error. Reads FST through fst2vcd and
writes through vcd2fst (both ship with GTKWave). docs/debugging.md.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wavelib  # noqa: E402


def norm(v, other):
    """v padded to the width of the wider of the two (widths may differ
    between runs: the comparison signals are as wide as their values)."""
    if v is None or other is None or len(v) >= len(other):
        return v
    return v.rjust(len(other), v[0] if v[0] in "xz" else "0")


def first_diff(ca, cb):
    """First time at which the two change lists give different values, or None."""
    i = j = 0
    va = vb = None
    while i < len(ca) or j < len(cb):
        ta = ca[i][0] if i < len(ca) else None
        tb = cb[j][0] if j < len(cb) else None
        t = min(x for x in (ta, tb) if x is not None)
        while i < len(ca) and ca[i][0] == t:
            va = ca[i][1]
            i += 1
        while j < len(cb) and cb[j][0] == t:
            vb = cb[j][1]
            j += 1
        if norm(va, vb) != norm(vb, va):
            return t, va, vb
    return None


def vcd_id(n):
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 94)
        s += chr(33 + r)
    return s


def write_merged(out_vcd, runs):
    """runs: [(scope, vars, changes)] -> one VCD with each run under its scope."""
    events = []
    with open(out_vcd, "w") as o:
        o.write("$timescale 1ps $end\n")
        k = 0
        for scope, vars_, ch in runs:
            o.write(f"$scope module {scope} $end\n")
            cur = []
            seen = {}
            for v in vars_:
                parts = v.name.split(".")
                path, leaf = parts[:-1], parts[-1]
                # names like x[3][7:0]: VCD wants "x[3] [7:0]"
                rng = ""
                if leaf.endswith("]") and ":" in leaf[leaf.rfind("["):]:
                    rng = " " + leaf[leaf.rfind("["):]
                    leaf = leaf[: leaf.rfind("[")]
                n = 0
                while n < len(cur) and n < len(path) and cur[n] == path[n]:
                    n += 1
                for _ in range(len(cur) - n):
                    o.write("$upscope $end\n")
                cur = cur[:n]
                for p in path[n:]:
                    o.write(f"$scope module {p} $end\n")
                    cur.append(p)
                if v.code not in seen:
                    seen[v.code] = vcd_id(k)
                    k += 1
                    for t, val in ch.get(v.code, []):
                        events.append((t, seen[v.code], val, v.width))
                o.write(f"$var wire {v.width} {seen[v.code]} {leaf}{rng} $end\n")
            for _ in cur:
                o.write("$upscope $end\n")
            o.write("$upscope $end\n")
        o.write("$enddefinitions $end\n")
        events.sort(key=lambda e: e[0])
        t = None
        for tm, code, val, w in events:
            if tm != t:
                o.write(f"#{tm}\n")
                t = tm
            if w == 1 and len(val) == 1:
                o.write(f"{val}{code}\n")
            else:
                o.write(f"b{val} {code}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--out", help="prefix of the side-by-side FST and layout (default: <A without .fst>.diff)")
    ap.add_argument("--max", type=int, default=20, help="differing signals listed")
    ap.add_argument("--ignore", action="append", default=[], help="skip signals whose name contains this")
    args = ap.parse_args()
    for f in (args.a, args.b):
        if not os.path.exists(f):
            print(f"wave-diff: no such file: {f}", file=sys.stderr)
            return 2
    va, ca = wavelib.read(args.a)
    vb, cb = wavelib.read(args.b)
    # Signals are matched by name without their range (a width may change).
    amap = {wavelib.base_name(v.name): v for v in va}
    bmap = {wavelib.base_name(v.name): v for v in vb}
    common = [n for n in amap if n in bmap and not any(s in n for s in args.ignore)]
    only_a = [amap[n].name for n in amap if n not in bmap]
    only_b = [bmap[n].name for n in bmap if n not in amap]
    diffs = []
    for n in common:
        d = first_diff(ca.get(amap[n].code, []), cb.get(bmap[n].code, []))
        if d:
            diffs.append((d[0], n, d[1], d[2]))
    diffs.sort(key=lambda d: d[0])
    print(f"wave-diff: A = {args.a} ({len(va)} signals)\n           B = {args.b} ({len(vb)} signals)")
    print(f"  {len(common)} signals in both, {len(only_a)} only in A, {len(only_b)} only in B")
    for n in only_a[: args.max]:
        print(f"  only in A: {n}")
    for n in only_b[: args.max]:
        print(f"  only in B: {n}")
    if not diffs:
        print("  no difference in the common signals")
    else:
        t0 = diffs[0][0]
        at = [d for d in diffs if d[0] == t0]
        cyc = f" (harness cycle {t0 // 10}{', after the edge' if t0 % 10 else ''})" if t0 % 5 == 0 else ""
        print(f"  first difference at time {t0}{cyc}: {len(at)} signal(s)")
        for _, n, a, b in at[: args.max]:
            print(f"    {n}: A={a} B={b}")
        print(f"  {len(diffs)} signal(s) differ somewhere; first difference of each, by time:")
        for t, n, a, b in diffs[: args.max]:
            print(f"    {t:>10}  {n}: A={a} B={b}")
    out = args.out or (args.a[:-4] if args.a.endswith(".fst") else args.a) + ".diff"
    with tempfile.TemporaryDirectory() as td:
        vcd = os.path.join(td, "m.vcd")
        write_merged(vcd, [("a", va, ca), ("b", vb, cb)])
        r = subprocess.run(["vcd2fst", vcd, out + ".fst"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print(f"wave-diff: vcd2fst failed: {r.stderr}", file=sys.stderr)
            return 2
    shown = [d[1] for d in diffs[:60]] or common[:40]
    with open(out + ".gtkw", "w") as g:
        g.write(f"[*] hwprof wave-diff: a.* = {args.a}, b.* = {args.b}\n")
        g.write(f"[dumpfile] \"{os.path.abspath(out + '.fst')}\"\n")
        if diffs:
            t0 = diffs[0][0]
            g.write(f"[timestart] {max(0, t0 - 200)}\n")
            g.write(f"*-3.000000 {t0}" + " -1" * 26 + "\n")
        for n in shown:
            w = amap[n].width
            g.write("@200\n-" + n + ("  (differs)" if diffs else "") + "\n")
            g.write(("@22\n" if w > 1 else "@28\n") + f"a.{amap[n].name}\nb.{bmap[n].name}\n")
    print(f"  both runs side by side: {out}.fst (a.* = A, b.* = B)")
    print(f"  gtkwave -a {out}.gtkw {out}.fst")
    return 1 if diffs or only_a or only_b else 0


if __name__ == "__main__":
    sys.exit(main())
