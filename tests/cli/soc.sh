#!/usr/bin/env bash
# hwprof soc run on the simulated SoC (docs/soc.md), with two workloads of
# sw/workloads/ (built into ELF_DIR by CMake):
#  1. `soc run --json -o T` equals `hwprof profile --unit path --engine model
#     --json T` on the trace it wrote (the only difference is
#     "engine": "soc"), with the default options and with runtime options
#     (wpp, lfu, events metric);
#  2. the trace validates, its records match the report, the load map names
#     the ELF; the text report shows the program's UART line, which equals
#     the output of the same C file built for the host;
#  3. a program built with `make -C sw elf` from a C file written here runs
#     (exit code 3 is reported, exit status 1);
#  4. clear errors: not an ELF, an x86 ELF, a missing file;
#  5. the independent observer: `soc qemu` (qemu-system-riscv32 -M virt)
#     records the same branch stream as the SoC's RVFI for every workload
#     (skipped when qemu-system-riscv32 is missing).
set -uo pipefail
hwprof=$1
elfdir=$2
sw=$3
dir=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/hwprof_soc.XXXXXX")" && pwd)
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
contains() {  # name file substring
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in:"; cat "$2"; fail=1; fi
}
model() { "$hwprof" -q profile --unit path --engine model --json "$@" | sed 's/"engine": "model"/"engine": "soc"/'; }
same() {  # name a b: both non-empty and equal (two failed runs must not compare equal)
  if [ -s "$2" ] && cmp -s "$2" "$3"; then echo "ok   $1"; else
    echo "FAIL $1 differs (or is empty)"; diff "$2" "$3" | head -20; fail=1; fi
}

# 1. hardware profile = model profile of the written trace
for w in crc interp; do
  t="$dir/$w.hwpt.zst"
  "$hwprof" -q soc run "$elfdir/$w.elf" -o "$t" --json > "$dir/$w.soc" 2> "$dir/$w.err"
  check "$w.exit" "$?" 0
  model "$t" > "$dir/$w.model"
  same "$w.json = model" "$dir/$w.soc" "$dir/$w.model"
  contains "$w.uart.stderr" "$dir/$w.err" "$w: "
done
opts=(--mode wpp --policy lfu --metric events)
"$hwprof" -q soc run "$elfdir/hash.elf" -o "$dir/o.hwpt" --json "${opts[@]}" > "$dir/o.soc" 2>/dev/null
model "$dir/o.hwpt" "${opts[@]}" > "$dir/o.model"
same "options.json = model" "$dir/o.soc" "$dir/o.model"

# 2. trace, load map, text report
"$hwprof" trace validate "$dir/crc.hwpt.zst" > "$dir/v.txt" 2>&1
check trace.valid "$?" 0
records=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["records"])' "$dir/crc.soc")
contains trace.records "$dir/v.txt" "ok: $records records"
check map.elf "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["isa"], m["objects"][0]["path"], m["objects"][0]["role"])' "$dir/crc.hwpt.zst.map")" \
  "riscv32 $elfdir/crc.elf main"
"$hwprof" soc run "$elfdir/hash.elf" -o "$dir/hash.hwpt.zst" --top 3 > "$dir/text.out" 2> "$dir/text.err"
# The UART line equals the same C file built for and run on the host.
mkdir -p "$dir/hostinc" && : > "$dir/hostinc/soc.h"
if cc -O1 -I"$dir/hostinc" -o "$dir/hash_host" "$sw/workloads/hash.c" 2> "$dir/cc.err"; then
  check text.uart "$(head -1 "$dir/text.out")" "$("$dir/hash_host")"
else
  echo "FAIL host build of hash.c"; cat "$dir/cc.err"; fail=1
fi
contains text.report "$dir/text.out" "hwprof path profiler report (bl paths, soc engine)"
contains text.stats "$dir/text.err" "exited with 0 after"

# 3. a program of our own through the kit
cat > "$dir/mine.c" <<'C'
#include <stdio.h>
static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }
int main(void) {
  int s = 0;
  for (int i = 1; i < 60; i++) s += gcd(i * 7, 84);
  printf("mine: %d\n", s);
  return 3;
}
C
if make -s -C "$sw" elf SRC="$dir/mine.c" OUT="$dir/mine.elf" > "$dir/make.out" 2>&1; then
  "$hwprof" soc run "$dir/mine.elf" --top 1 > "$dir/mine.out" 2> "$dir/mine.err"
  check mine.status "$?" 1
  contains mine.uart "$dir/mine.out" "mine: "
  contains mine.exit "$dir/mine.err" "the program exited with 3"
else
  echo "FAIL make -C sw elf:"; cat "$dir/make.out"; fail=1
fi

# 4. errors
echo "not an elf" > "$dir/bad.elf"
"$hwprof" soc run "$dir/bad.elf" > /dev/null 2> "$dir/e1"
check err.status "$?" 1
contains err.notelf "$dir/e1" "not an ELF file"
"$hwprof" soc run "$hwprof" > /dev/null 2> "$dir/e2"
contains err.x86 "$dir/e2" "not a 32-bit ELF"
"$hwprof" soc run "$dir/none.elf" > /dev/null 2> "$dir/e3"
contains err.missing "$dir/e3" "none.elf"

# 5. qemu-system-riscv32 observer = the SoC's retire stream
if command -v qemu-system-riscv32 > /dev/null; then
  for w in crc interp hash interp_imc; do
    [ -f "$dir/$w.hwpt.zst" ] || "$hwprof" -q soc run "$elfdir/$w.elf" -o "$dir/$w.hwpt.zst" > /dev/null 2>&1
    "$hwprof" -q soc qemu "$elfdir/$w.elf" -o "$dir/$w.qemu.hwpt.zst" > "$dir/$w.qemu.out" 2>&1
    check "qemu.$w.exit" "$?" 0
    "$hwprof" trace cat "$dir/$w.hwpt.zst" > "$dir/$w.soc.txt"
    "$hwprof" trace cat "$dir/$w.qemu.hwpt.zst" > "$dir/$w.qemu.txt"
    same "qemu.$w = soc ($(($(wc -l < "$dir/$w.soc.txt") - 1)) records)" "$dir/$w.soc.txt" "$dir/$w.qemu.txt"
    contains "qemu.$w.uart" "$dir/$w.qemu.out" "${w%_imc}: "
  done
else
  echo "skip qemu observer: qemu-system-riscv32 not installed (make deps-apt)"
fi
exit $fail
