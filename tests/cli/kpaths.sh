#!/usr/bin/env bash
# hwprof kpaths end to end (docs/analyses.md, "k-iteration path profiling"):
#  1. the paper's example (002 Fig. 3, k = 4) through --ids gives the 4-IPF
#     written out by hand, in JSON and in the text report; pruning; markers;
#  2. on a shipped trace, the model and the RTL engine give identical
#     profiles, and the 1-IPF level equals `hwprof paths` (ids = ranks);
#  3. bad input and bad options get clear errors.
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_kpaths.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
strip='def s: {id, count, children: [.children[] | s]}; [.roots[] | s]'

# 1. Sigma of 002 Fig. 3 (one activation), over two lines.
printf '*  6 2 0 0 2 2\n0 0 2 2 0 0 2 3\n' > "$dir/fig3.ids"
# By hand: roots by count, then id; children likewise. <2,0,0,2> occurs 3
# times; 1-grams 0:6 2:6 3:1 6:1.
want='[{"id":0,"count":6,"children":[{"id":0,"count":3,"children":[{"id":2,"count":3,"children":[{"id":2,"count":2,"children":[]},{"id":3,"count":1,"children":[]}]}]},{"id":2,"count":3,"children":[{"id":2,"count":2,"children":[{"id":0,"count":2,"children":[]}]},{"id":3,"count":1,"children":[]}]}]},{"id":2,"count":6,"children":[{"id":0,"count":3,"children":[{"id":0,"count":3,"children":[{"id":2,"count":3,"children":[]}]}]},{"id":2,"count":2,"children":[{"id":0,"count":2,"children":[{"id":0,"count":2,"children":[]}]}]},{"id":3,"count":1,"children":[]}]},{"id":3,"count":1,"children":[]},{"id":6,"count":1,"children":[{"id":2,"count":1,"children":[{"id":0,"count":1,"children":[{"id":0,"count":1,"children":[]}]}]}]}]'
got=$("$hwprof" -q kpaths -k 4 --ids "$dir/fig3.ids" --json | jq -c "$strip")
check "fig3 4-IPF (json)" "$got" "$want"
got=$("$hwprof" -q kpaths -k 4 --ids "$dir/fig3.ids" --json | jq -c '[.stats.items, .stats.ksf_root_lookups, .stats.ipf_levels]')
check "fig3 stream: 14 ids, 5 chunks, levels 4 6 6 6" "$got" '[14,5,[4,6,6,6]]'
# Shares of <2,0,0,2>: 3 of <2,0,0>'s 3 and of root 2's 6.
got=$("$hwprof" -q kpaths -k 4 --ids "$dir/fig3.ids" --json |
  jq -c '.roots[] | select(.id==2) | .children[] | select(.id==0) | .children[0].children[0] | [.id,.count,.share_parent,.share_root]')
check "fig3 shares of <2,0,0,2>" "$got" '[2,3,1,0.5]'
got=$("$hwprof" -q kpaths -k 4 --ids "$dir/fig3.ids" --top 1 | grep -E '^ +1 ' | head -1 | tr -s ' ')
check "fig3 hottest 4-iteration path (text)" "$got" ' 1 3 100.00% 50.00% 2 0 0 2'
# Pruning at 50% of parent or root (002 section 3.1), by hand.
want_p='[{"id":0,"count":6,"children":[{"id":0,"count":3,"children":[{"id":2,"count":3,"children":[]}]},{"id":2,"count":3,"children":[]}]},{"id":2,"count":6,"children":[{"id":0,"count":3,"children":[{"id":0,"count":3,"children":[{"id":2,"count":3,"children":[]}]}]}]},{"id":3,"count":1,"children":[]},{"id":6,"count":1,"children":[{"id":2,"count":1,"children":[{"id":0,"count":1,"children":[{"id":0,"count":1,"children":[]}]}]}]}]'
got=$("$hwprof" -q kpaths -k 4 --prune 0.5 --ids "$dir/fig3.ids" --json | jq -c "$strip")
check "fig3 pruned at 0.5" "$got" "$want_p"
# Markers separate activations: <2,1> never occurs; ids up to 2^64-1 are
# kept as written (checked on the raw JSON: jq rounds such numbers).
printf '1 2 * 1 2\n* 18446744073709551615' > "$dir/two.ids"
got=$("$hwprof" -q kpaths -k 2 --ids "$dir/two.ids" --json | jq -c "$strip")
check "markers split activations" "$got" \
  '[{"id":1,"count":2,"children":[{"id":2,"count":2,"children":[]}]},{"id":2,"count":2,"children":[]},{"id":18446744073709552000,"count":1,"children":[]}]'
got=$("$hwprof" -q kpaths -k 2 --ids "$dir/two.ids" --json | grep -c '"id": 18446744073709551615,')
check "largest id printed exactly" "$got" 1

# 2. A shipped trace: model = RTL, and level 1 = `hwprof paths`.
t="$traces/gzip.hwpt.zst"
"$hwprof" -q kpaths -k 4 --json --engine model "$t" | jq -S 'del(.engine, .stats.cycles)' > "$dir/m.json"
"$hwprof" -q kpaths -k 4 --json --engine rtl "$t" | jq -S 'del(.engine, .stats.cycles)' > "$dir/r.json"
n=$(jq '.stats.ipf_nodes' "$dir/m.json")
if [ "$n" -gt 1000 ] && cmp -s "$dir/m.json" "$dir/r.json"; then
  echo "ok   gzip k=4: model = rtl ($n k-IPF nodes)"
else
  echo "FAIL gzip k=4: model and rtl differ ($n nodes)"; diff "$dir/m.json" "$dir/r.json" | head; fail=1
fi
a=$(jq -c '[.paths[] | [.start,.length,.dirs,.count]]' "$dir/m.json")
b=$("$hwprof" -q paths --json "$t" | jq -c '[.paths[] | [.start,.length,.dirs,.count]]')
if [ "$a" = "$b" ] && [ "$(jq '.paths | length' "$dir/m.json")" -gt 100 ]; then
  echo "ok   gzip: kpaths ids and BL counts = hwprof paths rows"
else
  echo "FAIL gzip: kpaths paths table differs from hwprof paths"; fail=1
fi
got=$(jq -c '[(.roots | length) > 100, ([.roots[].count] | add) == .stats.paths]' "$dir/m.json")
check "gzip: roots cover every completed path" "$got" '[true,true]'

# 3. Bad input and options.
expect() {
  local name=$1 want=$2; shift 2
  local out
  if out=$("$hwprof" -q "$@" 2>&1); then echo "FAIL $name: exited 0"; fail=1; return; fi
  if grep -qF -- "$want" <<<"$out"; then echo "ok   $name"; else echo "FAIL $name: '$want' not in: $out"; fail=1; fi
}
printf '1 2\n3 x4 5\n' > "$dir/bad.ids"
expect bad-token "$dir/bad.ids:2: bad token 'x4' (expected a non-negative integer or '*')" kpaths -k 2 --ids "$dir/bad.ids"
printf '1 -2\n' > "$dir/neg.ids"
expect negative-id "$dir/neg.ids:1: bad token '-2'" kpaths -k 2 --ids "$dir/neg.ids"
printf '99999999999999999999\n' > "$dir/big.ids"
expect id-range "$dir/big.ids:1: id '99999999999999999999' is out of range" kpaths -k 2 --ids "$dir/big.ids"
expect missing-ids "nope.ids: cannot open" kpaths -k 2 --ids "$dir/nope.ids"
expect k-zero "-k" kpaths -k 0 --ids "$dir/fig3.ids"
expect k-missing "-k is required" kpaths --ids "$dir/fig3.ids"
expect no-input "TRACE or --ids" kpaths -k 2
expect both-inputs "excludes" kpaths -k 2 --ids "$dir/fig3.ids" "$t"
expect prune-range "--prune" kpaths -k 2 --prune 1.5 --ids "$dir/fig3.ids"
expect ids-engine "applies to a trace" kpaths -k 2 --engine rtl --ids "$dir/fig3.ids"
expect rtl-config "has no RTL build" kpaths -k 2 --engine rtl --depth 7 "$t"
expect missing-trace "nope.trace" kpaths -k 2 "$dir/nope.trace"
printf '#hwprof-trace v1 isa=x86_64\nbr 10 20 1 2 3\n' > "$dir/bad.trace"
expect bad-trace "bad.trace" kpaths -k 2 "$dir/bad.trace"
exit $fail
