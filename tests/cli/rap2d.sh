#!/usr/bin/env bash
# hwprof profile --unit rap2d (docs/cli.md, docs/rap2d.md): bad options and
# inputs give clear errors; a hand-made code x data stream gives the tree of
# rectangles traced by hand; on the shipped gzip code x data trace every hot
# rectangle's exact count (--exact, brute force) is within its bound
# (subtree <= exact <= subtree + ancestors, and exact - subtree <= eps n + K w
# without skipped splits), the text report agrees with the JSON, and the
# Fig. 13 plot is a well-formed SVG with one shaded rectangle per hot
# rectangle; the shipped load map names the code ranges (gzip+0x...). The
# engine at RangeW = 64 (docs/rap2d.md, "Engine"): its cycle model and its
# RTL give byte-identical JSON on the hand-made stream and the whole
# shipped trace.
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_rap2d.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
t=$traces/val/gzip_pcmem.hwpt.zst

bad() {  # bad NAME EXPECTED-SUBSTRING ARGS...
  local name=$1 want=$2; shift 2
  local out rc
  out=$("$hwprof" -q profile --unit rap2d "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "FAIL $name: exited 0"; fail=1; return; fi
  if ! grep -qF -- "$want" <<<"$out"; then echo "FAIL $name: message lacks '$want': $out"; fail=1; return; fi
  echo "ok   $name: $(head -1 <<<"$out")"
}
bad eps-one "--eps 1" --eps 1 "$t"
bad nodes-zero "--nodes 0" --nodes 0 "$t"
bad merge-first "--merge-first 0" --merge-first 0 "$t"
bad hot "--hot 1.5" --hot 1.5 "$t"
bad csv "--format csv" --format csv "$t"
bad nodes-rtl "at most 512" --engine rtl --nodes 513 "$t"
bad no-pc "no val records with a pc" "$traces/val/gzip_mem.hwpt.zst"
bad branches "no val records with a pc" "$traces/bzip2.hwpt.zst"

# Hand-made stream, K = 32, eps = 1/2: T(n) = floor(32768 n / (65536 * 32)) = floor(n / 64).
# Pair (code 0, data 80000000) twice: key bits 63, 62 = code 31, data 31 = 0, 1.
# Event 1: root = 1 > T(1) = 0: split. Event 2: [0,7fffffff] x [80000000,ffffffff] = 1 > 0: split into
# its four quadrants (code bit 30, data bit 30).
printf '#hwprof-trace v1 isa=x86_64\nval 80000000 1 0\nval 80000000 1 0\n' >"$dir/v.trace"
got=$("$hwprof" -q profile --unit rap2d --eps 0.5 --json "$dir/v.trace" |
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["n"], " ".join("%s-%s/%s-%s/%d=%d" % (x["code_lo"], x["code_hi"], x["data_lo"], x["data_hi"], x["depth"], x["count"]) for x in j["nodes"]))')
want="2 00000000-ffffffff/00000000-ffffffff/0=1 00000000-7fffffff/00000000-7fffffff/1=0 00000000-7fffffff/80000000-ffffffff/1=1 00000000-3fffffff/80000000-bfffffff/2=0 00000000-3fffffff/c0000000-ffffffff/2=0 40000000-7fffffff/80000000-bfffffff/2=0 40000000-7fffffff/c0000000-ffffffff/2=0 80000000-ffffffff/00000000-7fffffff/1=0 80000000-ffffffff/80000000-ffffffff/1=0"
if [ "$got" = "$want" ]; then echo "ok   hand-made tree"; else echo "FAIL hand-made tree:"; echo " got  $got"; echo " want $want"; fail=1; fi
"$hwprof" -q profile --unit rap2d --eps 0.5 --json "$dir/v.trace" >"$dir/vm.json" || { echo "FAIL hand-made model"; fail=1; }
"$hwprof" -q profile --unit rap2d --eps 0.5 --engine rtl --json "$dir/v.trace" >"$dir/vr.json" || { echo "FAIL hand-made rtl"; fail=1; }
if cmp -s "$dir/vm.json" "$dir/vr.json" && [ -s "$dir/vm.json" ]; then echo "ok   hand-made: model-json == rtl-json"; else echo "FAIL hand-made: model and RTL JSON differ"; fail=1; fi

# The whole shipped trace through the engine: the cycle model's and the
# RTL's JSON (tree, hot rectangles, counters, cycles) are identical, and the
# throughput is reported (pairs per clock).
"$hwprof" -q profile --unit rap2d --json "$t" >"$dir/m.json" || { echo "FAIL shipped model run"; fail=1; }
"$hwprof" -q profile --unit rap2d --engine rtl --json "$t" >"$dir/r.json" || { echo "FAIL shipped rtl run"; fail=1; }
if cmp -s "$dir/m.json" "$dir/r.json" && [ -s "$dir/m.json" ]; then
  echo "ok   shipped: model-json == rtl-json ($(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; print("%d pairs, %d cycles, %.4f pairs/clock" % (s["pairs"], s["cycles"], s["events_per_clock"]))' "$dir/m.json"))"
else
  echo "FAIL shipped: model and RTL JSON differ"; fail=1
fi

# The shipped trace: bounds of every hot rectangle against exact counts, at
# two settings (eps 10% with NodeCap 512; eps 1% with NodeCap 2048).
for args in "--eps 0.10 --nodes 512" "--eps 0.01 --nodes 2048 --hot 0.02"; do
  # shellcheck disable=SC2086
  if ! "$hwprof" -q profile --unit rap2d $args --exact --json --plot "$dir/fig13.svg" "$t" >"$dir/p.json"; then
    echo "FAIL shipped $args: run failed"; fail=1; continue
  fi
  # shellcheck disable=SC2086
  "$hwprof" -q profile --unit rap2d $args --exact "$t" >"$dir/p.txt" || { echo "FAIL text $args"; fail=1; }
  if python3 - "$dir/p.json" "$dir/fig13.svg" "$dir/p.txt" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
n, hot, st = j["n"], j["hot"], j["stats"]
eps = j["params"]["eps_q16"] / 65536
assert n == st["pairs"] > 100000, (n, st)
assert hot, "no hot rectangles"
assert sum(x["count"] for x in j["nodes"]) == n
assert len(j["nodes"]) == st["nodes"] <= j["params"]["nodes"]
thr = (j["params"]["eps_q16"] * n) // (65536 * 32)
for h in hot:
    ex = h["exact"]
    assert h["subtree"] <= ex <= h["subtree"] + h["ancestors"], h
    if st["splits_skipped"] == 0:
        assert ex - h["subtree"] <= h["depth"] * (thr + 1) <= eps * n + 32, h
    assert h["carry"] * 65536 > j["params"]["hot_q16"] * n, h
svg = ET.parse(sys.argv[2]).getroot()
rects = [e for e in svg.iter() if e.tag.endswith("rect") and e.get("class") == "hot"]
assert len(rects) == len(hot), (len(rects), len(hot))
txt = open(sys.argv[3]).read()
lines = [l for l in txt.splitlines() if l.lstrip().startswith("code ")]
assert len(lines) == len(hot), (len(lines), len(hot))
for l, h in zip(lines, hot):
    assert ("code %s-%s data %s-%s d%d " % (h["code_lo"], h["code_hi"], h["data_lo"], h["data_hi"], h["depth"])) in l, (l, h)
# The shipped load map (TRACE.map) places the pcs: gzip's code is named.
assert any(h.get("code_sym", "").startswith("gzip") for h in hot), [h.get("code_sym") for h in hot]
assert "gzip" in open(sys.argv[2]).read()
print("%d hot rectangles, n = %d, %d nodes" % (len(hot), n, st["nodes"]))
EOF
  then echo "ok   shipped $args: bounds hold"; else echo "FAIL shipped $args"; fail=1; fi
done
exit $fail
