#!/usr/bin/env bash
# hwprof board info|run against the protocol-level fake board
# (tests/board/fake_board*, a pseudo-terminal; docs/board_protocol.md):
#  1. info (text and JSON) reports the fake board's ID block;
#  2. `board run --json` equals `hwprof profile --unit path --engine model
#     --json` with the board's parameters on every shipped trace, with
#     runtime options (mode, policy, metric), another build's parameters and a
#     slow board whose credit limits the host (the only difference is
#     "engine": "board");
#  3. faults on the line (noise bytes, a dropped byte, a flipped bit, in both
#     directions, in the records and in the commands) end in the same JSON
#     after retries, and the link summary shows the retries;
#  4. a board reset mid-stream is "board reset detected" (no JSON) or, with
#     --retry-reset, the right JSON; a host killed mid-stream and started
#     again gets the right JSON;
#  5. clear errors: a missing device, not a serial port, a wrong board
#     (magic, protocol version), a dead line (timeout), a dump whose CRC-32
#     stays wrong.
set -uo pipefail
hwprof=$1
fake=$2
traces=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_board.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
contains() {  # name file substring
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in:"; cat "$2"; fail=1; fi
}
nboard=0
start_board() {  # args...: starts a fake board (unpaced unless --baud), sets $pts
  nboard=$((nboard + 1))
  local out="$dir/pts.$nboard"
  "$fake" "$@" > "$out" 2> "$dir/fake.err" &
  pids+=($!)
  for _ in $(seq 200); do grep -q . "$out" 2>/dev/null && break; sleep 0.05; done
  pts=$(head -1 "$out")
}
stop_board() { kill "${pids[-1]}" 2>/dev/null; wait "${pids[-1]}" 2>/dev/null; }
model() { "$hwprof" -q profile --unit path --engine model --json "$@" | sed 's/"engine": "model"/"engine": "board"/'; }
board() { "$hwprof" -q board run --port "$pts" --json "$@"; }

# A 20000-record slice of gzip (text format) for the slower cases.
"$hwprof" -q trace cat "$traces/gzip.hwpt.zst" | head -n 20001 > "$dir/small.trace"
model "$dir/small.trace" > "$dir/small.model"

# 1. info
start_board
"$hwprof" board info --port "$pts" > "$dir/info.txt"
contains info.text "$dir/info.txt" "unit 0       path: queue 4, stack 16, MaxLen 32, HPT 128x4, AddrW 32"
contains info.board "$dir/info.txt" "virtual (id 3), link protocol 1"
"$hwprof" board info --port "$pts" --json > "$dir/info.json"
check info.json "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["board"], j["baud"], j["rxbuf"], j["units"][0]["params"])' "$dir/info.json")" \
  "virtual 3000000 1024 [4, 16, 32, 128, 4, 32]"

# 2. board JSON == model JSON
for t in "$traces"/*.hwpt.zst; do
  n=$(basename "$t")
  board "$t" > "$dir/b.json"
  model "$t" > "$dir/m.json"
  check "run.$n" "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same
done
for opts in "--mode wpp --policy lfu" "--mode ext --max-ext 2 --metric insns" "--policy ss --index pb --skew 0 --metric events" "--top 5"; do
  # shellcheck disable=SC2086
  board $opts "$traces/perl.hwpt.zst" > "$dir/b.json"
  # shellcheck disable=SC2086
  model $opts "$traces/perl.hwpt.zst" > "$dir/m.json"
  check "run.opts($opts)" "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same
done
stop_board
# Another build: queue 2, stack 8, MaxLen 16, HPT 32x2; a slow board with a
# small buffer (the host waits for credit and polls it).
start_board --path 2,8,16,32,2,32 --rxbuf 300 --drain 40
board "$traces/bzip2.hwpt.zst" > "$dir/b.json" 2> "$dir/b.err"
model --depth 2 --stack-depth 8 --max-len 16 --sets 32 --ways 2 "$traces/bzip2.hwpt.zst" > "$dir/m.json"
check run.params_and_credit "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same
stop_board

# 3. faults on the line: rx = host to board, tx = board to host. Byte 20 is
# inside the first REG_WRITE, 60 inside its ACK; 3000/40000 are inside the
# record stream and 400/2000 among its ACKs.
for f in rx-drop:20 rx-flip:20 rx-noise:20 rx-drop:3000 rx-flip:40000 rx-noise:3000 \
         tx-drop:60 tx-flip:60 tx-noise:60 tx-drop:400 tx-flip:2000 tx-noise:400; do
  start_board --fault "$f"
  "$hwprof" board run --port "$pts" --json --timeout 50 "$dir/small.trace" > "$dir/b.json" 2> "$dir/b.err"
  rc=$?
  check "fault.$f" "$rc $(cmp -s "$dir/b.json" "$dir/small.model" && echo same)" "0 same"
  contains "fault.$f.reported" "$dir/b.err" "hwprof: link:"
  stop_board
done

# 4. a board reset mid-stream
start_board --fault reset:5000
"$hwprof" -q board run --port "$pts" --json --timeout 50 "$dir/small.trace" > "$dir/b.json" 2> "$dir/b.err"
check reset.rc $? 1
check reset.no_output "$(wc -c < "$dir/b.json")" 0
contains reset.error "$dir/b.err" "board reset detected (session lost"
stop_board
start_board --fault reset:5000
"$hwprof" -q board run --port "$pts" --json --timeout 50 --retry-reset "$dir/small.trace" > "$dir/b.json" 2> "$dir/b.err"
check reset.retry "$? $(cmp -s "$dir/b.json" "$dir/small.model" && echo same)" "0 same"
contains reset.retry.reported "$dir/b.err" "streaming the trace again"
stop_board
# The host killed mid-stream (a paced line: 20000 records take about 1 s at
# 1 Mbaud), then started again: a new session, the right profile.
start_board --baud 1000000
bash -c 'timeout -s KILL 0.4 "$0" -q board run --port "$1" --json "$2" > /dev/null' "$hwprof" "$pts" "$dir/small.trace" 2>/dev/null
check reconnect.killed "$?" 137
board "$dir/small.trace" > "$dir/b.json"
check reconnect.rerun "$(cmp -s "$dir/b.json" "$dir/small.model" && echo same)" same
stop_board

# 5. clear errors
"$hwprof" board info --port "$dir/no-such-tty" 2> "$dir/e.txt"
check err.missing.rc $? 1
contains err.missing "$dir/e.txt" "no-such-tty: no such device"
"$hwprof" board info --port /dev/null 2> "$dir/e.txt"
contains err.not_tty "$dir/e.txt" "/dev/null: not a serial port"
start_board --magic ABCD
"$hwprof" board info --port "$pts" 2> "$dir/e.txt"
contains err.magic "$dir/e.txt" "not an hwprof board: wrong magic"
stop_board
start_board --proto 2
"$hwprof" board run --port "$pts" "$dir/small.trace" 2> "$dir/e.txt"
contains err.proto "$dir/e.txt" "the board speaks link protocol version 2, this hwprof speaks version 1"
stop_board
start_board --fault tx-mute:0
"$hwprof" board info --port "$pts" --timeout 20 --retries 2 2> "$dir/e.txt"
contains err.timeout "$dir/e.txt" "no answer from the board to INFO after 3 tries"
stop_board
start_board --fault dump-crc:1
"$hwprof" -q board run --port "$pts" --json --retries 2 "$dir/small.trace" > "$dir/b.json" 2> "$dir/e.txt"
check err.dump_crc.rc "$? $(wc -c < "$dir/b.json")" "1 0"
contains err.dump_crc "$dir/e.txt" "dump of unit 0 failed after 3 tries (last: CRC-32 mismatch"
stop_board
"$hwprof" board run --port sim:ulx3s "$dir/small.trace" 2> "$dir/e.txt"
contains err.sim "$dir/e.txt" "sim:ulx3s: the SystemC virtual board models the path-profiler build only"

exit $fail
