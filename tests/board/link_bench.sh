#!/usr/bin/env bash
# Records/s through the board link (docs/results.md):
#  - the fake board (tests/board/, a pty paced at the line rate in wall
#    time), at 115200 and 3,000,000 baud: the host's own figure (records
#    streamed, RECORDS + FLUSH, over wall time);
#  - the SystemC virtual board (sim/board_sc/), in simulated time: two runs
#    of N1 < N2 records, (N2 - N1) / (T2 - T1) with T the simulated time of
#    the whole session less its dump's line time (the fixed costs, INFO,
#    OPEN, registers, cancel out).
#  - the virtual ULX3S (sim:ulx3s: path, RAP, DCR, BBV) at 3,000,000 baud
#    with `board run --unit all` (the DCR/BBV results taken while the
#    records stream, intervals of 2000 instructions), the same way (its
#    path dump subtracted; the RAP dump is the same in both runs);
#  - board-side records/clock: records / the board's clock cycles with a
#    record offered to the units (FLUSHED busy_cycles), i.e. how fast the
#    shell and the units take records from a non-empty buffer.
# Usage: link_bench.sh HWPROF FAKE_BOARD VBOARD TRACES [slow|only|ulx3s]
# (slow: also the virtual board at 115200, some minutes; only: just that;
# ulx3s: just the virtual ULX3S)
set -uo pipefail
hwprof=$1 fake=$2 vboard=$3 traces=$4 slow=${5:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$hwprof" -q trace cat "$traces/gzip.hwpt.zst" > "$dir/all.trace"
slice() { head -n $(($1 + 1)) "$dir/all.trace" > "$dir/s$1.trace"; echo "$dir/s$1.trace"; }

n=0
fake_rate() {  # baud records
  local t; t=$(slice "$2")
  n=$((n + 1))
  "$fake" --baud "$1" > "$dir/pts$n" 2>/dev/null &
  local pid=$!
  for _ in $(seq 200); do grep -q . "$dir/pts$n" 2>/dev/null && break; sleep 0.05; done
  "$hwprof" board run --port "$(head -1 "$dir/pts$n")" --baud "$1" --json "$t" 2>&1 >/dev/null | grep "records streamed\|error"
  kill $pid; wait $pid 2>/dev/null
}
vboard_time() {  # baud records -> simulated seconds of the session
  local t; t=$(slice "$2")
  n=$((n + 1))
  "$vboard" --baud "$1" --exit-after-idle 2 > "$dir/pts$n" 2> "$dir/vb.err" &
  local pid=$!
  for _ in $(seq 200); do grep -q . "$dir/pts$n" 2>/dev/null && break; sleep 0.05; done
  "$hwprof" board run --port "$(head -1 "$dir/pts$n")" --baud "$1" --timeout 60000 --json "$t" 2> "$dir/host.err" > "$dir/b.json"
  wait $pid
  grep -o 'records streamed.*\|error.*' "$dir/host.err" | sed "s/^/  (wall, $2 records) /" >&2
  board_side "$dir/host.err" "$2"
  # The session's simulated time less its dump (one 26-byte DUMP_DATA frame
  # per valid HPT entry, whose number differs between the two runs).
  local ts e
  ts=$(sed -n 's/^hwprof_vboard: \([0-9.]*\) s simulated.*/\1/p' "$dir/vb.err")
  e=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hpt"]["valid_entries"])' "$dir/b.json")
  python3 -c "print($ts - $e * 26 * 10 / $1)"
}

board_side() {  # host stderr, records: records per board clock with a record offered
  python3 - "$1" "$2" >&2 <<'PY'
import re, sys
m = re.search(r"board clock: (\d+) cycles with a record offered, (\d+) with the buffer empty", open(sys.argv[1]).read())
if m:
    print("  (board side, %s records) %.4f records/clock while a record was offered (%s cycles)" %
          (sys.argv[2], int(sys.argv[2]) / max(1, int(m.group(1))), m.group(1)))
PY
}
ulx3s_time() {  # records -> simulated seconds of the session less the path dump
  local t; t=$(slice "$1")
  n=$((n + 1))
  "$vboard" --board ulx3s --baud 3000000 --exit-after-idle 2 > "$dir/pts$n" 2> "$dir/vb.err" &
  local pid=$!
  for _ in $(seq 200); do grep -q . "$dir/pts$n" 2>/dev/null && break; sleep 0.05; done
  "$hwprof" board run --port "$(head -1 "$dir/pts$n")" --baud 3000000 --timeout 60000 --unit all --nodes 128 \
    --interval 2000 --json "$t" 2> "$dir/host.err" > "$dir/b.json"
  wait $pid
  grep -o 'records streamed.*\|result entries.*\|error.*' "$dir/host.err" | sed "s/^/  (wall, $1 records) /" >&2
  board_side "$dir/host.err" "$1"
  local ts e
  ts=$(sed -n 's/^hwprof_vboard: \([0-9.]*\) s simulated.*/\1/p' "$dir/vb.err")
  e=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["path"]["hpt"]["valid_entries"])' "$dir/b.json")
  python3 -c "print($ts - $e * 26 * 10 / 3000000)"
}

if [ "$slow" = ulx3s ]; then
  n1=500 n2=2000
  t1=$(ulx3s_time $n1)
  t2=$(ulx3s_time $n2)
  echo "virtual ULX3S (path, RAP, DCR, BBV), 3000000 baud: $(python3 -c "print('%.0f records/s in simulated time (%d - %d records: %.4f - %.4f s)' % (($n2-$n1)/($t2-$t1), $n2, $n1, $t2, $t1))")"
  exit 0
fi
if [ "$slow" != only ]; then
  echo "fake board, 115200 baud:   $(fake_rate 115200 5000)"
  echo "fake board, 3000000 baud:  $(fake_rate 3000000 100000)"
fi
bauds="3000000 ${slow:+115200}"
[ "$slow" = only ] && bauds=115200
for b in $bauds; do
  if [ "$b" = 3000000 ]; then n1=1000 n2=4000; else n1=100 n2=500; fi
  t1=$(vboard_time $b $n1)
  t2=$(vboard_time $b $n2)
  echo "virtual board, $b baud: $(python3 -c "print('%.0f records/s in simulated time (%d - %d records: %.4f - %.4f s)' % (($n2-$n1)/($t2-$t1), $n2, $n1, $t2, $t1))")"
done
