#!/usr/bin/env bash
# Memory aliasing by abstract execution end to end (docs/analyses.md,
# "Memory aliasing"; docs/formats.md, "Alias side file"):
#  1. hwprof fabricate writes OUT.alias: one tracelet line per tracelet, its
#     instruction count = the tracelet's record instructions, pairs inside
#     it, totals = the report's; same seed = identical file; none without
#     --aliases;
#  2. hwprof critpath --aliases uses them (memory edges reported); a file of
#     another trace, a trace that is not fabricated, --no-mem-deps with it,
#     a damaged file are refused;
#  3. real addresses (valgrind lackey on a small program): the alias
#     tracker equals brute force on the first 20,000 instructions, and the
#     abstract execution of the same stream reproduces the real alias
#     profile (M_a) above a floor (skipped without valgrind).
# Exits 77 (skipped) if this machine's ELF files are not the shipped maps'.
set -uo pipefail
hwprof=$1
traces=$2
bench=${3:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_alias.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
t="$traces/gzip.hwpt.zst"

# 1. fabricate with aliases
if ! out=$("$hwprof" -q fabricate --from "$t" --tracelets 200 --seed 3 -o "$dir/a.hwpt.zst" --aliases --report --json 2>&1); then
  if grep -q "not the file that ran" <<<"$out"; then echo "skipped: $out"; exit 77; fi
  echo "FAIL fabricate gzip: $out"; exit 1
fi
echo "$out" > "$dir/a.json"
al="$dir/a.hwpt.zst.alias"
check "alias header" "$(head -1 "$al")" "#hwprof-alias v1 tracelets=200"
check "one tracelet line per tracelet, in order" "$(awk '$1=="t"{if ($2!=n) bad=1; n++} END{print n, bad+0}' "$al")" "200 0"
# tracelet i's INSNS = the insns of its records (the trace's records cut by the map's layout)
"$hwprof" -q trace cat "$dir/a.hwpt.zst" | awk 'NR>1 && $1!="val"{print $6}' > "$dir/insns"
jq -r '.fabricated.tracelet_records[]' "$dir/a.hwpt.zst.map" > "$dir/layout"
want=$(awk 'FNR==NR{lay[n++]=$1; next} {s+=$1; if (++k==lay[t+0]) {printf "%d ", s; s=0; k=0; t++}}' "$dir/layout" "$dir/insns")
got=$(awk '$1=="t"{printf "%d ", $5}' "$al")
check "tracelet instructions = their records' insns" "$got" "$want"
check "pairs inside their tracelet, loads ascending, counts as the t lines" \
  "$(awk '$1=="t"{if (left) bad=1; left=$3; n=$5; last=-1; next} /^#/{next} {if (!($2<$1 && $1<n && $1>last)) bad=1; last=$1; left--; p++} END{print bad+0, left+0}' "$al")" "0 0"
check "report totals = file" "$(jq -c '[.aliases.pairs, .aliases.memory_insns]' "$dir/a.json")" \
  "$(awk '$1=="t"{p+=$3; m+=$4} END{printf "[%d,%d]", p, m}' "$al")"
pairs=$(jq '.aliases.pairs' "$dir/a.json")
if [ "$pairs" -gt 1000 ]; then echo "ok   $pairs aliasing loads in 200 tracelets"; else echo "FAIL only $pairs aliasing loads"; fail=1; fi
"$hwprof" -q fabricate --from "$t" --tracelets 200 --seed 3 -o "$dir/b.hwpt.zst" --aliases
# (line 2, a comment, names the trace)
if cmp -s <(sed 2d "$al") <(sed 2d "$dir/b.hwpt.zst.alias"); then echo "ok   same seed, same alias file"
else echo "FAIL alias file differs"; fail=1; fi
"$hwprof" -q fabricate --from "$t" --tracelets 20 --seed 3 -o "$dir/c.hwpt.zst"
if [ ! -e "$dir/c.hwpt.zst.alias" ]; then echo "ok   without --aliases none is written"; else echo "FAIL no --aliases"; fail=1; fi

# 2. critpath with them
j=$("$hwprof" -q critpath "$dir/a.hwpt.zst" --aliases "$al" --json)
got=$(jq -c '[.config.mem_dep_source, (.summary.critical_path.mem_edges > 0)]' <<<"$j")
check "critpath --aliases: source, memory edges on the path" "$got" '["aliases",true]'
j2=$("$hwprof" -q critpath "$dir/a.hwpt.zst" --json)
check "critpath default: the expression rule" "$(jq -r '.config.mem_dep_source' <<<"$j2")" "expression"
j3=$("$hwprof" -q critpath "$dir/a.hwpt.zst" --no-mem-deps --json)
check "no memory dependences: no memory edges" "$(jq '.summary.critical_path.mem_edges' <<<"$j3")" "0"
bad() {  # name message-fragment args...
  local name=$1 msg=$2; shift 2
  local o; o=$("$hwprof" -q critpath "$@" -o "$dir/x.json" 2>&1)
  if [ $? -ne 0 ] && grep -q -- "$msg" <<<"$o" && [ ! -e "$dir/x.json" ]; then echo "ok   refused: $name"
  else echo "FAIL $name: $o"; fail=1; fi
}
bad "another trace's file" "has 200 tracelets, the trace 20" "$dir/c.hwpt.zst" --aliases "$al"
bad "not a fabricated trace" "is not a fabricated trace" "$t" --aliases "$al"
bad "with --no-mem-deps" "exclude each other" "$dir/a.hwpt.zst" --aliases "$al" --no-mem-deps
sed '3s/^t 0 \([0-9]*\) /t 0 9999 /' "$al" > "$dir/d.alias"
bad "damaged file" "another number of pairs" "$dir/a.hwpt.zst" --aliases "$dir/d.alias"
bad "missing file" "cannot open the alias file" "$dir/a.hwpt.zst" --aliases "$dir/none.alias"

# 3. real addresses
if [ -n "$bench" ] && command -v valgrind >/dev/null && command -v gzip >/dev/null; then
  head -c 20000 "$traces/inputs/GPL-2" > "$dir/in.txt"
  env -i PATH=/usr/bin:/bin LANG=C LC_ALL=C valgrind -d --tool=lackey --trace-mem=yes --log-fd=3 \
    gzip -6 -n -c "$dir/in.txt" 3> "$dir/lk" 2> "$dir/vgd" > /dev/null
  r=$("$bench" --lackey "$dir/lk" --vgmap "$dir/vgd" --check 20000 --max-insns 300000)
  got=$(jq -c '[.check.instructions, .check.mismatches, (.check.aliasing_loads > 1000)]' <<<"$r")
  check "alias tracker = brute force on real addresses (20,000 instructions)" "$got" "[20000,0,true]"
  ma=$(jq '.windows[0].M_a' <<<"$r")
  if jq -e '.windows[0].M_a > 85 and .windows[2].M_a > 75' <<<"$r" >/dev/null; then
    echo "ok   abstract execution vs real addresses: M_a $ma% (window 256)"
  else echo "FAIL M_a too low: $(jq -c '.windows' <<<"$r")"; fail=1; fi
  got=$(jq -c '[.study.real.agreement_with_real, (.study.none.mem_edges == 0), (.study.real.mem_edges > 0)]' <<<"$r")
  check "study: real agrees with itself; memory edges only with dependences" "$got" "[100,true,true]"
else
  echo "skip real addresses (no valgrind or bench_alias)"
fi
exit $fail
