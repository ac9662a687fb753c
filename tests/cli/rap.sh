#!/usr/bin/env bash
# hwprof profile --unit rap (docs/cli.md, docs/rap_engine.md): bad options
# give clear errors; --buffer 0 on a hand-made val stream gives the tree of
# spec 4.1 traced by hand (and --buffer 1 the buffered one); model and RTL
# JSON are identical on a shipped trace; the plot is written.
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_rap.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
t=$traces/bzip2.hwpt.zst

bad() {  # bad NAME EXPECTED-SUBSTRING ARGS...
  local name=$1 want=$2; shift 2
  local out rc
  out=$("$hwprof" -q profile --unit rap "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "FAIL $name: exited 0"; fail=1; return; fi
  if ! grep -qF -- "$want" <<<"$out"; then echo "FAIL $name: message lacks '$want': $out"; fail=1; return; fi
  echo "ok   $name: $(head -1 <<<"$out")"
}
bad eps-one "--eps 1" --eps 1 "$t"
bad eps-negative "--eps -0.1" --eps -0.1 "$t"
bad buffer-big "--buffer 9" --buffer 9 "$t"
bad nodes-zero "--nodes 0" --nodes 0 "$t"
bad nodes-rtl "at most 512" --engine rtl --nodes 513 "$t"
bad merge-first "--merge-first 0" --merge-first 0 "$t"
bad source "--source x" --source x "$t"
bad no-val "no val records" --source val "$t"
bad hot "--hot 1.5" --hot 1.5 "$t"
bad tcam-slice "--tcam-slice 3" --tcam-slice 3 "$t"
bad tcam-slice-rtl "the RTL build has TcamSlice 4" --engine rtl --tcam-slice 0 "$t"

# Hand-made value stream, W = 32, eps = 1/2: T(n) = floor(32768 n / (65536 * 16)) = floor(n / 32).
# Raw stream (--buffer 0): val 0 -> root = 1 > T(1) = 0: split; val 0 -> 00000000/1 = 1 > 0: split.
# Buffered (--buffer 1): one pair (0, 2) -> root = 2 > 0: split, nothing more.
printf '#hwprof-trace v1 isa=x86_64\nval 0 1\nval 0 1\n' >"$dir/v.trace"
nodes() { "$hwprof" -q profile --unit rap --source val --eps 0.5 "$@" --json "$dir/v.trace" |
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["n"], " ".join("%s/%d=%d" % (x["prefix"], x["depth"], x["count"]) for x in j["nodes"]))'; }
want0="2 00000000/0=1 00000000/1=1 00000000/2=0 10000000/2=0 20000000/2=0 30000000/2=0 40000000/1=0 80000000/1=0 c0000000/1=0"
want1="2 00000000/0=2 00000000/1=0 40000000/1=0 80000000/1=0 c0000000/1=0"
for eng in model rtl; do
  got=$(nodes --buffer 0 --engine $eng)
  if [ "$got" != "$want0" ]; then echo "FAIL buffer0-$eng: $got"; fail=1; else echo "ok   buffer0-$eng"; fi
  got=$(nodes --buffer 1 --engine $eng)
  if [ "$got" != "$want1" ]; then echo "FAIL buffer1-$eng: $got"; fail=1; else echo "ok   buffer1-$eng"; fi
done

# Model and RTL JSON identical on a shipped trace (code profile, defaults), plot written.
"$hwprof" -q profile --unit rap --engine model --json --plot "$dir/p.svg" "$t" >"$dir/m.json" || { echo "FAIL model run"; fail=1; }
"$hwprof" -q profile --unit rap --engine rtl --json "$t" >"$dir/r.json" || { echo "FAIL rtl run"; fail=1; }
if cmp -s "$dir/m.json" "$dir/r.json" && [ -s "$dir/m.json" ]; then echo "ok   model-json == rtl-json"; else echo "FAIL model and RTL JSON differ"; fail=1; fi
if grep -q "<svg" "$dir/p.svg" 2>/dev/null; then echo "ok   plot"; else echo "FAIL plot not written"; fail=1; fi
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["n"] == sum(x["count"] for x in j["nodes"]) and all(set(x) >= {"prefix","depth","count"} for x in j["nodes"])' "$dir/m.json" \
  && echo "ok   json keys, n = sum of counts" || { echo "FAIL json format"; fail=1; }
# The TCAM variant changes cycles only: the same tree; the flip-flop TCAM (0)
# saves exactly 17 TWR cycles per split of the default (4-bit slices).
"$hwprof" -q profile --unit rap --engine model --tcam-slice 0 --json "$t" >"$dir/m0.json" || { echo "FAIL tcam0 run"; fail=1; }
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["nodes"] == b["nodes"] and a["stats"]["stall_tcam"] == 0 and b["stats"]["stall_tcam"] == 17 * b["stats"]["splits"] and b["stats"]["cycles"] > a["stats"]["cycles"], (a["stats"], b["stats"])' "$dir/m0.json" "$dir/m.json" \
  && echo "ok   tcam-slice 0 vs 4: same tree, 17 TWR cycles per split" || { echo "FAIL tcam-slice cycles"; fail=1; }
# Text report.
"$hwprof" -q profile --unit rap "$t" | grep -q "events/clock" && echo "ok   text report" || { echo "FAIL text report"; fail=1; }

# The shipped real value stream (tests/traces/val/gzip_mem.hwpt.zst, scripts/record_val_trace.sh:
# gzip's data addresses, one val record of weight 1 per access; about 5 s for the RTL):
# model and RTL JSON identical, n = the number of val records (from trace info, not from RAP),
# and --source code refuses a trace without branch records.
v=$traces/val/gzip_mem.hwpt.zst
"$hwprof" -q profile --unit rap --source val --engine model --json "$v" >"$dir/vm.json" || { echo "FAIL val model run"; fail=1; }
"$hwprof" -q profile --unit rap --source val --engine rtl --json "$v" >"$dir/vr.json" || { echo "FAIL val rtl run"; fail=1; }
if cmp -s "$dir/vm.json" "$dir/vr.json" && [ -s "$dir/vm.json" ]; then echo "ok   val: model-json == rtl-json"; else echo "FAIL val: model and RTL JSON differ"; fail=1; fi
"$hwprof" trace info --json "$v" >"$dir/vi.json" || { echo "FAIL val trace info"; fail=1; }
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); i=json.load(open(sys.argv[2])); r=i["kinds"]["val"]; assert r > 0 and r == i["records"] and j["n"] == r == j["stats"]["events"] == sum(x["count"] for x in j["nodes"]), (j["n"], r)' "$dir/vm.json" "$dir/vi.json" \
  && echo "ok   val: n = val records = sum of counts" || { echo "FAIL val: n differs from the val record count"; fail=1; }
bad val-as-code "fewer than two branch records" --source code "$v"
exit $fail
