#!/usr/bin/env bash
# hwprof board against the SystemC virtual board (sim/board_sc/: the board
# shell and the path profiler Verilated with --sc, a UART line model at 3
# Mbaud, a pty bridge): info reports the RTL's ID block, and `board run
# --json` on slices of two shipped traces equals `hwprof profile --unit path
# --engine model --json` (but "engine": "board"), once on a virtual board
# started by hand (its pty) and once through --port sim:virtual; then the
# virtual ULX3S (sim:ulx3s: path, RAP, DCR, BBV behind the shell) with
# --unit all equals the model unit by unit.
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

# The virtual ULX3S (path profiler, RAP engine at Groups 31, DCR tracker,
# BBV detector behind the shell; sim:ulx3s): `board run --unit all` takes the
# DCR and BBV results while the records stream, flushes and dumps the RAP
# engine; each section equals the model's report (intervals of 2000
# instructions: 2 results per unit in the slice).
modelu() { "$hwprof" -q profile --engine model --json "$@" | sed 's/"engine": "model"/"engine": "board"/'; }
same_json() {  # file-a file-b section-of-a
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))[sys.argv[3]]; print("same" if a==json.load(open(sys.argv[2])) else "diff")' "$@"
}
HWPROF_VBOARD="$vboard" "$hwprof" board info --port sim:ulx3s --json > "$dir/info.json"
check ulx3s.info "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["board"], j["baud"], [(u["kind"], u["params"]) for u in j["units"]])' "$dir/info.json")" \
  "ulx3s 3000000 [('path', [4, 16, 32, 128, 4, 32]), ('rap', [32, 31, 1024, 8, 4, 40, 4]), ('dcr', [32, 64, 256, 1000000]), ('bbv', [32, 10, 32, 256, 1000000, 128])]"
HWPROF_VBOARD="$vboard" "$hwprof" -q board run --port sim:ulx3s --json --unit all --nodes 128 --interval 2000 "$dir/gzip.trace" > "$dir/all.json"
check ulx3s.results "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(len(j["dcr"]["intervals"]), len(j["bbv"]["intervals"]))' "$dir/all.json")" "2 2"
modelu --unit path "$dir/gzip.trace" > "$dir/m.json"
check ulx3s.path "$(same_json "$dir/all.json" "$dir/m.json" path)" same
modelu --unit rap --nodes 128 "$dir/gzip.trace" > "$dir/m.json"
check ulx3s.rap "$(same_json "$dir/all.json" "$dir/m.json" rap)" same
for d in dcr bbv; do
  modelu --unit phase --detector $d --interval 2000 "$dir/gzip.trace" > "$dir/m.json"
  check "ulx3s.$d" "$(same_json "$dir/all.json" "$dir/m.json" $d)" same
done
exit $fail
