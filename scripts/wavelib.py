"""Reading FST waveforms through GTKWave's fst2vcd, and GTKWave layouts (.gtkw).

Names are GTKWave's: scope path, '.', the variable name with its range and
no space ("top.hwprof_hpt.in_start_i[31:0]", "rtl.dump.set[6:0]").
"""

import re
import subprocess


class Var:
    __slots__ = ("name", "width", "code")

    def __init__(self, name, width, code):
        self.name, self.width, self.code = name, width, code


def _vcd_text(fst, header_only=False):
    p = subprocess.Popen(["fst2vcd", "-f", fst], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in p.stdout:
            yield line
            if header_only and line.startswith("$enddefinitions"):
                break
    finally:
        p.stdout.close()
        p.kill() if header_only else None
        p.wait()


def _header(lines):
    """Variables (in declaration order) from VCD header lines."""
    scope, out = [], []
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            # $var wire 32 ! name [31:0] $end   (the range is optional)
            width, code = int(t[2]), t[3]
            name = "".join(t[4:-1])
            out.append(Var(".".join(scope + [name]), width, code))
        elif t[0] == "$enddefinitions":
            break
    return out


def signals(fst):
    """Every variable's GTKWave name in an FST (reads the header only)."""
    return [v.name for v in _header(_vcd_text(fst, header_only=True))]


def base_name(name):
    """The name without a trailing bit range: "a.b[3][7:0]" -> "a.b[3]"."""
    return re.sub(r"\[\d+:\d+\]$", "", name)


def read(fst):
    """(vars, changes): changes[code] = [(time, value), ...] with vector
    values zero-extended ('x'/'z' extended) to the variable's width."""
    lines = _vcd_text(fst)
    hdr = []
    for line in lines:
        hdr.append(line)
        if line.startswith("$enddefinitions"):
            break
    vars_ = _header(hdr)
    width = {v.code: v.width for v in vars_}
    ch = {v.code: [] for v in vars_}
    t = 0
    for line in lines:
        if not line or line[0] == "$":
            continue
        c = line[0]
        if c == "#":
            t = int(line[1:])
        elif c in "01xzXZ":
            code = line[1:].strip()
            if code in ch:
                ch[code].append((t, c.lower() * 1))
        elif c in "bB":
            val, code = line[1:].split()
            w = width.get(code, len(val))
            val = val.lower()
            pad = val[0] if val[0] in "xz" else "0"
            ch.setdefault(code, []).append((t, val.rjust(w, pad)))
        elif c in "rR":
            val, code = line[1:].split()
            ch.setdefault(code, []).append((t, val))
    for code, l in ch.items():
        # keep the last value per time, drop repeats
        o = []
        for tv in l:
            if o and o[-1][0] == tv[0]:
                o[-1] = tv
            elif not o or o[-1][1] != tv[1]:
                o.append(tv)
        ch[code] = o
    return vars_, ch


def layout_signals(gtkw):
    """The signal names a .gtkw layout names (no comments, groups, settings)."""
    out = []
    for line in open(gtkw):
        s = line.strip()
        if not s or s[0] in "[*@-#":
            continue
        if s.startswith("+{"):  # +{alias} signal
            s = s[s.index("}") + 1 :].strip()
        out.append(s)
    return out
