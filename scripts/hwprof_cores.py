#!/usr/bin/env python3
"""Read the FuseSoC CAPI2 core files under rtl/ and resolve their dependencies.

Every RTL module has a core file beside it (rtl/<unit>/<module>.core, VLNV
hwprof:<unit>:<module without hwprof_>:0.1) that lists its file and the cores
it depends on. FuseSoC reads these files itself (`fusesoc --cores-root rtl run
--no-export --target lint <vlnv>`); this stdlib-only reader gives CMake, the
lint script and the synthesis flow the same answer without FuseSoC or PyYAML:

  hwprof_cores.py list [--target T] [--roots]
                                           cores (with target T; --roots: that
                                           no other core depends on): vlnv, top, file
  hwprof_cores.py files CORE [--target T] [--type vlt] [--abs]
                                           files in compile order, each once
  hwprof_cores.py incdirs CORE             include directories
  hwprof_cores.py params CORE --target T   NAME=VALUE parameters of a target
  hwprof_cores.py cores CORE               the core files CORE pulls in
  hwprof_cores.py check                    read every core file (and, where PyYAML
                                           is installed, compare with its reading)
  hwprof_cores.py verilator CORE [--target T]
                                           Verilator arguments of the target, one a
                                           line: its tools.verilator options (and
                                           --lint-only for mode lint-only), -I dirs,
                                           .vlt files, sources, -G params, --top-module

CORE is a VLNV (with or without version), a top module (hwprof_hpt) or its
short name (hpt). Dependencies come before the core that needs them (a
depth-first walk over the `depend:` lists of the target's filesets; a
dependency contributes its `default` target).

The files are written in a small YAML subset, and this reader rejects
anything outside it: block mappings and block sequences by indentation,
flow sequences `[a, b]` and flow mappings `{k: v}` (nestable), plain or
quoted scalars, `#` comments. No anchors, aliases, merge keys or multi-line
scalars.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORES_ROOT = REPO / "rtl"
SOURCE_TYPES = ("systemVerilogSource", "verilogSource")


class CoreError(Exception):
    pass


# --------------------------------------------------------------------------
# The YAML subset.
# --------------------------------------------------------------------------

def _scalar(text: str, where: str):
    text = text.strip()
    if text[:1] in ("&", "*", "|", ">", "!"):
        raise CoreError(f"{where}: {text[:1]!r} is outside the YAML subset")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text in ("", "~", "null"):
        return None
    if text in ("true", "false"):
        return text == "true"
    return text


def _flow(text: str, where: str):
    """Parse a flow collection or scalar; return (value, rest of text)."""
    text = text.lstrip()
    if text[:1] not in ("[", "{"):
        m = re.match(r"""("[^"]*"|'[^']*'|[^,\]}]*)""", text)
        return _scalar(m.group(1), where), text[m.end():]
    close = "]" if text[0] == "[" else "}"
    items, text = [], text[1:].lstrip()
    while not text.startswith(close):
        if not text:
            raise CoreError(f"{where}: unclosed {close!r}")
        if close == "}":
            key, sep, text = text.partition(":")
            if not sep:
                raise CoreError(f"{where}: expected 'key: value' in a flow mapping")
            value, text = _flow(text, where)
            items.append((_scalar(key, where), value))
        else:
            value, text = _flow(text, where)
            items.append(value)
        text = text.lstrip()
        if text.startswith(","):
            text = text[1:].lstrip()
    return (dict(items) if close == "}" else items), text[1:]


def _value(text: str, where: str):
    if text[:1] not in ("[", "{"):
        return _scalar(text, where)  # block context: commas are plain text
    value, rest = _flow(text, where)
    if rest.strip():
        raise CoreError(f"{where}: unexpected {rest.strip()!r}")
    return value


def _split_key(text: str):
    """'key: value' or 'key:' -> (key, value text); else None."""
    m = re.match(r"""("[^"]*"|'[^']*'|[^\s'"\[{][^:]*?)\s*:(\s|$)""", text)
    if not m:
        return None
    return _scalar(m.group(1), ""), text[m.end():].strip()


def parse_yaml(text: str, name: str = "<core>"):
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.strip():
            if "\t" in line[:len(line) - len(line.lstrip())]:
                raise CoreError(f"{name}:{n}: tab in indentation")
            lines.append((len(line) - len(line.lstrip()), line.strip(),
                          f"{name}:{n}"))
    value, pos = _block(lines, 0, 0)
    if pos != len(lines):
        raise CoreError(f"{lines[pos][2]}: bad indentation")
    return value


def _block(lines, pos, indent):
    """Parse the block starting at lines[pos] with exactly `indent`."""
    is_seq = lines[pos][1].startswith("- ") or lines[pos][1] == "-"
    out: list | dict = [] if is_seq else {}
    while pos < len(lines) and lines[pos][0] == indent:
        _, text, where = lines[pos]
        if is_seq != (text.startswith("- ") or text == "-"):
            raise CoreError(f"{where}: mixed sequence and mapping")
        if is_seq:
            item = text[1:].strip()
            kv = _split_key(item) if item[:1] not in ("[", "{") else None
            if kv is None:
                out.append(_value(item, where) if item else None)
                pos += 1
                if not item:
                    raise CoreError(f"{where}: empty sequence item")
                continue
            # '- key: value' opens a mapping whose further keys are indented
            # to the column after '- '.
            inner = indent + 2 + (len(item) - len(item.lstrip()))
            lines[pos] = (inner, item, where)
            value, pos = _block(lines, pos, inner)
            out.append(value)
            continue
        kv = _split_key(text)
        if kv is None:
            raise CoreError(f"{where}: expected 'key:' or '- item'")
        key, rest = kv
        pos += 1
        if rest:
            out[key] = _value(rest, where)
        elif pos < len(lines) and (lines[pos][0] > indent or (
                lines[pos][0] == indent and lines[pos][1].startswith("-"))):
            out[key], pos = _block(lines, pos, lines[pos][0])
        else:
            out[key] = None
    return out, pos


# --------------------------------------------------------------------------
# Cores.
# --------------------------------------------------------------------------

def vln(vlnv: str) -> str:
    """'>=hwprof:common:pkg:0.1' -> 'hwprof:common:pkg' (version dropped)."""
    parts = re.sub(r"^[<>=^~!]+", "", vlnv.strip()).split(":")
    return ":".join(parts[:3])


class Core:
    def __init__(self, path: Path):
        self.path = path
        self.data = parse_yaml(path.read_text(), str(path.relative_to(REPO)))
        if not isinstance(self.data, dict) or "CAPI=2" not in self.data:
            raise CoreError(f"{path}: not a CAPI=2 core file")
        self.name = vln(self.data.get("name") or "")
        self.filesets = self.data.get("filesets") or {}
        self.targets = self.data.get("targets") or {}

    def target(self, name: str) -> dict:
        if name in self.targets:
            return self.targets[name] or {}
        if "default" in self.targets:
            return self.targets["default"] or {}
        raise CoreError(f"{self.path}: no target {name!r} and no default")

    @property
    def top(self) -> str | None:
        return self.target("default").get("toplevel")

    def params(self, target: str) -> dict[str, str]:
        out = {}
        for item in self.target(target).get("parameters") or []:
            name, _, value = str(item).partition("=")
            if value:
                out[name.strip()] = value.strip()
        return out


class Library:
    """Every *.core file under the cores root, read on demand by name."""

    def __init__(self, root: Path = CORES_ROOT):
        self.paths: dict[str, Path] = {}
        for path in sorted(root.rglob("*.core")):
            m = re.search(r"^name\s*:\s*['\"]?([^\s'\"#]+)", path.read_text(), re.M)
            if m:
                self.paths.setdefault(vln(m.group(1)), path)
        self._cores: dict[str, Core] = {}

    def get(self, name: str) -> Core:
        key = vln(name)
        if key not in self._cores:
            if key not in self.paths:
                raise CoreError(f"no core {name!r} under {CORES_ROOT.relative_to(REPO)}/")
            core = Core(self.paths[key])
            if core.name != key:
                raise CoreError(f"{core.path}: name {core.name!r} is not {key!r}")
            self._cores[key] = core
        return self._cores[key]

    def all(self) -> list[Core]:
        return [self.get(n) for n in self.paths]

    def find(self, what: str) -> Core:
        """A core by VLNV, top module or short name."""
        if vln(what) in self.paths:
            return self.get(what)
        for core in self.all():
            if core.top in (what, f"hwprof_{what}"):
                return core
        raise CoreError(f"no core named or with top {what!r}")

    def walk(self, core: Core, target: str = "default", seen=None, out=None):
        """(core, fileset) pairs in compile order: dependencies first."""
        seen = set() if seen is None else seen
        out = [] if out is None else out
        if (core.name, target) in seen:
            return out
        seen.add((core.name, target))
        for fs_name in core.target(target).get("filesets") or []:
            fs = core.filesets.get(fs_name)
            if fs is None:
                raise CoreError(f"{core.path}: no fileset {fs_name!r}")
            for dep in fs.get("depend") or []:
                self.walk(self.get(dep), "default", seen, out)
            out.append((core, fs))
        return out

    def files(self, core: Core, target: str = "default") -> list[tuple[Path, str, bool]]:
        """(path, file_type, is_include_file) of every file, each once."""
        out, seen = [], set()
        for c, fs in self.walk(core, target):
            for entry in fs.get("files") or []:
                attrs = {}
                if isinstance(entry, dict):
                    (entry, attrs), = entry.items()
                    attrs = attrs or {}
                path = (c.path.parent / entry).resolve()
                if not path.is_file():
                    raise CoreError(f"{c.path}: no such file {entry}")
                if path not in seen:
                    seen.add(path)
                    out.append((path, attrs.get("file_type", fs.get("file_type", "")),
                                bool(attrs.get("is_include_file"))))
        return out

    def sources(self, core: Core, target: str = "default",
                types=SOURCE_TYPES) -> list[Path]:
        return [p for p, t, inc in self.files(core, target) if t in types and not inc]

    def incdirs(self, core: Core, target: str = "default") -> list[Path]:
        return list(dict.fromkeys(p.parent for p, _, inc in self.files(core, target) if inc))

    def core_files(self, core: Core, target: str = "default") -> list[Path]:
        return list(dict.fromkeys(c.path for c, _ in self.walk(core, target)))

    def roots(self, target: str) -> list[Core]:
        cores = [c for c in self.all() if target in c.targets]
        used = {c.name for core in cores for c, _ in self.walk(core, target)
                if c is not core}
        return [c for c in cores if c.name not in used]

    def verilator_args(self, core: Core, target: str) -> list[str]:
        tool = (core.target(target).get("tools") or {}).get("verilator") or {}
        args = ["--lint-only"] if tool.get("mode") == "lint-only" else []
        args += [str(o) for o in tool.get("verilator_options") or []]
        args += [f"-I{rel(d, False)}" for d in self.incdirs(core, target)]
        args += [rel(p, False) for p in self.sources(core, target, ("vlt",))]
        args += [rel(p, False) for p in self.sources(core, target)]
        args += [f"-G{k}={v}" for k, v in core.params(target).items()]
        return args + ["--top-module", core.top]


def rel(path: Path, absolute: bool) -> str:
    return str(path if absolute else path.relative_to(REPO))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["list", "files", "incdirs", "params", "cores",
                                        "verilator", "check"])
    ap.add_argument("core", nargs="?", help="VLNV, top module or short name")
    ap.add_argument("--target", default="default")
    ap.add_argument("--type", action="append", metavar="FILE_TYPE",
                    help="file types to list (default: SystemVerilog/Verilog sources)")
    ap.add_argument("--abs", action="store_true", help="absolute paths")
    ap.add_argument("--roots", action="store_true",
                    help="list: only cores no other core depends on")
    args = ap.parse_args(argv)
    lib = Library()
    if args.command == "check":
        try:
            import yaml
        except ImportError:
            yaml = None
        for core in lib.all():
            if yaml and yaml.safe_load(core.path.read_text()) != core.data:
                raise CoreError(f"{rel(core.path, False)}: PyYAML reads it otherwise")
            for target in core.targets:
                lib.files(core, target)
        print(f"{len(lib.paths)} core files read"
              + (", same as PyYAML" if yaml else ""))
        return 0
    if args.command == "list":
        for core in lib.roots(args.target) if args.roots else lib.all():
            if args.target == "default" or args.target in core.targets:
                print(f"{core.name}\t{core.top or '-'}\t{rel(core.path, args.abs)}")
        return 0
    if not args.core:
        ap.error(f"{args.command} needs a CORE")
    core = lib.find(args.core)
    if args.command == "files":
        paths = lib.sources(core, args.target, tuple(args.type or SOURCE_TYPES))
    elif args.command == "incdirs":
        paths = lib.incdirs(core, args.target)
    elif args.command == "cores":
        paths = lib.core_files(core, args.target)
    elif args.command == "verilator":
        print("\n".join(lib.verilator_args(core, args.target)))
        return 0
    else:
        for name, value in core.params(args.target).items():
            print(f"{name}={value}")
        return 0
    for p in paths:
        print(rel(p, args.abs))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CoreError as e:
        print(f"hwprof_cores.py: {e}", file=sys.stderr)
        sys.exit(1)
