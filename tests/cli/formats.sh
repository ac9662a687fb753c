#!/usr/bin/env bash
# Format round trips and reports through the CLI, on a hand-written trace and
# on every shipped real trace: text -> binary -> zstd -> text is lossless,
# `trace info --json` has the documented keys, and both engines of
# `profile --unit queue` give the same report.
set -euo pipefail
hwprof=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_fmt.XXXXXX")
trap 'rm -rf "$dir"' EXIT
traces_dir=${HWPROF_TRACES:-$(dirname "$0")/../traces}

cat > "$dir/hand.trace" <<'T'
#hwprof-trace v1 isa=x86_64
# a loop of three iterations inside a call
call 400000 400100 1 5 3 0
br	400110	400100	1	2	4	1
br 400110 400100 1 2 4 0
br 400110 400100 0 2 4 2
val 1a2b3c 3
ret 400112 400005 1 1 2 0
T
"$hwprof" -q trace validate "$dir/hand.trace"
info=$("$hwprof" -q trace info --json "$dir/hand.trace")
python3 - "$info" <<'P'
import json, sys
j = json.loads(sys.argv[1])
assert j["records"] == 6, j
assert j["instructions"] == 17, j
assert j["kinds"] == {"br": 3, "jmp": 0, "ijmp": 0, "call": 1, "icall": 0, "ret": 1, "val": 1}, j
P

roundtrip() {
  local src=$1 name=$2
  "$hwprof" -q trace cat "$src" > "$dir/$name.a.trace"
  "$hwprof" -q trace convert "$src" "$dir/$name.hwpt" 2>/dev/null
  "$hwprof" -q trace convert "$dir/$name.hwpt" "$dir/$name.hwpt.zst" 2>/dev/null
  "$hwprof" -q trace convert "$dir/$name.hwpt.zst" "$dir/$name.trace.zst" 2>/dev/null
  "$hwprof" -q trace cat "$dir/$name.trace.zst" > "$dir/$name.b.trace"
  cmp "$dir/$name.a.trace" "$dir/$name.b.trace"
  echo "ok   round trip $name ($(wc -l < "$dir/$name.a.trace") lines)"
}
roundtrip "$dir/hand.trace" hand

# Writing to a device writes in place: /dev/null stays a character device.
"$hwprof" -q trace convert "$dir/hand.trace" /dev/null 2>/dev/null
[ -c /dev/null ] || { echo "FAIL: convert replaced /dev/null"; exit 1; }
echo "ok   convert to /dev/null keeps the device"

# ChampSim import through the CLI: plain, taken conditional, plain, xz-compressed.
python3 - "$dir/cs.champsim" <<'P'
import struct, sys
def rec(ip, is_br=0, taken=0, dst=(0, 0), src=(0, 0, 0, 0), mem=0):
    return struct.pack("<QBB2B4B2Q4Q", ip, is_br, taken, *dst, *src, 0, 0, mem, 0, 0, 0)
data = rec(0x1000, mem=0x8000) + rec(0x1004, 1, 1, (26, 0), (25, 26, 0, 0)) + rec(0x0f00) + rec(0x0f04)
open(sys.argv[1], "wb").write(data)
P
xz -k -q "$dir/cs.champsim"
"$hwprof" -q trace import-champsim "$dir/cs.champsim.xz" "$dir/cs.trace" 2>/dev/null
grep -qx "br 1004 f00 1 4 2 1" "$dir/cs.trace" || { echo "FAIL: champsim import gave:"; cat "$dir/cs.trace"; exit 1; }
echo "ok   import-champsim: taken conditional with its memory event"

shopt -s nullglob
for t in "$traces_dir"/*.hwpt.zst; do
  name=$(basename "$t" .hwpt.zst)
  roundtrip "$t" "$name"
  m=$("$hwprof" -q profile --unit queue --engine model --json "$t")
  r=$("$hwprof" -q profile --unit queue --engine rtl --json "$t")
  python3 - "$m" "$r" <<'P'
import json, sys
m, r = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for k in ("overhead_percent", "retire_cycles", "occupancy", "classes"):
    assert m[k] == r[k], (k, m[k], r[k])
for k in ("records", "cycles", "enq_stall_cycles", "max_occupancy"):
    assert m["stats"][k] == r["stats"][k], (k, m["stats"][k], r["stats"][k])
assert r["stats"]["rtl_cycles"] >= r["stats"]["cycles"]
P
  echo "ok   profile --unit queue: model and rtl agree on $name"
done
