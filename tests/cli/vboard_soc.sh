#!/usr/bin/env bash
# hwprof board soc against the virtual ULX3S with the PicoRV32 SoC
# (sim/board_sc/, `hwprof_vboard --board ulx3s-soc`: hwprof_board_soc, the
# ULX3S build's units and the SoC unit, Verilated with --sc, 3 Mbaud):
#  1. `board soc --unit all --json --trace T` of a workload, T written by
#     `hwprof soc run W.elf -o T`: every unit's section equals `hwprof profile
#     --unit U --engine model --json` of T with the same options (but
#     "engine": "board"), the "soc" section has the exit code and the
#     counters of T, the console carries the workload's line;
#  2. the same without --trace: the retire stream recorded with
#     qemu-system-riscv32 (skipped without it);
#  3. clear errors: an x86 ELF, an RV32 ELF larger than the SoC's RAM, a
#     board without a SoC unit.
# Wall time: about 100 s per `board soc` run (the load is ~2,000 clocks per
# RAM word, 3,956 words for hash.elf, and the virtual board simulates about
# 100,000 clocks/s with the RAP engine at Groups 31); about 4 minutes in all
# on a loaded 2-core machine (the errors take seconds: none loads).
set -uo pipefail
hwprof=$1
vboard=$2
elfdir=$3
dir=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/hwprof_vboard_soc.XXXXXX")" && pwd)
trap 'rm -rf "$dir"' EXIT
export HWPROF_VBOARD="$vboard"
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
contains() {  # name file substring
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in:"; cat "$2"; fail=1; fi
}
# Small options: intervals of 5,000 instructions (hash retires ~32,500), the
# RAP engine's 128 nodes (Groups 31).
opts=(--interval 5000 --nodes 128)
w=hash
line="hash: 198 words, 33 distinct, most frequent 'the' x42"
elf="$elfdir/$w.elf"
t="$dir/$w.hwpt.zst"
"$hwprof" -q soc run "$elf" -o "$t" > /dev/null 2>&1
check soc_run.exit "$?" 0

# board soc --unit all --json $4.. > $2; each section = the model of trace $3.
all_equal() {  # name out trace [board soc options...]
  local name=$1 out=$2 tr=$3; shift 3
  "$hwprof" -q board soc --port sim:ulx3s-soc --unit all --json "${opts[@]}" "$@" "$elf" > "$out" 2> "$out.err"
  check "$name.exit" "$?" 0
  contains "$name.console" "$out.err" "$line"
  # Without --trace the board's reports name its temporary trace (and map).
  local tb
  tb=$(jq -r .trace "$out")
  for u in path rap dcr bbv; do
    case $u in
      path) "$hwprof" -q profile --engine model --json --unit path "$tr" ;;
      rap) "$hwprof" -q profile --engine model --json --unit rap --nodes 128 "$tr" ;;
      *) "$hwprof" -q profile --engine model --json --unit phase --detector $u --interval 5000 "$tr" ;;
    esac | sed 's/"engine": "model"/"engine": "board"/' | jq -S . > "$out.m.$u"
    jq -S ".$u" "$out" | sed "s#$tb#$tr#g" > "$out.b.$u"
    if [ -s "$out.m.$u" ] && cmp -s "$out.m.$u" "$out.b.$u"; then echo "ok   $name.$u = model"; else
      echo "FAIL $name.$u differs from the model"; diff "$out.b.$u" "$out.m.$u" | head -10; fail=1; fi
  done
  # Not vacuous: a real profile in every unit.
  check "$name.nonempty" "$(jq -r '[(.path.paths | length > 0), (.rap.nodes | length > 1),
    (.dcr.intervals | length > 1), (.bbv.intervals | length > 1)] | all' "$out")" true
  check "$name.soc" "$(jq -c '.soc | [.exited, .exit_code, .dropped, .records, .retired]' "$out")" \
    "[true,0,0,$("$hwprof" -q trace info --json "$tr" | jq .records),$(jq .instructions "$tr.map")]"
}

# 1. the trace of `hwprof soc run`
all_equal trace "$dir/trace.json" "$t" --trace "$t"
check trace.from "$(jq -r .soc.trace_from "$dir/trace.json")" file

# 2. the trace recorded with qemu-system-riscv32
if command -v qemu-system-riscv32 > /dev/null; then
  "$hwprof" -q soc qemu "$elf" -o "$dir/q.hwpt.zst" > /dev/null 2>&1
  all_equal qemu "$dir/qemu.json" "$dir/q.hwpt.zst"
  check qemu.from "$(jq -r .soc.trace_from "$dir/qemu.json")" qemu
else
  echo "skip board soc without --trace: qemu-system-riscv32 not installed (make deps-apt)"
fi

# 3. errors
err() {  # name substring board-soc-args...
  local name=$1 want=$2; shift 2
  "$hwprof" -q board soc "$@" > "$dir/e.out" 2> "$dir/e.err"
  check "$name.exit" "$?" 1
  contains "$name.message" "$dir/e.err" "$want"
}
err x86_elf "not a 32-bit ELF" --port sim:ulx3s-soc --trace "$t" "$hwprof"  # hwprof itself: an x86-64 ELF
# An RV32 executable whose one segment (192 KB at 0x80000000) exceeds the 128 KB RAM.
python3 - "$dir/big.elf" <<'PY'
import struct, sys
ph_off, data_off = 52, 84
hdr = b"\x7fELF" + bytes([1, 1, 1, 0]) + bytes(8)
hdr += struct.pack("<HHIIIIIHHHHHH", 2, 243, 1, 0x80000000, ph_off, 0, 0, 52, 32, 1, 40, 0, 0)
ph = struct.pack("<IIIIIIII", 1, data_off, 0x80000000, 0x80000000, 16, 0x30000, 7, 4)
open(sys.argv[1], "wb").write(hdr + ph + bytes(16))
PY
err too_big "does not fit the board's RAM (0x80000000, 131072 bytes: MemWords 32768)" \
  --port sim:ulx3s-soc --trace "$t" "$dir/big.elf"
err no_soc "has no SoC unit" --port sim:ulx3s --trace "$t" "$elf"
exit $fail
