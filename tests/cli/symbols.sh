#!/usr/bin/env bash
# Symbols, full addresses and exports (docs/formats.md "Symbols", "Exports"):
#  1. a C program built here with -g and recorded with hwprof record: the
#     hottest path of `hwprof profile --unit path` is in hot_loop() at a line
#     of hot.c inside that function, with its full (> 32-bit) address, in
#     JSON, text and CSV; `hwprof paths` and `kpaths` name it too;
#  2. the same for a RISC-V ELF (static, bare metal, riscv64-unknown-elf-gcc)
#     recorded under qemu-riscv64 (skipped without the cross compiler);
#  3. shipped traces resolve through their load maps (or, where the ELF file
#     is absent or another build, degrade to object+0xoff with a note), a
#     missing map gives bare addresses, --no-symbols drops the fields, and
#     nothing fails;
#  4. exports parsed as the receiving tools parse them (check_exports.py):
#     --format csv (Python csv), folded stacks of call paths and k-iteration
#     paths (flamegraph.pl's line rule; counts sum to the trace's instructions
#     and the k-IPF's root counts), SimPoint's frequency-vector file.
set -euo pipefail
hwprof=$1
traces=$2
here=$(cd "$(dirname "$0")" && pwd)
chk="python3 $here/symbols/check_exports.py"
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_sym.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want '$3'"; fail=1; fi
}
has() {  # name haystack needle
  if grep -qF -- "$3" <<<"$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in: $2"; fail=1; fi
}

cp "$here/symbols/hot.c" "$dir/hot.c"
begin=$(grep -n HOT_BEGIN "$dir/hot.c" | cut -d: -f1)
end=$(grep -n HOT_END "$dir/hot.c" | cut -d: -f1)

# checks the hottest path of a recorded program: prog isa
hot_path() {
  local t=$1 name=$2
  local j
  j=$("$hwprof" -q profile --unit path --json "$t")
  local sym file line full start
  sym=$(jq -r '.paths[0].sym' <<<"$j")
  file=$(jq -r '.paths[0].file // ""' <<<"$j")
  line=$(jq -r '.paths[0].line // 0' <<<"$j")
  full=$(jq -r '.paths[0].start_full' <<<"$j")
  start=$(jq -r '.paths[0].start' <<<"$j")
  has "$name: hottest path in hot_loop" "$sym" "$(basename "${t%%.hwpt.zst}")!hot_loop"
  check "$name: source file" "$(basename "$file")" "hot.c"
  if [ "$line" -ge "$begin" ] && [ "$line" -le "$end" ]; then echo "ok   $name: line $line in hot_loop ($begin-$end)"
  else echo "FAIL $name: line $line not in $begin-$end"; fail=1; fi
  check "$name: start_full folds to start" "$(python3 -c "print('%x' % (int('$full', 16) & 0xffffffff))")" "$start"
  check "$name: symbols enabled" "$(jq -r '.symbols.enabled' <<<"$j")" "true"
  local txt
  txt=$("$hwprof" -q profile --unit path --top 1 "$t")
  has "$name: text report names function and line" "$txt" "hot_loop+0x"
  has "$name: text report full address" "$txt" " $full "
  has "$name: text report source" "$txt" "hot.c:$line"
}

# 1. x86_64, PIE (qemu-user maps it above 4 GiB: full addresses matter)
gcc -O1 -g -o "$dir/hot" "$dir/hot.c"
"$hwprof" -q record -o "$dir/hot.hwpt.zst" -- "$dir/hot"
hot_path "$dir/hot.hwpt.zst" x86_64
full=$("$hwprof" -q profile --unit path --json "$dir/hot.hwpt.zst" | jq -r '.paths[0].start_full')
if [ ${#full} -gt 8 ]; then echo "ok   x86_64: full address $full is wider than 32 bits"; else echo "FAIL x86_64: $full"; fail=1; fi
has "paths: symbol" "$("$hwprof" -q paths --top 1 "$dir/hot.hwpt.zst")" "hot!hot_loop"
has "kpaths: symbol" "$("$hwprof" -q kpaths -k 2 --top 1 "$dir/hot.hwpt.zst")" "hot!hot_loop"
has "rap: symbols of the hot range" "$("$hwprof" -q profile --unit rap "$dir/hot.hwpt.zst")" "hot!_init .. hot!_fini"
has "phase: symbol" "$("$hwprof" -q profile --unit phase --detector bbv --interval 100000 --show 3 "$dir/hot.hwpt.zst")" \
  "hot!hot_loop"

# --no-symbols: full addresses, no symbol fields
j=$("$hwprof" -q profile --unit path --no-symbols --json "$dir/hot.hwpt.zst")
check "--no-symbols: no sym field" "$(jq '[.paths[] | has("sym")] | any' <<<"$j")" "false"
check "--no-symbols: start_full kept" "$(jq -r '.paths[0].start_full' <<<"$j")" "$full"
if "$hwprof" -q profile --unit path --no-symbols --top 3 "$dir/hot.hwpt.zst" | grep -q hot_loop; then
  echo "FAIL --no-symbols: text names a symbol"; fail=1; else echo "ok   --no-symbols: text has no symbols"; fi

# 2. RISC-V (static ELF, bare metal)
if command -v riscv64-unknown-elf-gcc >/dev/null && command -v qemu-riscv64 >/dev/null; then
  riscv64-unknown-elf-gcc -DBARE -O1 -g -nostdlib -static -march=rv64gc -mabi=lp64d -o "$dir/hot_rv" "$dir/hot.c"
  "$hwprof" -q record --isa riscv64 -o "$dir/hot_rv.hwpt.zst" -- "$dir/hot_rv"
  hot_path "$dir/hot_rv.hwpt.zst" riscv64
else
  echo "skip riscv64: no riscv64-unknown-elf-gcc / qemu-riscv64"
fi

# 3. shipped traces: symbols through their load maps, or graceful fallback
for name in gzip sqlite3; do
  t="$traces/$name.hwpt.zst"
  j=$("$hwprof" -q profile --unit path --json --top 5 "$t")
  obj=$(jq -r '.paths[0].sym' <<<"$j")
  host=$(python3 -c "import json,sys; m=json.load(open('$t.map')); print(m['objects'][0]['host_path'])")
  check "$name: map used" "$(jq -r '.symbols.map' <<<"$j")" "$t.map"
  # The object is named whether or not its file is on this machine.
  if [[ "$obj" =~ ^[A-Za-z0-9_.+-]+(!|\+0x) ]]; then echo "ok   $name: hottest path $obj"
  else echo "FAIL $name: hottest path '$obj' names no object"; fail=1; fi
  if [ ! -e "$host" ]; then
    has "$name: note for the missing ELF" "$(jq -c '.symbols.notes' <<<"$j")" "$host"
  fi
done
# sqlite3's hottest path lies in ld.so's _dl_lookup_symbol_x (an exported
# symbol of ld.so, so present in any build) when the same ld.so is installed
if jq -e '.symbols.notes | length == 0' <<<"$("$hwprof" -q profile --unit path --json --top 1 "$traces/sqlite3.hwpt.zst")" >/dev/null; then
  has "sqlite3: ld.so symbol" "$("$hwprof" -q profile --unit path --top 1 "$traces/sqlite3.hwpt.zst")" \
    "ld-linux-x86-64.so.2!_dl_lookup_symbol_x"
fi
# a map whose files are gone, another build, no map at all: reports still run
cp "$traces/gzip.hwpt.zst" "$dir/gz.hwpt.zst"
python3 - "$traces/gzip.hwpt.zst.map" "$dir/gz.hwpt.zst.map" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["objects"][0]["host_path"] = "/nonexistent/gzip"
m["objects"][1]["build_id"] = "00" * 20
json.dump(m, open(sys.argv[2], "w"))
PY
j=$("$hwprof" -q profile --unit path --json --top 3 "$dir/gz.hwpt.zst")
check "missing ELF: object+offset" "$(jq -r '.paths[0].sym' <<<"$j")" \
  "gzip+0x$(python3 -c "print('%x' % (int('$(jq -r '.paths[0].start_full' <<<"$j")', 16) - 0x4000000000))")"
has "missing ELF: note" "$(jq -c '.symbols.notes' <<<"$j")" "/nonexistent/gzip: cannot open"
out=$("$hwprof" profile --unit path --top 3 --json "$dir/gz.hwpt.zst" 2>&1 >/dev/null)
has "missing ELF: one-line note on stderr" "$out" "hwprof: note: symbols: /nonexistent/gzip"
j=$("$hwprof" -q paths --json --top 400 "$dir/gz.hwpt.zst")
has "other build: note" "$(jq -c '.symbols.notes' <<<"$j")" "differs from the recorded"
rm "$dir/gz.hwpt.zst.map"
j=$("$hwprof" -q profile --unit path --json --top 3 "$dir/gz.hwpt.zst")
check "no map: bare address" "$(jq -r '.paths[0].sym' <<<"$j")" "0x$(jq -r '.paths[0].start_full' <<<"$j")"
check "no map: symbols off" "$(jq -r '.symbols.enabled' <<<"$j")" "false"
# two full addresses that fold to one 32-bit value: the lowest, marked
cat > "$dir/amb.trace" <<'T'
#hwprof-trace v1 isa=x86_64
call 50 100000100 1 5 3 0
br 100000124 100000110 1 4 4 0
br 100000124 100000110 0 4 4 0
ret 100000130 55 1 1 1 0
call 60 200000100 1 5 3 0
br 200000124 200000110 1 4 4 0
br 200000124 200000110 0 4 4 0
ret 200000130 65 1 1 1 0
T
j=$("$hwprof" -q paths --json "$dir/amb.trace")
check "ambiguous: lowest full address, candidates" \
  "$(jq -c '[.paths[] | select(.start == "110")][0] | [.start_full, .start_ambiguous]' <<<"$j")" '["100000110",2]'
has "ambiguous: note" "$(jq -c '.symbols.notes' <<<"$j")" "stand for more than one full address"
has "ambiguous: text marks it" "$("$hwprof" -q paths "$dir/amb.trace")" "100000110?"

# 4. exports
t="$dir/hot.hwpt.zst"
"$hwprof" -q profile --unit path --json "$t" > "$dir/p.json"
"$hwprof" -q profile --unit path --format csv "$t" > "$dir/p.csv"
$chk csv "$dir/p.json" "$dir/p.csv" start start_full length dirs count=acc sym file line || fail=1
"$hwprof" -q paths --json "$t" > "$dir/q.json"
"$hwprof" -q paths --format csv "$t" > "$dir/q.csv"
$chk csv "$dir/q.json" "$dir/q.csv" start start_full length dirs count insns events sym file line || fail=1
"$hwprof" -q profile --unit rap --json "$t" > "$dir/r.json"
"$hwprof" -q profile --unit rap --format csv "$t" > "$dir/r.csv"
$chk csv "$dir/r.json" "$dir/r.csv" prefix last prefix_full last_full depth carry subtree level sym sym_last || fail=1
"$hwprof" -q profile --unit phase --detector bbv --interval 100000 --json "$t" > "$dir/f.json"
"$hwprof" -q profile --unit phase --detector bbv --interval 100000 --format csv "$t" > "$dir/f.csv"
$chk csv "$dir/f.json" "$dir/f.csv" phase predicted hot_block_full=hot_block hot_sym || fail=1
# folded call paths: weights = every instruction of the trace's branch records
insns=$("$hwprof" -q trace info --json "$t" | jq '.instructions')
"$hwprof" -q paths --top 1 --folded "$dir/calls.folded" "$t" > /dev/null
heavy=$($chk folded "$dir/calls.folded" "$insns") || { echo "$heavy"; fail=1; }
echo "$heavy" | head -1
has "call paths: main -> hot_loop" "$(tail -1 <<<"$heavy")" "hot!main;hot!hot_loop"
# folded k-iteration paths: counts sum to the roots' counts
"$hwprof" -q kpaths -k 3 --json "$t" > "$dir/k.json"
"$hwprof" -q kpaths -k 3 --folded "$dir/k.folded" "$t" > /dev/null
roots=$(jq '[.roots[].count] | add' "$dir/k.json")
heavy=$($chk folded "$dir/k.folded" "$roots") || { echo "$heavy"; fail=1; }
echo "$heavy" | head -1
has "k-paths: hottest 3-path in hot_loop" "$(tail -1 <<<"$heavy")" "hot!hot_loop+0x"
"$hwprof" -q kpaths -k 3 --format csv --top 5 "$t" > "$dir/k.csv"
check "kpaths csv: header" "$(head -1 "$dir/k.csv" | tr -d '\r')" "rank,count,share_parent,share_root,ids,frames"
# SimPoint frequency vectors
n=$(jq '.summary.intervals' "$dir/f.json")
"$hwprof" -q profile --unit phase --detector bbv --interval 100000 --simpoint "$dir/hot.bb" "$t" > /dev/null
$chk simpoint "$dir/hot.bb" "$n" 100000 || fail=1
ids=$(python3 -c "import re; print(max(int(a) for a in re.findall(r':(\d+):\d+', open('$dir/hot.bb').read())))")
check "simpoint: FILE.blocks names every id" "$(grep -vc '^#' "$dir/hot.bb.blocks" | awk -v m="$ids" '{print ($1 >= m)}')" "1"

# 5. hwprof report: one self-contained page with every section filled
"$hwprof" -q report -o "$dir/report.html" "$t"
python3 - "$dir/report.html" <<'PY' || fail=1
import re, sys
from html.parser import HTMLParser
html = open(sys.argv[1]).read()
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.ids = {}; self.cur = None; self.ext = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section": self.cur = a.get("id"); self.ids[self.cur] = {"rows": 0, "rects": 0, "text": ""}
        if self.cur and tag == "tr": self.ids[self.cur]["rows"] += 1
        if self.cur and tag == "rect": self.ids[self.cur]["rects"] += 1
        for k in ("src", "href"):
            if k in a and re.match(r"(https?:)?//", a[k] or ""): self.ext.append(a[k])
    def handle_endtag(self, tag):
        if tag == "section": self.cur = None
    def handle_data(self, d):
        if self.cur: self.ids[self.cur]["text"] += d
p = P(); p.feed(html)
bad = []
for sec, rows, rects in (("summary", 5, 0), ("hot-paths", 3, 0), ("rap", 2, 1), ("phases", 2, 3)):
    s = p.ids.get(sec)
    if not s or s["rows"] < rows or s["rects"] < rects: bad.append(f"section {sec}: {s and (s['rows'], s['rects'])}")
if "hot!hot_loop" not in p.ids.get("hot-paths", {}).get("text", ""): bad.append("hot paths do not name hot!hot_loop")
if "hot.c:" not in p.ids.get("hot-paths", {}).get("text", ""): bad.append("hot paths give no source line")
if p.ext: bad.append(f"external resources: {p.ext}")
if bad: print("FAIL report: " + "; ".join(bad)); sys.exit(1)
print("ok   report: summary, hot paths (hot!hot_loop, hot.c:N), RAP icicle, phase timeline; no external resource")
PY
cp "$dir/report.html" "${REPORT_OUT:-/dev/null}" 2>/dev/null || true
exit $fail
