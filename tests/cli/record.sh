#!/usr/bin/env bash
# hwprof record end to end on a small real program: the trace validates, the
# load map is written, --max-insns stops early with a valid trace, and a
# program that cannot run leaves no file behind.
set -euo pipefail
hwprof=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_rec.XXXXXX")
trap 'rm -rf "$dir"' EXIT
printf 'hello hwprof\n' > "$dir/in.txt"
"$hwprof" -q record -o "$dir/cat.hwpt.zst" -- /bin/cat "$dir/in.txt" > "$dir/out.txt"
cmp "$dir/in.txt" "$dir/out.txt"    # the program ran normally under the recorder
"$hwprof" -q trace validate "$dir/cat.hwpt.zst"
[ -s "$dir/cat.hwpt.zst.map" ] || { echo "FAIL: no load map"; exit 1; }
n=$("$hwprof" -q trace info --json "$dir/cat.hwpt.zst" | python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])')
[ "$n" -gt 10000 ] || { echo "FAIL: only $n instructions"; exit 1; }
echo "ok   record /bin/cat: $n instructions"
"$hwprof" -q record --max-insns 20000 -o "$dir/short.trace" -- /bin/cat "$dir/in.txt" > /dev/null
m=$("$hwprof" -q trace info --json "$dir/short.trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])')
[ "$m" -le 20000 ] && [ "$m" -gt 15000 ] || { echo "FAIL: --max-insns 20000 gave $m"; exit 1; }
echo "ok   --max-insns 20000: $m instructions"
if "$hwprof" -q record -o "$dir/none.hwpt" -- "$dir/does-not-exist" 2>/dev/null; then echo "FAIL: recorded a missing program"; exit 1; fi
if ls "$dir"/none.hwpt* >/dev/null 2>&1; then echo "FAIL: files left behind"; exit 1; fi
echo "ok   missing program: error, no file left"
