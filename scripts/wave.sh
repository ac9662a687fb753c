#!/usr/bin/env bash
# make wave TEST=<ctest name> [NO_GUI=1]: reruns one CTest test with FST
# tracing on, then opens the newest waveform in GTKWave with its comparison
# layout (<file>.gtkw, written by the harness beside every lock-step FST:
# rtl.* beside model.*, mismatch.* flags, then the unit's saved layout
# tb/<dir>/<unit>.gtkw; marker at the first mismatch if the test failed).
# Waveforms without a comparison (direct-harness tests) get the unit layout
# chosen from the test name. docs/debugging.md.
set -euo pipefail
build=$1 test=$2 gui=1
[ "${3:-}" = --no-gui ] && gui=0
cd "$(dirname "$0")/.."
waves=$build/waves
mkdir -p "$waves"
stamp=$(mktemp); trap 'rm -f "$stamp"' EXIT
TRACE=1 ctest --test-dir "$build" -R "^${test//./\\.}\$" --output-on-failure || true
fst=$(find "$waves" -name '*.fst' -newer "$stamp" -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
if [ -z "$fst" ]; then
  echo "wave: no waveform written; is '$test' an RTL test? (ctest --test-dir $build -N | grep rtl.)" >&2
  exit 1
fi
layout=${fst%.fst}.gtkw
if [ ! -f "$layout" ]; then
  # Layout: the .gtkw whose unit name appears in the snake-cased test name.
  snake=$(sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' <<<"$test" | tr 'A-Z' 'a-z')
  layout=""
  for g in tb/*/*.gtkw; do
    u=$(basename "$g" .gtkw)
    [[ $snake == *"$u"* ]] && layout=$g
  done
fi
echo "wave: $fst"
[ -n "$layout" ] && echo "wave: layout $layout"
if [ $gui = 1 ]; then
  if [ -z "${DISPLAY:-}" ]; then echo "wave: no DISPLAY; open it with: gtkwave ${layout:+-a $layout} $fst"; exit 0; fi
  exec gtkwave ${layout:+-a "$layout"} "$fst"
fi
