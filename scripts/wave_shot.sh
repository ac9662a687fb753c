#!/usr/bin/env bash
# make wave-shot [WAVE=x.fst] [SHOT=out.png]: GTKWave with the waveform's
# layout (x.gtkw beside x.fst) in a virtual X server (xvfb, make deps-wave),
# captured with xwd and saved as PNG (scripts/xwd2png.py).
set -euo pipefail
fst=$1 png=$2
layout=${fst%.fst}.gtkw; [ -f "$layout" ] || layout=""
[ -f "$fst" ] || { echo "wave-shot: no waveform $fst" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
xvfb-run -a -s "-screen 0 1600x900x24" bash -c '
  gtkwave '"${layout:+-a \"$layout\"}"' "'"$fst"'" >/dev/null 2>&1 & g=$!
  sleep ${WAVE_SHOT_WAIT:-6}
  xwd -root -silent > "'"$tmp"'/shot.xwd"
  kill $g' 
python3 "$(dirname "$0")/xwd2png.py" "$tmp/shot.xwd" "$png"
echo "wave-shot: $png"
