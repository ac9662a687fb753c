#!/usr/bin/env bash
# Records the long traces of the HPT accuracy study (docs/results.md,
# "Hot path table accuracy") into tests/traces/long/: gcc's cc1 compiling a
# small C file at -O2 (inputs/cc1_input.c), and sqlite3 running 400 inserts
# into an indexed table (inputs/sqlite_long.sql): 10-20 million instructions
# each (capped at MAX_INSNS, default 25 M), the programs of the spec section
# 3.2 reference figures. Same fixed environment
# as scripts/record_traces.sh; the files are shipped, so a rerun is only
# needed to regenerate them (package versions change the traces).
#
# cc1_full is the same cc1 run capped at FULL_INSNS (default 200 M; the
# whole run is longer than 470 M): the phase study's long trace
# (docs/results.md, "Phase quality"), 200 intervals of 1 M instructions.
#
# usage: scripts/record_long_traces.sh [HWPROF] [NAME...]   NAME: cc1 sqlite3_long cc1_full
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hwprof=${HWPROF:-$root/build/host/cli/hwprof}
if [[ $# -gt 0 && -f $1 ]]; then hwprof=$1; shift; fi
[[ -x $hwprof ]] || { echo "record_long_traces.sh: hwprof binary not found: $hwprof (make build first)" >&2; exit 2; }
hwprof=$(cd "$(dirname "$hwprof")" && pwd)/$(basename "$hwprof")
names=("$@")
# Both runs stop after this many instructions (cc1 -O2 alone runs ~0.2 G).
max_insns=${MAX_INSNS:-25000000}
[[ ${#names[@]} -gt 0 ]] || names=(cc1 sqlite3_long)

inputs=$root/tests/traces/inputs
out=$root/tests/traces/long
mkdir -p "$out"
base_env=(env -i PATH=/usr/bin:/bin LANG=C LC_ALL=C HOME=/nonexistent TERM=dumb)
cc1=$(gcc -print-prog-name=cc1)

for n in "${names[@]}"; do
  echo "== $n" >&2
  case $n in
    cc1)
      (cd "$inputs" && "${base_env[@]}" "$hwprof" record --max-insns "$max_insns" -o "$out/cc1.hwpt.zst" -- \
        "$cc1" -quiet -O2 cc1_input.c -o /dev/null < /dev/null > /dev/null) ;;
    cc1_full)
      (cd "$inputs" && "${base_env[@]}" "$hwprof" record --max-insns "${FULL_INSNS:-200000000}" -o "$out/cc1_full.hwpt.zst" -- \
        "$cc1" -quiet -O2 cc1_input.c -o /dev/null < /dev/null > /dev/null) ;;
    sqlite3_long)
      (cd "$inputs" && "${base_env[@]}" "$hwprof" record --max-insns "$max_insns" -o "$out/sqlite3_long.hwpt.zst" -- \
        "$(command -v sqlite3)" -batch :memory: < sqlite_long.sql > /dev/null) ;;
    *) echo "unknown long trace '$n' (cc1 sqlite3_long cc1_full)" >&2; exit 2 ;;
  esac
  "$hwprof" trace validate "$out/$n.hwpt.zst"
done
echo "Versions: $(gcc --version | sed -n 1p); $(dpkg-query -W -f='${Package} ${Version}  ' sqlite3 libsqlite3-0 libc6)" >&2
