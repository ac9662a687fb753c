#!/usr/bin/env bash
# hwprof profile --unit phase (the DCR tracker, the path-based and the BBV
# phase detectors; docs/phase.md) end to end:
#  1. a hand-written trace whose phases follow by hand from docs/phase.md,
#     docs/dcr.md and docs/phase_detector.md (a loop in routine A for three
#     intervals, a loop in B for three, A again);
#  2. on a shipped trace and every detector: the model and the Verilated RTL
#     give identical intervals and summaries; the summary agrees with the
#     interval list (recounted here with jq); the interval count follows the
#     boundary rule (recounted with awk over `hwprof trace cat`);
#  3. --cpi with the CPI file of `hwprof critpath` adds the CoV of CPI;
#  4. bad options and files get clear errors.
set -uo pipefail
hwprof=$1
traces=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_phase.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # name got want
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got  $2"; echo "     want $3"; fail=1; fi
}
phase() { "$hwprof" -q profile --unit phase --json "$@"; }

# 1. Routine A (called from 0x50, loop 0x100..0x120) and routine B (called
# from 0x60, loop 0x200..0x220); an interval is 1,000 instructions, a loop
# iteration (one taken back edge) 10. Instruction counts are chosen so that
# every interval ends exactly at a loop iteration:
#   int 1-3: call A (10) + 299 iterations                      (ends at 3,000)
#   int 4-6: A's exit (4) + ret (1) + call B (5) + 299 iterations  (6,000)
#   int 7:   B's exit (4) + ret (1) + call A (5) + 99 iterations   (7,000)
# then A's exit and return (no further interval).
# DCR: a routine and its loop pushed during an interval are unstable, so the
# intervals where a routine starts have the empty signature: phases
# 0 1 1 0 2 2 0 (ids in order of first appearance), 3 phases, 5 runs. The
# Markov predictor (docs/phase.md): scored 6; right at int 3 (1 -> 1 after
# an untrained slot said "stay") and int 6 (2 -> 2): 2 of 6.
# BBV and path (threshold 40% = 410 of 1,024): A's loop and B's loop fill
# different accumulators (distance 2,048), intervals of one loop are alike
# (the few transition instructions are about 1% of an interval): phases
# 0 0 0 1 1 1 0, 2 phases, 3 runs; right at ints 2, 3, 5, 6: 4 of 6.
{
  echo "#hwprof-trace v1 isa=x86_64"
  iters() { for ((i = 0; i < $3; i++)); do echo "br $1 $2 1 2 10 0"; done; }
  echo "call 50 100 1 5 10 0"; iters 120 100 299
  echo "br 120 100 0 2 4 0"; echo "ret 124 55 1 1 1 0"
  echo "call 60 200 1 5 5 0"; iters 220 200 299
  echo "br 220 200 0 2 4 0"; echo "ret 224 65 1 1 1 0"
  echo "call 50 100 1 5 5 0"; iters 120 100 99
  echo "br 120 100 0 2 4 0"; echo "ret 124 55 1 1 1 0"
} > "$dir/two_loops.trace"
"$hwprof" -q trace validate "$dir/two_loops.trace" > /dev/null || { echo "FAIL the hand-written trace is invalid"; fail=1; }
for d in dcr path bbv; do
  if [ "$d" = dcr ]; then want="[0,1,1,0,2,2,0] [3,5] [2,6]"; else want="[0,0,0,1,1,1,0] [2,3] [4,6]"; fi
  for e in model rtl; do
    j=$(phase --detector "$d" --engine $e --interval 1000 --threshold 410 "$dir/two_loops.trace" 2>&1) ||
      { echo "FAIL $d $e: $j"; fail=1; continue; }
    check "$d $e: phases, [phases runs], [correct scored] of the two-loop program" \
      "$(jq -c '[.intervals[].phase]' <<<"$j") $(jq -c '[.summary.phases, .summary.runs]' <<<"$j") $(jq -c '[.summary.correct, .summary.scored]' <<<"$j")" \
      "$want"
  done
done

# 2. Model vs RTL on a shipped trace, and the summary against the intervals.
t=$traces/gzip.hwpt.zst
n_int=$("$hwprof" -q trace cat "$t" | awk '!/^#/ && $1 != "val" { c += $6; if (c >= 100000) { n++; c -= 100000 } } END { print n + 0 }')
for d in dcr path bbv; do
  m=$(phase --detector "$d" --interval 100000 "$t") || { echo "FAIL $d model run"; fail=1; continue; }
  r=$(phase --detector "$d" --interval 100000 --engine rtl "$t") || { echo "FAIL $d rtl run"; fail=1; continue; }
  check "$d: model = rtl intervals" "$(jq -c '.intervals' <<<"$m" | md5sum)" "$(jq -c '.intervals' <<<"$r" | md5sum)"
  check "$d: model = rtl summary" "$(jq -c '.summary' <<<"$m")" "$(jq -c '.summary' <<<"$r")"
  check "$d: intervals by the boundary rule" "$(jq '.summary.intervals' <<<"$m")" "$n_int"
  check "$d: phases = distinct ids" "$(jq '.summary.phases' <<<"$m")" "$(jq '[.intervals[].phase] | unique | length' <<<"$m")"
  check "$d: runs" "$(jq '.summary.runs' <<<"$m")" \
    "$(jq '[.intervals[].phase] as $p | [range(0; $p | length) | select(. == 0 or $p[.] != $p[. - 1])] | length' <<<"$m")"
  check "$d: correct = right predictions" "$(jq '.summary.correct' <<<"$m")" \
    "$(jq '[.intervals as $i | range(1; $i | length) | select($i[. - 1].predicted == $i[.].phase)] | length' <<<"$m")"
done

# 3. CPI from the timing model.
cpi=$dir/cpi.json
if "$hwprof" -q critpath "$t" --cpi-interval 100000 --cpi-out "$cpi" > /dev/null 2>"$dir/err"; then
  j=$(phase --detector dcr --interval 100000 --cpi "$cpi" "$t")
  check "CoV of CPI reported" "$(jq '.summary | has("cov_cpi_within") and has("cov_cpi_whole")' <<<"$j")" "true"
  check "CoV within phases >= 0" "$(jq '.summary.cov_cpi_within >= 0' <<<"$j")" "true"
  out=$("$hwprof" -q profile --unit phase --interval 50000 --cpi "$cpi" "$t" 2>&1)
  check "CPI of another interval refused" "$(grep -c 'CPI intervals of 100000 instructions, but --interval is 50000' <<<"$out")" "1"
else
  echo "skip CPI checks: critpath could not run here ($(head -1 "$dir/err"))"
fi

# 4. Bad input.
bad() {  # name expected-message args...
  local name=$1 msg=$2; shift 2
  local out
  out=$("$hwprof" -q profile --unit phase "$@" 2>&1)
  local rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$msg" <<<"$out"; then echo "ok   bad: $name"; else echo "FAIL bad: $name (rc $rc): $out"; fail=1; fi
}
echo '{"interval_insns": 100000}' > "$dir/nocpi.json"
echo 'not json' > "$dir/junk.json"
bad "interval 0" "--interval" --interval 0 "$t"
bad "unknown detector" "--detector" --detector lbr "$t"
bad "threshold 0" "--threshold 0: must be 1..2048" --detector bbv --threshold 0 "$t"
bad "threshold too big" "--threshold 5000: must be 1..2048" --detector path --threshold 5000 "$t"
bad "missing trace" "no-such.trace" "$dir/no-such.trace"
bad "missing CPI file" "cannot open the CPI file" --cpi "$dir/none.json" "$t"
bad "CPI without values" "expected {\"interval_insns\": N, \"cpi\": [...]}" --interval 100000 --cpi "$dir/nocpi.json" "$t"
bad "CPI not JSON" "not JSON" --cpi "$dir/junk.json" "$t"
exit $fail
