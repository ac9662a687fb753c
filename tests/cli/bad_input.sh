#!/usr/bin/env bash
# Bad input through the CLI: every malformed trace gets a clear error naming
# the file, line or byte offset and field, a non-zero exit, and no output
# file (convert) and no report (profile).
set -uo pipefail
hwprof=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_bad.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
H='#hwprof-trace v1 isa=x86_64'

# expect_error NAME FILE-CONTENT-CMD EXPECTED-SUBSTRING
check() {
  local name=$1 file=$2 want=$3
  local out rc
  out=$("$hwprof" -q trace validate "$file" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "FAIL $name: validate exited 0"; fail=1; return; fi
  if ! grep -qF -- "$want" <<<"$out"; then echo "FAIL $name: message lacks '$want': $out"; fail=1; return; fi
  rm -f "$dir/out.hwpt"
  if "$hwprof" -q trace convert "$file" "$dir/out.hwpt" >/dev/null 2>&1; then echo "FAIL $name: convert exited 0"; fail=1; fi
  if ls "$dir"/out.hwpt* >/dev/null 2>&1; then echo "FAIL $name: convert left an output file"; fail=1; fi
  if "$hwprof" -q trace cat "$file" >"$dir/cat.out" 2>/dev/null; then echo "FAIL $name: cat exited 0"; fail=1; fi
  if [ -s "$dir/cat.out" ]; then echo "FAIL $name: cat printed records of an invalid trace"; fail=1; fi
  rep=$("$hwprof" -q profile --unit queue "$file" 2>/dev/null); rc=$?
  if [ $rc -eq 0 ] || [ -n "$rep" ]; then echo "FAIL $name: profile ran on an invalid trace"; fail=1; fi
  rep=$("$hwprof" -q paths "$file" 2>/dev/null); rc=$?
  if [ $rc -eq 0 ] || [ -n "$rep" ]; then echo "FAIL $name: paths ran on an invalid trace"; fail=1; fi
  echo "ok   $name: $(head -1 <<<"$out")"
}

printf '%s\nbr 1000 1010 1 4 3 0\nfoo 1000 1010 1 4 3 0\n' "$H" > "$dir/kind.trace"
check unknown-kind "$dir/kind.trace" "kind.trace:3: field 'kind': unknown kind 'foo'"
printf '%s\nbr 10g0 1010 1 4 3 0\n' "$H" > "$dir/hex.trace"
check non-hex-address "$dir/hex.trace" "hex.trace:2: field 'pc': '10g0' is not a hex number"
printf '%s\nbr 1000 1010 1 4 3\n' "$H" > "$dir/missing.trace"
check missing-field "$dir/missing.trace" "missing.trace:2: field 'events': missing field"
printf '%s\nbr 1000 1010 1 4 0 0\n' "$H" > "$dir/insns0.trace"
check insns-zero "$dir/insns0.trace" "insns0.trace:2: field 'insns': must be >= 1"
printf '%s\nbr 1000 1010 1 4 3 0\n\x01\x02garbage here\nbr 1000 1010 1 4 3 0\n' "$H" > "$dir/garbage.trace"
check record-after-garbage "$dir/garbage.trace" "garbage.trace:3: field 'kind'"
printf 'br 1000 1010 1 4 3 0\n' > "$dir/noheader.trace"
check missing-header "$dir/noheader.trace" "noheader.trace:1: missing header"
printf '#hwprof-trace v7\nbr 1000 1010 1 4 3 0\n' > "$dir/v7.trace"
check wrong-text-version "$dir/v7.trace" "unsupported trace version 'v7'"

# Binary: make a good file, then break it.
printf '%s\nbr 1000 1010 1 4 3 0\ncall 1010 2000 1 5 2 1\nret 2000 1015 1 1 7 0\nbr 1015 1000 1 2 4 0\n' "$H" > "$dir/good.trace"
"$hwprof" -q trace convert "$dir/good.trace" "$dir/good.hwpt" 2>/dev/null || { echo "FAIL cannot make good.hwpt"; exit 1; }
size=$(stat -c %s "$dir/good.hwpt")
head -c $((size - 3)) "$dir/good.hwpt" > "$dir/trunc.hwpt"
check truncated-binary "$dir/trunc.hwpt" "trunc.hwpt: byte 42: record 5: field 'end marker': unexpected end of file"
head -c 20 "$dir/good.hwpt" > "$dir/trunc2.hwpt"
check truncated-binary-mid-record "$dir/trunc2.hwpt" "unexpected end of file"
{ printf 'HWPTRACF'; tail -c +9 "$dir/good.hwpt"; } > "$dir/magic.hwpt"
check wrong-magic "$dir/magic.hwpt" "field 'magic': not an HWPT binary trace"
{ printf 'HWPTRACE\x02'; tail -c +10 "$dir/good.hwpt"; } > "$dir/ver.hwpt"
check wrong-binary-version "$dir/ver.hwpt" "field 'version': unsupported binary trace version 2"
zstd -q -c "$dir/trunc.hwpt" > "$dir/trunc.hwpt.zst"
check truncated-binary-zstd "$dir/trunc.hwpt.zst" "trunc.hwpt.zst: byte"
check nonexistent-file "$dir/nope.trace" "cannot open"

exit $fail
