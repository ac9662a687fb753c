#!/usr/bin/env bash
# hwprof critpath end to end (docs/analyses.md, "Critical-path analysis"
# and "Per-interval CPI"):
#  1. the criticality database of a shipped trace holds its invariants
#     (critical <= dynamic, LoC and binary criticality as defined, counts
#     that add up to the summary, edge shares that add up, CPI >= 1/width);
#  2. the same seed gives identical output, another seed another one;
#  3. per-interval CPI: as many intervals as the boundary rule gives on the
#     trace's records, and their cycles add up to the whole run's;
#  4. a fabricated trace (hwprof fabricate) is analysed tracelet by tracelet;
#  5. bad inputs and options get clear errors.
# Exits 77 (skipped) if this machine's ELF files are not the ones the
# shipped traces ran (their build ids differ from the maps').
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_critpath.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
t="$traces/gzip.hwpt.zst"
N=100000

# 1. The database.
if ! out=$("$hwprof" -q critpath "$t" --seed 3 -o "$dir/a.json" --cpi-interval $N --cpi-out "$dir/a.cpi.json" --json 2>&1); then
  if grep -q "not the file that ran" <<<"$out"; then echo "skipped: $out"; exit 77; fi
  echo "FAIL critpath gzip: $out"; exit 1
fi
echo "$out" > "$dir/a.sum.json"
got=$(jq -c '[.format, .version, (.insns | length) == .summary.static_insns]' "$dir/a.json")
check "database format, one entry per static instruction" "$got" '["hwprof-critpath",1,true]'
got=$(jq '[.insns[] | select(.critical > .dynamic or .dynamic < 1)] | length' "$dir/a.json")
check "critical <= dynamic, dynamic >= 1" "$got" 0
got=$(jq '[.insns[] | select((.loc - .critical / .dynamic | fabs) > 1e-12 or (.critical_binary != (.loc > 0.125)))] | length' "$dir/a.json")
check "LoC = critical / dynamic, binary = LoC > 0.125" "$got" 0
got=$(jq -c '[([.insns[].dynamic] | add) == .summary.modelled, ([.insns[].critical] | add) == .summary.critical_dynamic,
  ([.insns[] | select(.critical_binary)] | length) == .summary.binary_critical]' "$dir/a.json")
check "counts add up to the summary" "$got" '[true,true,true]'
got=$(jq -c '.summary | [([.skipped[].insns] | add) + .modelled == .instructions,
  ([.critical_path.edges[].cycles] | add) == .critical_path.cycles,
  (([.critical_path.edges[].share] | add) - 1 | fabs) < 1e-9,
  .tracelets == ((.modelled + 999) / 1000 | floor), .skipped.mismatch.records == 0,
  .modelled > 0.99 * .instructions, .critical_path.cycles <= .tracelet_cycles]' "$dir/a.json")
check "instructions, edge shares, tracelets of 1,000" "$got" '[true,true,true,true,true,true,true]'
got=$(jq -c '.summary | [.cpi >= 0.25, .cpi < 20, .cpi_tracelets >= 0.25, .mispredicts > 0, .misses > 0,
  .cycles >= (.modelled / 4)]' "$dir/a.json")
check "CPI >= 1/width (4), events injected" "$got" '[true,true,true,true,true,true]'
if cmp -s <(jq -S 'del(.seconds)' <<<"$(jq '.summary' "$dir/a.json")") <(jq -S '.summary | del(.seconds)' "$dir/a.sum.json"); then
  echo "ok   --json summary = the database's"
else
  echo "FAIL --json summary differs from the database's"; fail=1
fi
got=$(jq -c '[(.summary.top | length), ([.summary.top[].critical] == ([.insns[].critical] | sort | reverse | .[:10])), (.summary.top[0].disasm | length > 0)]' "$dir/a.json")
check "top 10 by critical count, with disassembly" "$got" '[10,true,true]'
# Narrower machines are slower: CPI with fetch = issue = commit = 1 >= 1.
got=$("$hwprof" -q critpath "$t" --fetch 1 --issue 1 --commit 1 --json | jq '.summary.cpi >= 1')
check "1-wide machine: CPI >= 1" "$got" true
got=$("$hwprof" -q critpath "$t" --mispredict-rate 0 --miss-rate 0 --json | jq -c '.summary | [.mispredicts, .misses, .critical_path.edges["E-D"].count]')
check "no events: no mispredictions, misses, E-D edges" "$got" '[0,0,0]'
out=$("$hwprof" -q critpath "$t" --top 3)
if grep -q "^  CPI " <<<"$out" && grep -q "paper 004" <<<"$out" && [ "$(grep -c '^  0x' <<<"$out")" = 3 ]; then
  echo "ok   text report with --top 3"
else
  echo "FAIL text report: $out"; fail=1
fi

# 2. Determinism.
"$hwprof" -q critpath "$t" --seed 3 -o "$dir/b.json" >/dev/null
if cmp -s <(jq -S 'del(.summary.seconds)' "$dir/a.json") <(jq -S 'del(.summary.seconds)' "$dir/b.json"); then
  echo "ok   same seed: identical database"
else
  echo "FAIL same seed gave different databases"; fail=1
fi
"$hwprof" -q critpath "$t" --seed 4 -o "$dir/c.json" >/dev/null
if cmp -s <(jq -S 'del(.summary.seconds)' "$dir/a.json") <(jq -S 'del(.summary.seconds)' "$dir/c.json"); then
  echo "FAIL seeds 3 and 4 gave the same database"; fail=1
else
  echo "ok   another seed, another database"
fi

# 3. Per-interval CPI: the boundary rule on the records' instruction counts.
want=$("$hwprof" -q trace cat "$t" | awk -v n=$N '!/^#/ && $1 != "val" { c += $6; if (c >= b + n) { k++; b += n } } END { print k }')
got=$(jq '.cpi | length' "$dir/a.cpi.json")
check "intervals = boundary rule on the records ($want)" "$got" "$want"
got=$(jq -c '[.interval_insns, ([.cpi[] | select(. == null or . < 0.25)] | length)]' "$dir/a.cpi.json")
check "interval length, every CPI >= 1/width" "$got" "[$N,0]"
# sum over intervals of CPI x modelled instructions <= the whole run's cycles
got=$(jq -n --slurpfile c "$dir/a.cpi.json" --slurpfile s "$dir/a.json" \
  '($c[0].cpi | add) as $x | ($s[0].summary.cpi) as $all | ($x / ($c[0].cpi | length) - $all | fabs) < 0.5 * $all')
check "mean interval CPI near the whole-trace CPI" "$got" true
got=$("$hwprof" -q critpath "$t" --cpi-interval 1000000000 --cpi-out "$dir/big.json" >/dev/null && jq -c '[(.cpi | length), .tail_insns]' "$dir/big.json")
insns=$("$hwprof" -q trace info --json "$t" | jq '.instructions')
check "interval longer than the trace: none complete, all in the tail" "$got" "[0,$insns]"

# 4. A fabricated trace.
"$hwprof" -q fabricate --from "$t" --tracelets 300 --seed 2 -o "$dir/f.hwpt.zst"
if "$hwprof" -q critpath "$dir/f.hwpt.zst" -o "$dir/f.json" >/dev/null; then
  got=$(jq -c --slurpfile m "$dir/f.hwpt.zst.map" '.summary | [.tracelets >= ($m[0].fabricated.tracelet_records | map(select(. > 0)) | length), .skipped.segment_start.records == ($m[0].fabricated.tracelet_records | map(select(. > 0)) | length), .skipped.mismatch.records, .modelled > 0.97 * .instructions]' "$dir/f.json")
  check "fabricated: a tracelet per fabricated tracelet (never joined)" "$got" '[true,true,0,true]'
else
  echo "FAIL critpath on a fabricated trace"; fail=1
fi

# 5. Bad input and options.
expect() {
  local name=$1 want=$2; shift 2
  local out
  if out=$("$hwprof" -q "$@" 2>&1); then echo "FAIL $name: exited 0"; fail=1; return; fi
  if grep -qF -- "$want" <<<"$out"; then echo "ok   $name"; else echo "FAIL $name: '$want' not in: $out"; fail=1; fi
}
cp "$t" "$dir/nomap.hwpt.zst"
expect missing-map "nomap.hwpt.zst.map: cannot open: critical-path analysis needs the trace's load map" \
  critpath "$dir/nomap.hwpt.zst"
jq '.objects[0].host_path = "/nonexistent/gzip"' "$t.map" > "$dir/noelf.map"
expect missing-elf "object '/usr/bin/gzip': ELF file '/nonexistent/gzip': cannot open" critpath "$t" --map "$dir/noelf.map"
jq '.objects[0].build_id = "00112233"' "$t.map" > "$dir/badid.map"
expect build-id "but the map says 00112233" critpath "$t" --map "$dir/badid.map"
expect wrong-map "is $traces/bzip2.hwpt.zst.map the load map of" critpath "$t" --map "$traces/bzip2.hwpt.zst.map"
expect missing-trace "nope.hwpt" critpath "$dir/nope.hwpt"
printf '#hwprof-trace v1 isa=x86_64\nbr 10 20 1 2 3\n' > "$dir/bad.trace"
expect bad-trace "bad.trace:2" critpath "$dir/bad.trace"
printf '#hwprof-trace v1 isa=x86_64\nval 10 1\n' > "$dir/empty.trace"
expect no-branches "no branch records" critpath "$dir/empty.trace"
expect rob-zero "--rob: the reorder buffer needs at least 1 entry" critpath "$t" --rob 0
expect fetch-zero "--fetch: the fetch (dispatch) width must be at least 1" critpath "$t" --fetch 0
expect issue-zero "--issue: the issue width must be at least 1" critpath "$t" --issue 0
expect commit-zero "--commit: the commit width must be at least 1" critpath "$t" --commit 0
expect ports-zero "--mem-ports" critpath "$t" --mem-ports 0
expect len-zero "--tracelet-len: must be at least 1" critpath "$t" --tracelet-len 0
expect rate-big "--mispredict-rate: a rate in 0..1" critpath "$t" --mispredict-rate 1.5
expect miss-rate "--miss-rate: a rate in 0..1" critpath "$t" --miss-rate -0.1
expect rate-negative "--mispredict-rate: a rate in 0..1" critpath "$t" --mispredict-rate -0.5
expect rob-negative "--rob" critpath "$t" --rob -4
expect interval-alone "--cpi-interval: needs --cpi-out" critpath "$t" --cpi-interval 1000
expect cpi-out-alone "--cpi-out: needs --cpi-interval" critpath "$t" --cpi-out "$dir/x.json"
expect interval-zero "--cpi-out: needs --cpi-interval" critpath "$t" --cpi-interval 0 --cpi-out "$dir/x.json"
expect unwritable "-o $dir/no/such/db.json: cannot create" critpath "$t" -o "$dir/no/such/db.json"
if [ -e "$dir/x.json" ]; then echo "FAIL a failed run left output"; fail=1; fi

# Symbols of the top instructions: every entry names its object (and, where
# the ELF has symbols, its function); --no-symbols leaves bare addresses.
p="$traces/perl.hwpt.zst"
if out=$("$hwprof" -q critpath "$p" --top 5 --json 2>/dev/null); then
  got=$(echo "$out" | jq -c '[.summary.top[] | (.sym | test("^[^!+ ]+(![^ ]+)?(\\+0x[0-9a-f]+)?$"))] | all')
  check "top instructions are named object!function+0xoff" "$got" true
  got=$(echo "$out" | jq -c '[.summary.top[] | .sym | startswith("perl!")] | any')
  check "the perl interpreter's own functions are among them" "$got" true
else
  echo "FAIL critpath --json on perl: $out"; fail=1
fi
got=$("$hwprof" -q critpath "$p" --top 5 --json --no-symbols 2>/dev/null | jq -c '[.summary.top[] | .sym == .pc] | all')
check "--no-symbols: bare addresses" "$got" true
exit $fail
