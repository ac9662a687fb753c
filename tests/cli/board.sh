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
#     stays wrong;
#  6. a board with result units (path, RAP at Groups 31, DCR, BBV, as the
#     ULX3S build): `board run --unit all` has one section per unit, each
#     equal to `hwprof profile --unit U --engine model --json` on every
#     shipped trace with small options (the results are taken while the
#     records stream); --unit rap|phase alone, with options, --source val,
#     a small receive buffer; a RESULT_DATA entry byte flipped or dropped
#     and a RESULTS frame lost or a bit of one flipped on the line end in the same JSON after
#     retries.
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
"$hwprof" board run --port sim:icebreaker "$dir/small.trace" 2> "$dir/e.txt"
contains err.sim "$dir/e.txt" "sim:icebreaker: the SystemC virtual board models the path-profiler build (sim:virtual) and the ULX3S build (sim:ulx3s)"

# 6. result units
modelu() { "$hwprof" -q profile --engine model --json "$@" | sed 's/"engine": "model"/"engine": "board"/'; }
same_json() {  # file-a file-b [section of a]: equal JSON values
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); a=a[sys.argv[3]] if len(sys.argv)>3 else a; print("same" if a==json.load(open(sys.argv[2])) else "diff")' "$@"
}
small="--nodes 128 --interval 50000"
start_board --units path,rap,dcr,bbv
for t in "$traces"/*.hwpt.zst; do
  n=$(basename "$t")
  # shellcheck disable=SC2086
  board --unit all $small "$t" > "$dir/all.json"
  check "all.keys.$n" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sorted(j), j["engine"], len(j["dcr"]["intervals"]) > 30)' "$dir/all.json")" \
    "['bbv', 'dcr', 'engine', 'path', 'rap', 'trace', 'unit'] board True"
  modelu --unit path "$t" > "$dir/m.json"
  check "all.path.$n" "$(same_json "$dir/all.json" "$dir/m.json" path)" same
  modelu --unit rap --nodes 128 "$t" > "$dir/m.json"
  check "all.rap.$n" "$(same_json "$dir/all.json" "$dir/m.json" rap)" same
  for d in dcr bbv; do
    modelu --unit phase --detector $d --interval 50000 "$t" > "$dir/m.json"
    check "all.$d.$n" "$(same_json "$dir/all.json" "$dir/m.json" $d)" same
  done
done
for opts in "--unit rap --nodes 64 --eps 0.05 --buffer 0 --merge-first 200" "--unit phase --detector dcr --interval 7000" \
            "--unit phase --detector bbv --interval 9000 --threshold 300"; do
  # shellcheck disable=SC2086
  board $opts "$dir/small.trace" > "$dir/b.json"
  # shellcheck disable=SC2086
  modelu $opts "$dir/small.trace" > "$dir/m.json"
  check "unit.opts($opts)" "$(same_json "$dir/b.json" "$dir/m.json")" same
done
board --unit rap --nodes 128 --source val "$traces/val/gzip_mem.hwpt.zst" > "$dir/b.json"
modelu --unit rap --nodes 128 --source val "$traces/val/gzip_mem.hwpt.zst" > "$dir/m.json"
check unit.rap_val "$(same_json "$dir/b.json" "$dir/m.json")" same
"$hwprof" -q board run --port "$pts" --unit all --source val "$dir/small.trace" 2> "$dir/e.txt"
contains err.source_val "$dir/e.txt" "--source val: only with --unit rap"
"$hwprof" -q board run --port "$pts" --unit rap "$dir/small.trace" 2> "$dir/e.txt"
contains err.nodes "$dir/e.txt" "--nodes 512: the board's RAP engine has 31 groups, at most 128 nodes"
stop_board
# Intervals of 2000 instructions (about 50 results per unit in the slice),
# a 300-byte buffer drained slowly: the host takes results whenever the
# credit runs out.
"$hwprof" -q profile --unit phase --detector dcr --engine model --json --interval 2000 "$dir/small.trace" \
  | sed 's/"engine": "model"/"engine": "board"/' > "$dir/small.dcr"
"$hwprof" -q profile --unit phase --detector bbv --engine model --json --interval 2000 "$dir/small.trace" \
  | sed 's/"engine": "model"/"engine": "board"/' > "$dir/small.bbv"
start_board --units path,dcr,bbv --rxbuf 300 --drain 40
board --unit all --interval 2000 "$dir/small.trace" > "$dir/all.json"
check results.credit "$(same_json "$dir/all.json" "$dir/small.dcr" dcr) $(same_json "$dir/all.json" "$dir/small.bbv" bbv)" "same same"
stop_board
# A board reset mid-stream with results taken so far: --retry-reset streams
# again from a new session and the results start over.
start_board --units dcr,bbv --fault reset:8000
"$hwprof" -q board run --port "$pts" --json --timeout 50 --retry-reset --unit all --interval 2000 "$dir/small.trace" \
  > "$dir/all.json" 2> "$dir/b.err"
check results.reset "$? $(same_json "$dir/all.json" "$dir/small.dcr" dcr) $(same_json "$dir/all.json" "$dir/small.bbv" bbv)" "0 same same"
contains results.reset.reported "$dir/b.err" "streaming the trace again"
stop_board
for f in res-tx-flip:3 res-tx-drop:10 res-rx-drop:4 res-rx-drop:1 res-rx-flip:5; do
  start_board --units dcr,bbv --fault "$f"
  "$hwprof" board run --port "$pts" --json --timeout 50 --unit all --interval 2000 "$dir/small.trace" > "$dir/all.json" 2> "$dir/b.err"
  rc=$?
  check "results.fault.$f" "$rc $(same_json "$dir/all.json" "$dir/small.dcr" dcr) $(same_json "$dir/all.json" "$dir/small.bbv" bbv)" "0 same same"
  contains "results.fault.$f.reported" "$dir/b.err" "hwprof: link:"
  stop_board
done

exit $fail
