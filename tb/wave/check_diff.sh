#!/usr/bin/env bash
# CTest wave.diff: make wave-diff's script on two traced runs of one hpt test
# that differ only in the sink's backpressure (STALL_PCT 0 vs 10): it must
# name dump_ready_i as the first difference, at the first throttled cycle of
# the second run, exit 1, write a side-by-side FST whose layout names only
# its signals; and find no difference between a run and itself (exit 0).
set -euo pipefail
build=$1 root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$build/tmp/wave_diff; rm -rf "$tmp"; mkdir -p "$tmp"
t='HptConfigs/HptConfigTest.RandomLockstepWithBubblesBackpressureCtrlAndCommands/s4_w2'
for p in 0 10; do
  TRACE=1 TRACE_END=300 SEEDS=1 STALL_PCT=$p FAIL_WAVE=0 WAVE_DIR=$tmp/p$p \
    "$build/tb/tb_hpt" --gtest_filter="$t" --gtest_brief=1 > "$tmp/p$p.log" 2>&1
done
a=$(ls "$tmp"/p0/*.fst) b=$(ls "$tmp"/p10/*.fst)
rc=0; python3 "$root/scripts/wave_diff.py" "$a" "$b" --out "$tmp/d" > "$tmp/d.txt" || rc=$?
cat "$tmp/d.txt"
[ $rc = 1 ] || { echo "FAIL: exit $rc, expected 1 (different)"; exit 1; }
grep -q "first difference at time [0-9]* (harness cycle [0-9]*): .*signal" "$tmp/d.txt" || { echo "FAIL: no first difference"; exit 1; }
first=$(grep -A1 "first difference at time" "$tmp/d.txt" | tail -1)
[[ $first == *dump_ready_i* ]] || { echo "FAIL: first difference is not dump_ready_i: $first"; exit 1; }
python3 "$root/scripts/gtkw_check.py" check "$tmp/d.fst" "$tmp/d.gtkw"
rc=0; python3 "$root/scripts/wave_diff.py" "$a" "$a" --out "$tmp/same" > "$tmp/same.txt" || rc=$?
[ $rc = 0 ] && grep -q "no difference" "$tmp/same.txt" || { echo "FAIL: a run differs from itself (exit $rc)"; cat "$tmp/same.txt"; exit 1; }
echo "wave.diff: ok"
