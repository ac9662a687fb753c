#!/usr/bin/env bash
# hwprof board against the virtual ULX3S (sim/board_sc/, `hwprof_vboard
# --board ulx3s`: the board shell with the ULX3S build's units, the path
# profiler, the RAP engine at Groups 31, the DCR tracker and the BBV
# detector, Verilated with --sc, 3 Mbaud).
set -uo pipefail
hwprof=$1
vboard=$2
traces=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_vboard_ulx3s.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}

# The virtual ULX3S (path profiler, RAP engine at Groups 31, DCR tracker,
# BBV detector behind the shell; sim:ulx3s): `board run --unit all` takes the
# DCR and BBV results while the records stream, flushes and dumps the RAP
# engine; each section equals the model's report (`hwprof profile --unit U
# --engine model --json`), on a slice of every shipped trace and on a trace
# that was never shipped (a random walk over a made-up control-flow graph),
# with small options (intervals of 300 instructions, --nodes 128).
modelu() { "$hwprof" -q profile --engine model --json "$@" | sed 's/"engine": "model"/"engine": "board"/'; }
same_json() {  # file-a file-b section-of-a
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))[sys.argv[3]]; print("same" if a==json.load(open(sys.argv[2])) else "diff")' "$@"
}
"$vboard" --board ulx3s --baud 3000000 > "$dir/pts" 2> "$dir/vboard.err" &
pid=$!
for _ in $(seq 200); do grep -q . "$dir/pts" 2>/dev/null && break; sleep 0.05; done
pts=$(head -1 "$dir/pts")
"$hwprof" board info --port "$pts" --baud 3000000 --timeout 5000 --json > "$dir/info.json"
check ulx3s.info "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["board"], j["baud"], [(u["kind"], u["params"]) for u in j["units"]])' "$dir/info.json")" \
  "ulx3s 3000000 [('path', [4, 16, 32, 128, 4, 32]), ('rap', [32, 31, 1024, 8, 4, 40, 4]), ('dcr', [32, 64, 256, 1000000]), ('bbv', [32, 10, 32, 256, 1000000, 128])]"
python3 - "$dir/made_up.trace" <<'PY'
import random, sys
# 48 blocks at made-up addresses; each ends in a branch with a fixed target
# and a taken bias, calls and returns nest; 600 records.
r = random.Random(17)
blocks = [0x400000 + 0x40 * i + r.randrange(0, 16) for i in range(48)]
kinds = [r.choice(["br", "br", "br", "jmp", "call"]) for _ in blocks]
target = [r.randrange(0, 48) for _ in blocks]
bias = [r.random() for _ in blocks]
out = ["#hwprof-trace v1 isa=x86_64"]
b, stack = 0, []
while len(out) < 601:
    pc = blocks[b] + 0x20
    ilen, insns, events = r.choice([2, 3, 5]), r.randrange(1, 12), r.randrange(0, 4)
    k = kinds[b]
    if stack and r.random() < 0.15:
        ret = stack.pop()
        out.append("ret %x %x 1 1 %d %d" % (pc, blocks[ret], insns, events))
        b = ret
        continue
    if k == "call" and len(stack) < 6:
        stack.append((b + 1) % 48)
        out.append("call %x %x 1 %d %d %d" % (pc, blocks[target[b]], ilen, insns, events))
        b = target[b]
    elif k == "jmp":
        out.append("jmp %x %x 1 %d %d %d" % (pc, blocks[target[b]], ilen, insns, events))
        b = target[b]
    else:
        taken = r.random() < bias[b]
        out.append("br %x %x %d %d %d %d" % (pc, blocks[target[b]], taken, ilen, insns, events))
        b = target[b] if taken else (b + 1) % 48
        if not taken and blocks[b] != pc + ilen:
            # fall through to the next block: make it start there
            blocks[b] = pc + ilen
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
"$hwprof" -q trace validate "$dir/made_up.trace" > /dev/null
check ulx3s.made_up_valid $? 0
slices=""
for t in "$traces"/*.hwpt.zst; do
  n=$(basename "$t" .hwpt.zst)
  "$hwprof" -q trace cat "$t" | sed -n "1p;100000,100200p" > "$dir/$n.slice.trace"
  slices="$slices $n.slice.trace"
done
for s in $slices; do
  "$hwprof" -q board run --port "$pts" --baud 3000000 --timeout 5000 --json --unit all --nodes 128 --interval 300 \
    "$dir/$s" > "$dir/all.json"
  check "ulx3s.$s.results" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(len(j["dcr"]["intervals"]) >= 2, len(j["bbv"]["intervals"]) >= 2)' "$dir/all.json")" "True True"
  modelu --unit path "$dir/$s" > "$dir/m.json"
  check "ulx3s.$s.path" "$(same_json "$dir/all.json" "$dir/m.json" path)" same
  modelu --unit rap --nodes 128 "$dir/$s" > "$dir/m.json"
  check "ulx3s.$s.rap" "$(same_json "$dir/all.json" "$dir/m.json" rap)" same
  for d in dcr bbv; do
    modelu --unit phase --detector $d --interval 300 "$dir/$s" > "$dir/m.json"
    check "ulx3s.$s.$d" "$(same_json "$dir/all.json" "$dir/m.json" $d)" same
  done
done
kill $pid; wait $pid 2>/dev/null; pid=
# --port sim:ulx3s starts one for the run: the made-up trace.
HWPROF_VBOARD="$vboard" "$hwprof" -q board run --port sim:ulx3s --json --unit all --nodes 128 --interval 300 \
  "$dir/made_up.trace" > "$dir/all.json"
check "ulx3s.sim_port.results" "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(len(j["dcr"]["intervals"]) >= 2, len(j["bbv"]["intervals"]) >= 2)' "$dir/all.json")" "True True"
modelu --unit path "$dir/made_up.trace" > "$dir/m.json"
check "ulx3s.made_up.path" "$(same_json "$dir/all.json" "$dir/m.json" path)" same
modelu --unit rap --nodes 128 "$dir/made_up.trace" > "$dir/m.json"
check "ulx3s.made_up.rap" "$(same_json "$dir/all.json" "$dir/m.json" rap)" same
for d in dcr bbv; do
  modelu --unit phase --detector $d --interval 300 "$dir/made_up.trace" > "$dir/m.json"
  check "ulx3s.made_up.$d" "$(same_json "$dir/all.json" "$dir/m.json" $d)" same
done
exit $fail
