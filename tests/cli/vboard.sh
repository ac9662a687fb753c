#!/usr/bin/env bash
# hwprof board against the SystemC virtual board (sim/board_sc/: the board
# shell and the path profiler Verilated with --sc, a UART line model at 3
# Mbaud, a pty bridge): info reports the RTL's ID block, and `board run
# --json` on slices of two shipped traces equals `hwprof profile --unit path
# --engine model --json` (but "engine": "board"), once on a virtual board
# started by hand (its pty) and once through --port sim:virtual (the
# virtual ULX3S: tests/cli/vboard_ulx3s.sh).
set -uo pipefail
hwprof=$1
vboard=$2
traces=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_vboard.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
model() { "$hwprof" -q profile --unit path --engine model --json "$@" | sed 's/"engine": "model"/"engine": "board"/'; }

"$hwprof" -q trace cat "$traces/gzip.hwpt.zst" | head -n 1501 > "$dir/gzip.trace"
"$hwprof" -q trace cat "$traces/sqlite3.hwpt.zst" | sed -n "1p;50000,51000p" > "$dir/sqlite3.trace"

"$vboard" --baud 3000000 > "$dir/pts" 2> "$dir/vboard.err" &
pid=$!
for _ in $(seq 200); do grep -q . "$dir/pts" 2>/dev/null && break; sleep 0.05; done
pts=$(head -1 "$dir/pts")

"$hwprof" board info --port "$pts" --baud 3000000 --timeout 5000 --json > "$dir/info.json"
check info "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["board"], j["clk_hz"], j["baud"], j["rxbuf"], [(u["kind"], u["params"]) for u in j["units"]])' "$dir/info.json")" \
  "virtual 24000000 3000000 1024 [('path', [4, 16, 32, 128, 4, 32])]"

"$hwprof" -q board run --port "$pts" --baud 3000000 --timeout 5000 --json "$dir/gzip.trace" > "$dir/b.json"
model "$dir/gzip.trace" > "$dir/m.json"
check run.gzip "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same
"$hwprof" -q board run --port "$pts" --baud 3000000 --timeout 5000 --json --mode wpp --policy lfu "$dir/sqlite3.trace" > "$dir/b.json"
model --mode wpp --policy lfu "$dir/sqlite3.trace" > "$dir/m.json"
check run.sqlite3_wpp "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same
kill $pid; wait $pid 2>/dev/null; pid=

HWPROF_VBOARD="$vboard" "$hwprof" -q board run --port sim:virtual --json "$dir/gzip.trace" > "$dir/b.json"
model "$dir/gzip.trace" > "$dir/m.json"
check run.sim_port "$(cmp -s "$dir/b.json" "$dir/m.json" && echo same)" same

exit $fail
