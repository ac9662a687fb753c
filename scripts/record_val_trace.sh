#!/usr/bin/env bash
# Records the shipped value-stream trace tests/traces/val/gzip_mem.hwpt.zst:
# the data addresses of every memory access of the same gzip run as the
# shipped code trace (scripts/trace_programs.sh: `gzip -6 -n -c GPL-2` from
# tests/traces/inputs/, same fixed environment as scripts/record_traces.sh),
# as `val` records for the RAP value source (`hwprof profile --unit rap
# --source val`, docs/rap.md; paper 001 profiles address streams too).
#
# usage: scripts/record_val_trace.sh [--pc] [HWPROF] [MAX_ACCESSES]
#   --pc          record the code x data trace tests/traces/val/gzip_pcmem.hwpt.zst
#                 instead (2-D RAP, docs/rap2d.md): one `val ADDR 1 PC` per
#                 access, PC = the address of the instruction that made it
#                 (lackey's preceding `I` line), ADDR and PC in full 64 bits
#   HWPROF        the hwprof binary (default: $HWPROF, else build/host/cli/hwprof)
#   MAX_ACCESSES  keep at most the first N accesses (default 2000000; the
#                 whole gzip run has about 0.96 M, so the default keeps all)
#
# What is recorded: valgrind's lackey (`--tool=lackey --trace-mem=yes`) prints
# one line per data access of the guest program, in program order:
# ` L addr,size` (load), ` S addr,size` (store), ` M addr,size` (modify: a
# read-modify-write by one instruction, e.g. `add [mem], r`). Loads AND
# stores are both kept; each lackey line becomes exactly one record
# `val <low 32 bits of addr> 1` (an M is one access, weight 1, not two; the
# access size is dropped). Instruction fetches (`I` lines) are not recorded.
# The accesses include the dynamic loader's start-up (ld.so relocating gzip
# and libc), as in the code trace. Addresses are valgrind's layout (PIE gzip
# near 0x108000, ld.so near 0x4000000, stack near 0x1fff000000 -> low 32 bits
# 0xff000000), not qemu's: the two traces are of the same program and input,
# not address-compatible.
#
# The text records are converted with the project's own writer
# (`hwprof trace convert`, docs/formats.md) and validated. valgrind runs gzip
# natively and deterministically (no ASLR under valgrind, env -i), so a rerun
# with the same package versions gives the same file; the script prints the
# versions. valgrind is in `make deps` (Makefile APT_PACKAGES).
# With --pc, lackey's `I addr,size` lines (one per executed instruction, each
# before that instruction's data lines) give the pc of the accesses after
# them; both addresses are kept whole (the 2-D tree folds them to its K bits).
set -euo pipefail

pcmode=0
if [[ ${1:-} == --pc ]]; then
  pcmode=1
  shift
fi
root=$(cd "$(dirname "$0")/.." && pwd)
hwprof=${HWPROF:-$root/build/host/cli/hwprof}
if [[ $# -gt 0 && -f $1 ]]; then
  hwprof=$1
  shift
fi
max=${1:-2000000}
[[ $max =~ ^[0-9]+$ && $max -gt 0 ]] || { echo "record_val_trace.sh: MAX_ACCESSES must be a positive integer: $max" >&2; exit 2; }
[[ -x $hwprof ]] || { echo "record_val_trace.sh: hwprof binary not found: $hwprof (build first or pass its path)" >&2; exit 2; }
for tool in valgrind gzip awk; do
  command -v "$tool" >/dev/null || { echo "record_val_trace.sh: $tool is not installed (make deps)" >&2; exit 2; }
done

inputs=$root/tests/traces/inputs
outdir=$root/tests/traces/val
out=$outdir/gzip_mem.hwpt.zst
name=gzip_mem
if [[ $pcmode -eq 1 ]]; then
  out=$outdir/gzip_pcmem.hwpt.zst
  name=gzip_pcmem
fi
mkdir -p "$outdir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/record_val.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

base_env=(env -i PATH=/usr/bin:/bin LANG=C LC_ALL=C HOME=/nonexistent TERM=dumb)
prog=(/usr/bin/gzip -6 -n -c GPL-2)   # as run_trace_program gzip (scripts/trace_programs.sh)

echo "== $name: valgrind --tool=lackey --trace-mem=yes ${prog[*]} (first $max data accesses)" >&2
# lackey writes to fd 3 (a file), the program's stdout goes to /dev/null and
# its stderr to a file, as in record_traces.sh.
# --pc adds -v -v: valgrind then logs each object it loads ("Reading syms
# from FILE" and "svma S, avma A": load bias A - S) into the same fd; awk skips
# those lines and the load map below is built from them.
vflags=()
[[ $pcmode -eq 1 ]] && vflags=(-v -v)
status=0
(
  cd "$inputs"
  "${base_env[@]}" valgrind "${vflags[@]}" --tool=lackey --trace-mem=yes --log-fd=3 "${prog[@]}" \
    < /dev/null > /dev/null 2> "$tmp/stderr" 3> "$tmp/lackey"
) || status=$?
[[ $status -eq 0 ]] || { cat "$tmp/stderr" >&2; echo "record_val_trace.sh: valgrind run failed (status $status)" >&2; exit 1; }

# lackey data lines are exactly " L addr,size", " S ...", " M ..." (one
# leading space); anything else (I lines, ==pid== messages) is skipped.
awk -v max="$max" -v pcmode="$pcmode" '
  BEGIN { print "#hwprof-trace v1 isa=x86_64"
          if (pcmode) print "# gzip -6 -n -c GPL-2: data address, weight 1, instruction address of every load, store, modify (valgrind lackey)"
          else print "# gzip -6 -n -c GPL-2: data addresses (loads, stores, modifies; low 32 bits) from valgrind lackey"
          pc = "" }
  /^I  [0-9a-fA-F]+,[0-9]+$/ { pc = substr($2, 1, index($2, ",") - 1); next }
  /^ [LSM] [0-9a-fA-F]+,[0-9]+$/ {
    a = substr($2, 1, index($2, ",") - 1)
    if (pcmode) {
      if (pc == "") { print "record_val_trace.sh: a data access before any instruction" > "/dev/stderr"; exit 1 }
      print "val " a " 1 " pc
    } else {
      if (length(a) > 8) a = substr(a, length(a) - 7)
      print "val " a " 1"
    }
    kind[$1]++
    if (++n >= max) exit
  }
  END { printf "accesses kept: %d (L %d, S %d, M %d)\n", n, kind["L"], kind["S"], kind["M"] > "/dev/stderr" }
' "$tmp/lackey" > "$tmp/$name.trace"

"$hwprof" -q trace convert "$tmp/$name.trace" "$out"
"$hwprof" trace validate "$out"
if [[ $pcmode -eq 1 ]]; then
  # Load map (docs/recorder.md, "Load map") of the valgrind run, so the code
  # axis of `hwprof profile --unit rap2d` can be named: every object valgrind
  # read symbols from (its own tool and preload objects excluded), its bias,
  # entry and PT_LOAD ranges from readelf.
  command -v readelf >/dev/null || { echo "record_val_trace.sh: readelf is not installed (binutils)" >&2; exit 2; }
  python3 - "$tmp/lackey" "$out.map" "$(basename "$out")" "${prog[@]}" <<'PY'
import json, re, subprocess, sys
log, outp, tname, argv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
objs, cur = [], None
for line in open(log, errors="replace"):
    m = re.match(r"--\d+-- Reading syms from (\S+)", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"--\d+--\s+svma 0x([0-9a-f]+), avma 0x([0-9a-f]+)", line)
    if m and cur:
        if not cur.startswith("/usr/libexec/valgrind/") and cur not in [o[0] for o in objs]:
            objs.append((cur, int(m.group(2), 16) - int(m.group(1), 16)))
        cur = None
def readelf(flag, path):
    return subprocess.run(["readelf", flag, "-W", path], capture_output=True, text=True, check=True).stdout
out = []
for i, (path, bias) in enumerate(objs):
    hdr = readelf("-h", path)
    entry = int(re.search(r"Entry point address:\s+0x([0-9a-f]+)", hdr).group(1), 16)
    etype = "DYN" if "DYN" in re.search(r"Type:\s+(\S+)", hdr).group(1) else "EXEC"
    bid = re.search(r"Build ID: ([0-9a-f]+)", readelf("-n", path))
    ranges = []
    for l in readelf("-l", path).splitlines():
        f = l.split()
        if not f or f[0] != "LOAD":
            continue
        off, va, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
        fl = "".join(f[6:-1])
        prot = ("r" if "R" in fl else "-") + ("w" if "W" in fl else "-") + ("x" if "E" in fl else "-")
        lo, hi = va & ~0xfff, (va + memsz + 0xfff) & ~0xfff
        ranges.append({"start": hex(lo + bias), "end": hex(hi + bias), "offset": hex(off & ~0xfff),
                       "vaddr": hex(lo), "prot": prot})
    role = "main" if i == 0 else ("interp" if "/ld-linux" in path else "lib")
    out.append({"path": path, "host_path": path, "role": role, "elf_type": etype,
                "build_id": bid.group(1) if bid else "", "bias": hex(bias), "entry": hex(entry + bias),
                "loaded_at": 0, "insns": 0, "ranges": ranges})
m = {"format": "hwprof-loadmap", "version": 1, "isa": "x86_64", "trace": tname, "argv": argv,
     "qemu": "none (valgrind lackey run; biases from valgrind -v -v)", "page_size": 4096,
     "instructions": 0, "unmapped_insns": 0, "objects": out,
     "notes": ["written by scripts/record_val_trace.sh --pc from valgrind's symbol-loading log, not by hwprof record"]}
with open(outp, "w") as f:
    json.dump(m, f, indent=1, sort_keys=True)
    f.write("\n")
print(f"{outp}: {len(out)} objects: " + ", ".join(f"{o['path']} bias {o['bias']}" for o in out), file=sys.stderr)
PY
fi
"$hwprof" trace info "$out" >&2
pkgver() { dpkg-query -W -f='${Package} ${Version}' "$1" 2>/dev/null || echo "$1 (not a Debian package?)"; }
echo "Versions: $(valgrind --version); $(pkgver gzip); $(pkgver libc6)" >&2
echo "$out: $(stat -c %s "$out") bytes" >&2
