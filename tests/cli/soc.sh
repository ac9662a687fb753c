#!/usr/bin/env bash
# hwprof soc run on the simulated SoC (docs/soc.md), with workloads of
# sw/workloads/ (built into ELF_DIR by CMake) and a program we did not write:
#  0. the done-when of issue 20: a Csmith program (Debian's csmith, fixed
#     seed, small) built with `make soc-elf` runs under `hwprof soc run
#     --unit all --json -o t.hwpt.zst`; every unit's hardware profile equals
#     `hwprof profile --unit U --engine model --json` of t.hwpt.zst; the
#     trace validates and equals `hwprof record` of the same ELF under
#     qemu-system-riscv32 (same checksum on the UART too);
#  1. `soc run --json -o T` equals `hwprof profile --unit path --engine model
#     --json T` on the trace it wrote (the only difference is
#     "engine": "soc"), with the default options and with runtime options
#     (wpp, lfu, events metric); `--unit all` (path, RAP, DCR, BBV) equals
#     the model unit by unit on every workload it runs; the RAP value
#     profile (--source val: val records of data addresses) too;
#  2. the trace validates, its records match the report, the load map names
#     the ELF; the text report shows the program's UART line, which equals
#     the output of the same C file built for the host;
#  3. a program built with `make -C sw elf` from a C file written here runs
#     (exit code 3 is reported, exit status 1);
#  4. clear errors: not an ELF, an x86 ELF, a missing file;
#  5. the independent observer: `hwprof record` of the ELF (and `soc qemu`,
#     qemu-system-riscv32 -M virt) records the same branch stream as the
#     SoC's RVFI for every workload (skipped when qemu-system-riscv32 is
#     missing).
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
# soc run --unit all --json output (file $2) = the model of trace $3, unit by
# unit; $4..: the options both runs take.
all_equal() {  # name soc.json trace [opts...]
  local name=$1 out=$2 t=$3; shift 3
  "$hwprof" -q profile --unit path --engine model --json "$@" "$t" > "$out.m.path" 2>&1
  "$hwprof" -q profile --unit rap --engine model --json "${rapopts[@]}" "$t" > "$out.m.rap" 2>&1
  "$hwprof" -q profile --unit phase --detector dcr --engine model --json "${phopts[@]}" "$t" > "$out.m.dcr" 2>&1
  "$hwprof" -q profile --unit phase --detector bbv --engine model --json "${phopts[@]}" "$t" > "$out.m.bbv" 2>&1
  local r
  r=$(python3 - "$out" "$t" <<'PY'
import json, sys
out, t = sys.argv[1], sys.argv[2]
try:
    a = json.load(open(out))
except Exception as e:
    print("soc JSON unreadable: %s" % e); sys.exit(0)
if a.get("unit") != "all" or a.get("engine") != "soc" or a.get("trace") != t:
    print("header %r" % {k: a.get(k) for k in ("unit", "engine", "trace")}); sys.exit(0)
def first_diff(x, y, path=""):
    if type(x) != type(y): return "%s: %r != %r" % (path, x, y)
    if isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y: return "%s.%s: only in one" % (path, k)
            d = first_diff(x[k], y[k], path + "." + k)
            if d: return d
        return None
    if isinstance(x, list):
        if len(x) != len(y): return "%s: %d != %d entries" % (path, len(x), len(y))
        for i, (p, q) in enumerate(zip(x, y)):
            d = first_diff(p, q, "%s[%d]" % (path, i))
            if d: return d
        return None
    return None if x == y else "%s: %r != %r" % (path, x, y)
msgs = []
for u in ("path", "rap", "dcr", "bbv"):
    try:
        m = json.load(open(out + ".m." + u))
    except Exception as e:
        msgs.append("%s: model JSON unreadable" % u); continue
    if "engine" in m: m["engine"] = "soc"
    if u not in a: msgs.append("%s: no section" % u); continue
    d = first_diff(a[u], m)
    if d: msgs.append(u + d)
# Not vacuous: a real profile in every unit.
if not msgs:
    if not a["path"]["paths"]: msgs.append("path: no paths")
    if a["rap"]["n"] == 0 or len(a["rap"]["nodes"]) < 2: msgs.append("rap: no tree")
    for u in ("dcr", "bbv"):
        if not a[u]["intervals"]: msgs.append(u + ": no intervals")
print("ok" if not msgs else "; ".join(msgs))
PY
)
  check "$name" "$r" ok
}
# Small phase intervals (the workloads retire 10^4..10^5 instructions).
phopts=(--interval 5000)
rapopts=()
same() {  # name a b: both non-empty and equal (two failed runs must not compare equal)
  if [ -s "$2" ] && cmp -s "$2" "$3"; then echo "ok   $1"; else
    echo "FAIL $1 differs (or is empty)"; diff "$2" "$3" | head -20; fail=1; fi
}

# 0. a C program we did not write (Csmith), the done-when of issue 20
top=$(cd "$sw/.." && pwd)
if command -v csmith > /dev/null && [ -f /usr/include/csmith/csmith.h ]; then
  # Fixed seed; small: few functions, shallow blocks, short arrays. Any
  # Csmith program is well defined and prints its checksum.
  # In $dir, with the target's sizes in platform.info (csmith reads it from
  # its working directory, else writes the host's there): RV32, ilp32.
  printf 'integer size = 4\npointer size = 4\n' > "$dir/platform.info"
  (cd "$dir" && csmith --seed 3 --max-funcs 3 --max-block-depth 2 --no-packed-struct --no-bitfields \
    --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-expr-complexity 6 -o cs.c > /dev/null 2>&1)
  check csmith.gen "$?" 0
  if make -s -C "$top" soc-elf SRC="$dir/cs.c" OUT="$dir/cs.elf" EXTRA_CFLAGS="-I/usr/include/csmith -w" \
      > "$dir/cs.make" 2>&1; then
    t="$dir/t.hwpt.zst"
    "$hwprof" -q soc run --unit all --json -o "$t" "${phopts[@]}" --max-cycles 20000000 "$dir/cs.elf" \
      > "$dir/cs.soc" 2> "$dir/cs.err"
    check csmith.exit "$?" 0
    contains csmith.uart "$dir/cs.err" "checksum = "
    all_equal "csmith.all = model" "$dir/cs.soc" "$t" "${phopts[@]}"
    "$hwprof" trace validate "$t" > "$dir/cs.v" 2>&1
    check csmith.trace.valid "$?" 0
    if command -v qemu-system-riscv32 > /dev/null; then
      "$hwprof" -q record -o "$dir/cs.qemu.hwpt.zst" "$dir/cs.elf" > "$dir/cs.qemu.out" 2>&1
      check csmith.record.exit "$?" 0
      "$hwprof" trace cat "$t" > "$dir/cs.soc.txt"
      "$hwprof" trace cat "$dir/cs.qemu.hwpt.zst" > "$dir/cs.qemu.txt"
      same "csmith.record = soc ($(($(wc -l < "$dir/cs.soc.txt") - 1)) records)" "$dir/cs.soc.txt" "$dir/cs.qemu.txt"
      check csmith.checksum "$(grep -o 'checksum = [0-9A-F]*' "$dir/cs.qemu.out")" \
        "$(grep -o 'checksum = [0-9A-F]*' "$dir/cs.err")"
    else
      echo "skip csmith qemu-system recording: qemu-system-riscv32 not installed (make deps-apt)"
    fi
  else
    echo "FAIL make soc-elf of the Csmith program:"; cat "$dir/cs.make"; fail=1
  fi
else
  echo "skip csmith: not installed (make deps-apt installs csmith and libcsmith-dev)"
fi

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
# Every unit, on every workload this test runs (RV32I and RV32IMC).
for w in hash interp_imc; do
  "$hwprof" -q soc run --unit all --json -o "$dir/$w.all.hwpt.zst" "${phopts[@]}" "$elfdir/$w.elf" \
    > "$dir/$w.all" 2>/dev/null
  all_equal "$w.all = model" "$dir/$w.all" "$dir/$w.all.hwpt.zst" "${phopts[@]}"
done
# Unit options: the RAP engine's settings, the BBV threshold, the DCR tracker alone.
rapopts=(--eps 0.05 --nodes 64 --buffer 0)
"$hwprof" -q soc run --unit all --json -o "$dir/ro.hwpt.zst" --interval 3000 --threshold 64 "${rapopts[@]}" \
  "$elfdir/hash_imc.elf" > "$dir/ro.all" 2>/dev/null
phopts=(--interval 3000 --threshold 64)
all_equal "unit-options.all = model" "$dir/ro.all" "$dir/ro.hwpt.zst"
phopts=(--interval 5000)
rapopts=()
# The RAP value profile: val records of the data addresses of every load and store.
"$hwprof" -q soc run --unit rap --source val --json -o "$dir/val.hwpt.zst" "$elfdir/hash_imc.elf" \
  > "$dir/val.soc" 2>/dev/null
"$hwprof" -q profile --unit rap --source val --engine model --json "$dir/val.hwpt.zst" > "$dir/val.model"
same "rap.val = model" "$dir/val.soc" "$dir/val.model"
"$hwprof" trace validate "$dir/val.hwpt.zst" > "$dir/val.v" 2>&1
check val.trace.valid "$?" 0
check val.records "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["source"], j["n"] > 1000)' "$dir/val.soc")" "val True"
"$hwprof" -q soc run --unit phase --detector dcr --json -o "$dir/dcr.hwpt" "${phopts[@]}" "$elfdir/hash.elf" \
  > "$dir/dcr.soc" 2>/dev/null
"$hwprof" -q profile --unit phase --detector dcr --engine model --json "${phopts[@]}" "$dir/dcr.hwpt" \
  | sed 's/"engine": "model"/"engine": "soc"/' > "$dir/dcr.model"
same "phase.dcr = model" "$dir/dcr.soc" "$dir/dcr.model"

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
    if [ "$w" = interp ]; then  # soc qemu and hwprof record share the observer
      "$hwprof" -q soc qemu "$elfdir/$w.elf" -o "$dir/$w.qemu.hwpt.zst" > "$dir/$w.qemu.out" 2>&1
    else
      "$hwprof" -q record -o "$dir/$w.qemu.hwpt.zst" "$elfdir/$w.elf" > "$dir/$w.qemu.out" 2>&1
    fi
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
