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
# shellcheck source=trace_programs.sh
source "$root/scripts/trace_programs.sh"
[[ ${#names[@]} -gt 0 ]] || names=("${TRACE_PROGRAMS[@]}")
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
function num2hex(n,   s, d) {
  if (n == 0) return "0x0"
  s = ""
  while (n > 0) { d = n % 16; s = substr("0123456789abcdef", d + 1, 1) s; n = (n - d) / 16 }
  return "0x" s
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

# Native execution counts of branches, from gdb breakpoint hit counts (ASLR
# off, no shell, gdb's LINES/COLUMNS removed from the environment). The
# breakpoints are set at the program's entry point, when ld.so has mapped every
# shared library.
#   native_counts MAP STDIN CANDIDATES -- PROGRAM ARGS...
#   CANDIDATES: lines "object link-time-address(decimal)"; prints one count per line.
native_counts() {
  local map=$1 stdin=${2:-/dev/null} cands=$3
  shift 4
  [[ $stdin == /* ]] || stdin=$inputs/$stdin
  local prog=$1 pre='set pagination off\nset disable-randomization on\nset startup-with-shell off\nunset environment LINES\nunset environment COLUMNS\nstarti\n'
  rungdb() {  # CMDFILE PROGRAM ARGS...
    local cmd=$1
    shift
    (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" gdb -q -batch -x "$cmd" --args "$@" 2>"$tmp/gdb.err" <"$stdin" |
       LC_ALL=C grep -a -E '^ +0x|^[0-9]+ +(hw )?breakpoint|already hit') || true
  }
  # link-time address of each object's offset-0 mapping, and the program's entry
  jq -r '.objects[] | (.host_path | split("/") | last) as $o | .ranges[] | select(.offset == "0x0") | "V \($o) \(.vaddr)"' "$map" > "$tmp/v0.txt"
  local entry
  entry=$(jq -r '.objects[] | select(.role == "main") | "\(.entry) \(.bias)"' "$map" | awk "$AWKLIB"'{ printf "%.0f\n", hex2num($1) - hex2num($2) }')
  # 1: main executable's load address -> run-time entry
  printf "${pre}info proc mappings\nkill\n" > "$tmp/g1.cmd"
  local ventry
  ventry=$(rungdb "$tmp/g1.cmd" "$@" | awk "$AWKLIB"'
      FNR == NR { v0[$2] = hex2num($3); next }
      $4 == "0x0" && base($NF) == "'"$(basename "$(readlink -f "$prog")")"'" { print num2hex(hex2num($1) - v0[base($NF)] + '"$entry"'); exit }' "$tmp/v0.txt" -)
  [[ -n $ventry ]] || { echo "    (gdb: could not find the load address of $prog)" >&2; return; }
  # 2: every object's load address at the entry point -> breakpoint addresses
  printf "${pre}tbreak *%s\ncontinue\ninfo proc mappings\nkill\n" "$ventry" > "$tmp/g2.cmd"
  rungdb "$tmp/g2.cmd" "$@" | awk "$AWKLIB"'
      FILENAME == ARGV[1] { v0[$2] = hex2num($3); next }
      FILENAME == ARGV[2] { if ($4 == "0x0" && !(base($NF) in bias)) bias[base($NF)] = hex2num($1) - v0[base($NF)]; next }
      { if ($1 in bias) print num2hex(bias[$1] + $2); else print "none" }' "$tmp/v0.txt" - "$cands" > "$tmp/addrs.txt"
  # 3: count
  {
    printf "${pre}tbreak *%s\ncontinue\n" "$ventry"
    local k=1
    while read -r a; do
      k=$((k + 1))
      if [[ $a == none ]]; then a=0; fi
      printf 'break *%s\nignore %d 1000000000\n' "$a" "$k"
    done < "$tmp/addrs.txt"
    printf 'continue\ninfo breakpoints\n'
  } > "$tmp/g3.cmd"
  rungdb "$tmp/g3.cmd" "$@" |
    awk -v n="$(wc -l < "$tmp/addrs.txt")" '/^[0-9]+ +breakpoint/ { b = $1 } /already hit/ { hit[b] = $4 }
      END { for (i = 2; i <= n + 1; i++) print (i in hit) ? hit[i] : 0 }'
}

# Load-map check against the ELF files: the dynamic loader must jump to the
# program's entry point (e_entry + bias), and control transfers from one
# object into another (PLT jumps, calls through pointers) must land on symbols
# that the target object exports (nm -D), e.g. gzip's _start calling libc's
# __libc_start_main. Targets that are not exported (main, static callbacks,
# ld.so internals) are counted separately.
map_check() {  # MAP TRACE
  local map=$1 trace=$2
  jq -r '.objects[] | "O \(.host_path) \(.bias) \(.entry) \(.role)", (.host_path as $p | .ranges[] | select(.prot | test("x")) | "R \($p) \(.start) \(.end)")' "$map" > "$tmp/objs.txt"
  : > "$tmp/syms.txt"
  while read -r tag path _; do
    [[ $tag == O ]] || continue
    nm -D --defined-only "$path" 2>/dev/null | awk -v p="$path" '$2 ~ /^[TtWi]$/ { sub(/@.*/, "", $3); print "S", p, $1, $3 }' >> "$tmp/syms.txt"
  done < "$tmp/objs.txt"
  awk "$AWKLIB"'
    FILENAME == ARGV[1] && $1 == "O" { bias[$2] = hex2num($3); if ($5 == "main") { mainp = $2; entry = hex2num($4) } next }
    FILENAME == ARGV[1] && $1 == "R" { n++; ro[n] = $2; lo[n] = hex2num($3); hi[n] = hex2num($4); next }
    FILENAME == ARGV[2] { sym[$2 " " hex2num($3)] = $4; next }
    /^#/ { next }
    $1 == "call" || $1 == "icall" || $1 == "jmp" || $1 == "ijmp" { pair[$2 " " $3] = $1 }
    END {
      for (pt in pair) {
        split(pt, x, " "); a = hex2num(x[1]); t = hex2num(x[2]); oa = ot = ""
        for (i = 1; i <= n; i++) { if (a >= lo[i] && a < hi[i]) oa = ro[i]; if (t >= lo[i] && t < hi[i]) ot = ro[i] }
        if (oa == "" || ot == "" || oa == ot) continue
        if (ot == mainp && t == entry && base(oa) ~ /^ld-linux/) entry_ok = 1
        k = ot " " (t - bias[ot])
        if (k in seen) continue
        seen[k] = 1; total++
        if (k in sym) { hit++; if (shown < 4) { ex = ex "\n      " base(oa) " -> " base(ot) ": " sym[k]; shown++ } }
        else miss[base(ot)]++
      }
      printf "  load map: ld.so jumps to the program entry point (e_entry + bias): %s\n", entry_ok ? "yes" : "NO"
      if (!entry_ok) print "entry" >> "'"$tmp/fail.txt"'"
      printf "  load map: %d distinct cross-object targets, %d are symbols their object exports (nm -D)", total, hit
      sep = "; not exported:"
      for (o in miss) { printf "%s %s %d", sep, o, miss[o]; sep = "," }
      printf "; for example:%s\n", ex
    }' "$tmp/objs.txt" "$tmp/syms.txt" "$trace"
}

check() {  # NAME STDIN EXTRA_ENV... -- PROGRAM ARGS...
  local name=$1 stdin=$2
  shift 2
  extra_env=()
  while [[ $1 != -- ]]; do extra_env+=("$1"); shift; done
  shift
  local trace=$tmp/$name.txt map=$tmp/$name.txt.map
  # absolute program path, as in record_traces.sh: the same argv[0] for hwprof
  # (qemu -0), valgrind and gdb
  set -- "$(command -v "$1")" "${@:2}"
  echo "== $name: $* ${stdin:+< $stdin}"
  # The program's stderr is a regular file in all three runs (hwprof, lackey,
  # gdb), stdout /dev/null: programs look at the types of their standard files.
  (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" "$hwprof" -q record -o "$trace" -- "$@" < "${stdin:-/dev/null}" \
     > /dev/null 2> "$tmp/hwprof.err") || { cat "$tmp/hwprof.err" >&2; echo "check_recorder.sh: hwprof record failed" >&2; exit 1; }
  hwprof_counts "$map" "$trace" > "$tmp/h.txt"
  map_check "$map" "$trace"
  (cd "$inputs" && "${base_env[@]}" "${extra_env[@]}" valgrind --tool=lackey --trace-mem=yes --trace-symtab=yes \
      --trace-symtab-patt='*' --log-fd=3 "$@" < "${stdin:-/dev/null}" 3>&1 >/dev/null 2>"$tmp/valgrind.err") | lackey_counts > "$tmp/l.txt"

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
  # The largest differences outside ld.so and libc (whose differences come
  # from the environment and the CPU features valgrind reports), checked
  # natively with gdb.
  local worst
  worst=$(awk '{ split($1, k, ":"); if (k[1] !~ /^(ld-linux|libc\.so)/ && $2 != $3) { d = $3 - $2; print (d < 0 ? -d : d), k[1], k[2], $2, $3 } }' \
            "$tmp/b.txt" | sort -k1,1nr -k2,2 -k3,3n | awk 'NR <= 25')
  if [[ -n $worst ]] && command -v gdb >/dev/null; then
    # file offset -> link-time address, through the map's ranges
    jq -r '.objects[] | (.host_path | split("/") | last) as $o | .ranges[] | select(.prot | test("x")) |
           "R \($o) \(.start) \(.end) \(.offset) \(.vaddr)"' "$map" |
      awk "$AWKLIB"'
        $1 == "R" { n++; ob[n] = $2; len[n] = hex2num($4) - hex2num($3); fo[n] = hex2num($5); va[n] = hex2num($6); next }
        { for (i = 1; i <= n; i++) if (ob[i] == $2 && $3 >= fo[i] && $3 < fo[i] + len[i]) { printf "%s %.0f\n", $2, $3 - fo[i] + va[i]; break } }' \
        - <(echo "$worst") > "$tmp/cands.txt"
    echo "  differing branches outside ld.so and libc, counted natively (gdb breakpoint hits):"
    local native
    native=$(native_counts "$map" "$stdin" "$tmp/cands.txt" -- "$(jq -r '.objects[] | select(.role == "main") | .host_path' "$map")" "${@:2}")
    paste <(echo "$worst") <(echo "$native") | while read -r _ o off h l g; do
      printf '    %-20s offset 0x%06x: hwprof %7d, lackey %7d, native %7s%s\n' "$o" "$off" "$h" "$l" "${g:-?}" \
        "$([[ ${g:-x} == "$h" ]] && echo "   (hwprof exact)")"
      echo "$name $o $off ${g:-?} $h" >> "$tmp/native.txt"
    done
  fi
}

for n in "${names[@]}"; do
  run_trace_program check "$n"
done

# Verdict: every natively counted branch must match hwprof, every load map
# must lead ld.so to the program's entry point.
echo
nat=0 bad=0
if [[ -f $tmp/native.txt ]]; then
  nat=$(wc -l < "$tmp/native.txt")
  bad=$(awk '$4 != $5' "$tmp/native.txt" | wc -l)
fi
maps=0
[[ -f $tmp/fail.txt ]] && maps=$(wc -l < "$tmp/fail.txt")
echo "check_recorder: $nat differing branches counted natively, $((nat - bad)) equal to hwprof's count; $maps load-map failures"
(( bad == 0 && maps == 0 ))
