#!/usr/bin/env bash
# make bench: throughput and overhead benchmarks on the shipped real traces.
#  * branch queue: retire overhead for queue depths 0 (no queue), 1, 2, 4, 8
#    behind a 4-wide retire stage (paper 000 Fig. 18), model engine;
#  * speed: model records per second and RTL simulated cycles per second
#    (Verilated branch_queue, depth 4), records per clock;
#  * FPGA: the last `make synth` results, if any (build/synth/results.md).
# Results go to stdout and to build/bench/results.md.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
hwprof=$build/host/cli/hwprof
out=$build/bench
mkdir -p "$out"
md=$out/results.md
machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
{
  echo "# hwprof benchmarks"
  echo
  echo "Command: \`make bench\`. Machine: $machine. Date: $(date -u +%F)."
  echo
  echo "## Branch queue: retire overhead vs queue depth (4-wide retire, paper latencies)"
  echo
  echo "| trace | records | insns | depth 0 | depth 1 | depth 2 | depth 4 | depth 8 |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
} > "$md"
for t in tests/traces/*.hwpt.zst; do
  name=$(basename "$t" .hwpt.zst)
  row="| $name"
  first=1
  for d in 0 1 2 4 8; do
    j=$("$hwprof" -q profile --unit queue --engine model --depth $d --json "$t")
    if [ $first = 1 ]; then
      row+=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(f" | {j[\"stats\"][\"records\"]} | {j[\"instructions\"]}", end="")' "$j")
      first=0
    fi
    row+=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(f" | {j[\"overhead_percent\"]:.2f}%", end="")' "$j")
  done
  echo "$row |" >> "$md"
done
{
  echo
  echo "Paper 000 Fig. 18 (SPEC2000, 4-wide): 8.04% with no queue, 0.6% with a 4-entry queue."
  echo
  echo "## Simulation speed (depth 4)"
  echo
  echo "| trace | engine | records | cycles | records/clock | wall s | records/s | sim cycles/s |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
} >> "$md"
for t in tests/traces/*.hwpt.zst; do
  name=$(basename "$t" .hwpt.zst)
  for e in model rtl; do
    s=$(date +%s.%N)
    j=$("$hwprof" -q profile --unit queue --engine $e --json "$t")
    w=$(echo "$(date +%s.%N) - $s" | bc)
    python3 - "$j" "$name" "$e" "$w" >> "$md" <<'P'
import json, sys
j, name, e, w = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
s = j["stats"]
print(f"| {name} | {e} | {s['records']} | {s['cycles']} | {s['records_per_cycle']:.3f} | {w:.2f} | "
      f"{s['records']/w:,.0f} | {s['cycles']/w:,.0f} |")
P
  done
done
echo >> "$md"
echo "Wall time includes validating the trace and the ideal reference run (both engines do the same)." >> "$md"
if [ -f build/synth/results.md ]; then
  { echo; echo "## FPGA (last \`make synth\`)"; echo; cat build/synth/results.md; } >> "$md"
else
  { echo; echo "## FPGA"; echo; echo "Run \`make synth\` for LUTs, FFs, BRAMs and Fmax."; } >> "$md"
fi
cat "$md"
