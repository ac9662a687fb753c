#!/usr/bin/env bash
# Validates `hwprof record` against an independent instruction counter:
# valgrind's lackey (--trace-mem=yes prints one "I addr,size" line per executed
# instruction) runs the same program on the same input in the same
# environment as scripts/record_traces.sh. Compared, per ELF object:
#   * executed instructions (hwprof: sum of the records' insns, attributed by
#     the load map; lackey: I lines in the object's executable mapping, with
#     consecutive repeats of one address merged, because lackey prints a
#     rep-prefixed string instruction once per iteration plus once more);
#   * executions of every static branch (hwprof: records at that pc; lackey: I
#     lines at the same file offset of the same object).
# Where the counts of the program's own branches differ, the first few are
# counted natively with gdb breakpoints (hit counts) to tell which tool is
# right. docs/recorder.md ("Validation") explains the expected differences.
#
# usage: scripts/check_recorder.sh [HWPROF] [NAME...]   (NAME: gzip bzip2 sqlite3 perl)
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
hwprof=${HWPROF:-$root/build/host/cli/hwprof}
if [[ $# -gt 0 && -f $1 ]]; then
  hwprof=$1
  shift
fi
[[ -x $hwprof ]] || { echo "check_recorder.sh: hwprof binary not found: $hwprof" >&2; exit 2; }
hwprof=$(cd "$(dirname "$hwprof")" && pwd)/$(basename "$hwprof")
for tool in valgrind jq qemu-x86_64; do
  command -v "$tool" >/dev/null || { echo "check_recorder.sh: $tool is required" >&2; exit 2; }
done
names=("$@")
[[ ${#names[@]} -gt 0 ]] || names=(gzip bzip2 sqlite3 perl)
inputs=$root/tests/traces/inputs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hwprof-check.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$tmp"' EXIT

base_env=(env -i PATH=/usr/bin:/bin LANG=C LC_ALL=C HOME=/nonexistent TERM=dumb)

# awk helpers (mawk has no strtonum; doubles hold the 40-bit addresses exactly)
read -r -d '' AWKLIB <<'EOF' || true
function hex2num(s,   i, n) {
  n = 0; s = tolower(s); sub(/^0x/, "", s)
  for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return n
}
function base(p) { sub(/.*\//, "", p); return p }
EOF

# hwprof side: text trace + map ranges -> "O obj insns" and "B obj offset count".
hwprof_counts() {  # MAP TRACE
  jq -r '.objects[] | .host_path as $p | .ranges[] | select(.prot | test("x")) | "\($p) \(.start) \(.end) \(.offset)"' "$1" |
    awk "$AWKLIB"'
      FNR == NR { n++; obj[n] = base($1); lo[n] = hex2num($2); hi[n] = hex2num($3); off[n] = hex2num($4); next }
      /^#/ { next }
      { cnt[$2]++; ins[$2] += $6 }
      END {
        for (pc in cnt) {
          a = hex2num(pc); o = "?"; f = 0
          for (i = 1; i <= n; i++) if (a >= lo[i] && a < hi[i]) { o = obj[i]; f = a - lo[i] + off[i]; break }
          tot[o] += ins[pc]
          printf "B %s %.0f %d\n", o, f, cnt[pc]
        }
        for (o in tot) printf "O %s %.0f\n", o, tot[o]
      }' - "$2"
}

# lackey side: valgrind log -> "R raw merged" "O obj insns" "E obj offset count".
lackey_counts() {
  awk "$AWKLIB"'
    /^------ name = / { name = base($4); next }
    /^rx_map:/ { if (name != "") { n++; obj[n] = name; lo[n] = hex2num($3); hi[n] = lo[n] + $5; off[n] = $7; name = "" } next }
    /^I / { raw++; a = substr($2, 1, index($2, ",") - 1); if (a == prev) next; prev = a; cnt[a]++; next }
    END {
      for (pc in cnt) {
        x = hex2num(pc); o = "?"; f = 0; merged += cnt[pc]
        for (i = 1; i <= n; i++) if (x >= lo[i] && x < hi[i]) { o = obj[i]; f = x - lo[i] + off[i]; break }
        tot[o] += cnt[pc]
        printf "E %s %.0f %d\n", o, f, cnt[pc]
      }
      printf "R %.0f %.0f\n", raw, merged
      for (o in tot) printf "O %s %.0f\n", o, tot[o]
    }'
}

# Native hit counts of breakpoints in the main executable (gdb, ASLR off).
gdb_counts() {  # PROGRAM STDIN ADDRESSES(link-time, hex) -- ARGS...
  local prog=$1 stdin=${2:-/dev/null} addrs=$3
  shift 4
  [[ $stdin == /* ]] || stdin=$inputs/$stdin
  local script=$tmp/gdb.cmd basecmd=$tmp/gdb0.cmd loadbase=0x0
  if [[ $(jq -r '.objects[] | select(.role == "main") | .elf_type' "$map") == DYN ]]; then
    printf 'set pagination off\nset disable-randomization on\nstarti > /dev/null < %s\ninfo proc mappings\nkill\n' "$stdin" > "$basecmd"
    loadbase=$(cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" gdb -q -batch -x "$basecmd" --args "$prog" "$@" 2>/dev/null </dev/null |
      awk -v p="$(readlink -f "$prog")" '$NF == p && $4 == "0x0" { print $1; exit }')
    [[ -n $loadbase ]] || { echo "    (gdb: could not find the load address of $prog)" >&2; return; }
  fi
  {
    printf 'set pagination off\nset disable-randomization on\nstarti > /dev/null < %s\n' "$stdin"
    local k=0
    for a in $addrs; do
      k=$((k + 1))
      printf 'break *(%s + %s)\nignore %d 1000000000\n' "$loadbase" "$a" "$k"
    done
    printf 'continue\ninfo breakpoints\n'
  } > "$script"
  (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" gdb -q -batch -x "$script" --args "$prog" "$@" 2>/dev/null </dev/null) |
    awk '/^[0-9]+ +breakpoint/ { n = $1 } /already hit/ { hit[n] = $4 } END { for (i = 1; i <= '"$k"'; i++) print (i in hit) ? hit[i] : 0 }'
}

check() {  # NAME STDIN EXTRA_ENV... -- PROGRAM ARGS...
  local name=$1 stdin=$2
  shift 2
  extra_env=()
  while [[ $1 != -- ]]; do extra_env+=("$1"); shift; done
  shift
  local trace=$tmp/$name.txt map=$tmp/$name.txt.map
  echo "== $name: $* ${stdin:+< $stdin}"
  (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" "$hwprof" -q record -o "$trace" -- "$@" < "${stdin:-/dev/null}" > /dev/null)
  hwprof_counts "$map" "$trace" > "$tmp/h.txt"
  (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" valgrind --tool=lackey --trace-mem=yes --trace-symtab=yes \
      --trace-symtab-patt='*' --log-fd=3 "$@" < "${stdin:-/dev/null}" 3>&1 >/dev/null 2>/dev/null) | lackey_counts > "$tmp/l.txt"

  local total tail
  total=$(jq '.instructions' "$map")
  read -r _ raw merged < <(grep '^R ' "$tmp/l.txt")
  printf '  %-28s %12s %12s %10s\n' "instructions" "hwprof" "lackey" "diff"
  printf '  %-28s %12d %12d %+10d   (lackey raw %d: rep iterations counted)\n' "total" "$total" "$merged" \
    $((merged - total)) "$raw"
  join -a1 -a2 -e 0 -o 0,1.2,2.2 <(awk '$1 == "O" { print $2, $3 }' "$tmp/h.txt" | sort) \
                                <(awk '$1 == "O" { print $2, $3 }' "$tmp/l.txt" | sort) |
    sort -k2,2nr | awk '{ printf "  %-28s %12d %12d %+10d\n", $1, $2, $3, $3 - $2 }'

  # Branch execution counts, per static branch.
  local main
  main=$(basename "$(jq -r '.objects[] | select(.role == "main") | .host_path' "$map")")
  join -a1 -e 0 -o 0,1.2,2.2 <(awk '$1 == "B" { print $2 ":" $3, $4 }' "$tmp/h.txt" | sort) \
                             <(awk '$1 == "E" { print $2 ":" $3, $4 }' "$tmp/l.txt" | sort) > "$tmp/b.txt"
  awk -v main="$main" '
    { split($1, k, ":"); o = k[1]; n[o]++; if ($2 == $3) eq[o]++; else { d = $3 - $2; ad[o] += d < 0 ? -d : d } }
    END { for (o in n) printf "  branches in %-16s %6d static, %6d with equal counts (%.2f%%), sum |diff| %d executions\n",
                         o, n[o], eq[o], 100 * eq[o] / n[o], ad[o] }' "$tmp/b.txt" | sort
  # The main executable's largest differences, checked natively with gdb.
  local worst
  worst=$(awk -v main="$main" '{ split($1, k, ":"); if (k[1] == main && $2 != $3) { d = $3 - $2; print (d < 0 ? -d : d), k[2], $2, $3 } }' \
            "$tmp/b.txt" | sort -k1,1nr | head -3)
  if [[ -n $worst ]] && command -v gdb >/dev/null; then
    local prog offs="" vaddrs=""
    prog=$(jq -r '.objects[] | select(.role == "main") | .host_path' "$map")
    # file offset -> link-time address, through the main executable's ranges
    vaddrs=$(jq -r '.objects[] | select(.role == "main") | .ranges[] | select(.prot | test("x")) |
                    "R \(.start) \(.end) \(.offset) \(.vaddr)"' "$map" |
      awk "$AWKLIB"'
        $1 == "R" { n++; len[n] = hex2num($3) - hex2num($2); fo[n] = hex2num($4); va[n] = hex2num($5); next }
        { for (i = 1; i <= n; i++) if ($2 >= fo[i] && $2 < fo[i] + len[i]) { printf " 0x%x", $2 - fo[i] + va[i]; break } }' \
        - <(echo "$worst"))
    echo "  differing branches of $main, counted natively (gdb breakpoint hits):"
    local native
    native=$(gdb_counts "$prog" "$stdin" "$vaddrs" -- "${@:2}")
    paste <(echo "$worst") <(echo "$native") | while read -r _ off h l g; do
      printf '    offset 0x%x: hwprof %d, lackey %d, native %s\n' "$off" "$h" "$l" "${g:-?}"
    done
  fi
}

for n in "${names[@]}"; do
  case $n in
    gzip)    check gzip "" -- gzip -6 -c GPL-2 ;;
    bzip2)   check bzip2 "" -- bzip2 -9 -c sqlite_inserts.sql ;;
    sqlite3) check sqlite3 sqlite_inserts.sql -- sqlite3 -batch :memory: ;;
    perl)    check perl "" PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 -- perl perl_workload.pl ;;
    *) echo "check_recorder.sh: unknown program '$n'" >&2; exit 2 ;;
  esac
done
