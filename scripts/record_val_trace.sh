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
status=0
(
  cd "$inputs"
  "${base_env[@]}" valgrind --tool=lackey --trace-mem=yes --log-fd=3 "${prog[@]}" \
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
"$hwprof" trace info "$out" >&2
pkgver() { dpkg-query -W -f='${Package} ${Version}' "$1" 2>/dev/null || echo "$1 (not a Debian package?)"; }
echo "Versions: $(valgrind --version); $(pkgver gzip); $(pkgver libc6)" >&2
echo "$out: $(stat -c %s "$out") bytes" >&2
