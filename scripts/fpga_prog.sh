#!/usr/bin/env bash
# make fpga-prog BOARD=ulx3s|icebreaker [DEVICE=...]: load the bitstream of
# `make fpga` into the board's SRAM (not flash) with openFPGALoader
# (Debian package openfpgaloader) or, for the iCEBreaker, iceprog (Debian
# package fpga-icestorm) when openFPGALoader is missing. docs/boards.md.
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: fpga_prog.sh ulx3s|icebreaker [build dir]}
build=${2:-build}
case "$board" in
  ulx3s)      bit=$build/fpga/ulx3s/hwprof_ulx3s.bit; ofl_board=ulx3s ;;
  icebreaker) bit=$build/fpga/icebreaker/hwprof_icebreaker.bin; ofl_board=icebreaker ;;
  *) echo "fpga-prog: unknown board '$board' (ulx3s, icebreaker)" >&2; exit 2 ;;
esac
if [ ! -f "$bit" ]; then
  echo "fpga-prog: $bit not found; build it first: make fpga BOARD=$board" >&2
  exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if command -v openFPGALoader >/dev/null; then
  cmd=(openFPGALoader -b "$ofl_board" "$bit")
elif [ "$board" = icebreaker ] && command -v iceprog >/dev/null; then
  cmd=(iceprog -S "$bit")
else
  echo "fpga-prog: no programmer found: install openFPGALoader (sudo apt-get install openfpgaloader)" \
       "$([ "$board" = icebreaker ] && echo 'or iceprog (sudo apt-get install fpga-icestorm)')" >&2
  exit 2
fi
echo "fpga-prog: ${cmd[*]}"
if "${cmd[@]}" 2>&1 | tee "$log"; then
  if grep -qiE "no (device|cable)|unable to open|cannot (find|open)|not found|error" "$log"; then
    echo "fpga-prog: no $board board answered on USB (is it plugged in, and may this user open the FTDI device? see docs/boards.md)" >&2
    exit 1
  fi
  echo "fpga-prog: $bit loaded into the $board"
else
  echo "fpga-prog: no $board board answered on USB (is it plugged in, and may this user open the FTDI device? see docs/boards.md)" >&2
  exit 1
fi
