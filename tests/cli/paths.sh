#!/usr/bin/env bash
# hwprof paths end to end:
#  1. a hand-written trace (the worked example of docs/path_stack.md) gives
#     exactly the profile written out by hand, with both engines;
#  2. the model and the RTL engine give identical profiles on every shipped
#     trace, for BL, WPP and extended paths;
#  3. bad options get clear errors.
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_paths.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0

# 1. Hand-written trace: a call into 0x100 with a forward branch, a loop that
# runs three times (two iterations end at the back edge, the last falls
# out), and a return; then the same routine called again.
cat > "$dir/example.trace" <<'T'
#hwprof-trace v1 isa=x86_64
call 50 100 1 5 3 1
br 104 120 0 2 2 0
br 124 110 1 4 4 2
br 124 110 1 5 5 0
br 124 110 0 5 5 1
ret 130 55 1 2 2 0
call 60 100 1 5 1 0
br 104 120 0 2 2 0
br 124 110 1 4 4 2
br 124 110 0 5 5 1
ret 130 65 1 2 2 0
T
# By hand (Table 1): {100,2,dirs 10} x2 (insns 2+4 each, events 2 each);
# {110,1,1} x1 (5 insns); {110,1,0} x2 (5+2 insns, 1 event each). The
# caller's entry at 0x50 is incomplete and never emitted. (Columns: kind pc
# target taken ilen insns events.)
want='[{"start":"100","length":2,"dirs":"2","count":2,"insns":12,"events":4},{"start":"110","length":1,"dirs":"0","count":2,"insns":14,"events":2},{"start":"110","length":1,"dirs":"1","count":1,"insns":5,"events":0}]'
for engine in model rtl; do
  got=$("$hwprof" -q paths --json --engine $engine "$dir/example.trace" | jq -c '[.paths[] | {start,length,dirs,count,insns,events}]')
  if [ "$got" = "$want" ]; then echo "ok   example ($engine)"; else echo "FAIL example ($engine): $got"; fail=1; fi
done
# WPP (Table 2): paths also end at calls and returns.
got=$("$hwprof" -q paths --json --mode wpp "$dir/example.trace" | jq -c '[.paths[] | [.start,.length,.dirs,.count]]')
# By hand (Table 2): the first call pops the incomplete entry it created
# at 0x50 (not profiled); the return pushes {55}, which the second call pops
# as the empty path {55, 0}; the loop paths are as under BL.
want_wpp='[["100",2,"2",2],["110",1,"0",2],["55",0,"0",1],["110",1,"1",1]]'
if [ "$got" = "$want_wpp" ]; then echo "ok   example (wpp)"; else echo "FAIL example (wpp): $got"; fail=1; fi

# 2. Model and RTL agree on every shipped trace.
for t in "$traces"/*.hwpt.zst; do
  for mode in bl wpp ext; do
    "$hwprof" -q paths --json --mode $mode --engine model "$t" | jq -S 'del(.engine, .stats.cycles)' > "$dir/m.json"
    "$hwprof" -q paths --json --mode $mode --engine rtl "$t" | jq -S 'del(.engine, .stats.cycles)' > "$dir/r.json"
    n=$(jq '.paths | length' "$dir/m.json")
    if [ "$n" -gt 100 ] && cmp -s "$dir/m.json" "$dir/r.json"; then
      echo "ok   $(basename "$t") $mode: model = rtl ($n paths)"
    else
      echo "FAIL $(basename "$t") $mode: model and rtl differ ($n paths)"; diff "$dir/m.json" "$dir/r.json" | head; fail=1
    fi
  done
done

# 3. Bad options.
expect() {
  local name=$1 want=$2; shift 2
  local out
  if out=$("$hwprof" -q "$@" 2>&1); then echo "FAIL $name: exited 0"; fail=1; return; fi
  if grep -qF -- "$want" <<<"$out"; then echo "ok   $name"; else echo "FAIL $name: '$want' not in: $out"; fail=1; fi
}
expect max-ext-range "--max-ext" paths --mode ext --max-ext 4 "$dir/example.trace"
expect rtl-config "has no RTL build" paths --engine rtl --depth 7 "$dir/example.trace"
expect missing-trace "nope.trace" paths "$dir/nope.trace"
exit $fail
