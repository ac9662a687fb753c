#!/usr/bin/env bash
# make fuzz: runs each libFuzzer harness for a fixed time, seeded from
# fuzz/corpus/<harness>/ (the shipped seeds and regressions) plus the working
# corpus kept in the build directory between runs.
#   scripts/fuzz.sh BUILD SECONDS HARNESS...
# With FUZZ_RUNS=N in the environment each harness runs exactly N inputs from
# libFuzzer seed FUZZ_SEED (default 1) instead of for SECONDS: the same
# inputs on every machine, so a CI run fails only when the code changed, not
# because a faster machine got further (`make fuzz-ci`). Without it, the
# seed is libFuzzer's own and the run is time-bound (exploration).
# Exit status 1 if any harness finds a crash, a sanitizer report, a leak or a
# timeout; the input is saved under BUILD/fuzz-findings/<harness>/ and the
# message says how to keep it as a regression test.
set -euo pipefail
build=$1 secs=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)

# Longest input per harness: traces and maps are small; an ELF seed is 13 kB.
max_len() {
  case $1 in
    elf) echo 16384 ;;
    loadmap) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

export TMPDIR=${TMPDIR:-/tmp}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
budget=(-max_total_time="$secs")
what="${secs}s"
if [[ -n ${FUZZ_RUNS:-} ]]; then
  budget=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  what="$FUZZ_RUNS inputs from seed ${FUZZ_SEED:-1}"
fi
failed=()
for h in "$@"; do
  bin=$build/fuzz/fuzz_$h
  seeds=$root/fuzz/corpus/$h
  work=$build/fuzz-corpus/$h
  findings=$build/fuzz-findings/$h
  [[ -x $bin ]] || { echo "fuzz: $bin not built" >&2; exit 2; }
  [[ -d $seeds ]] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
  mkdir -p "$work" "$findings"
  log=$build/fuzz-$h.log
  echo "[fuzz] $h: $what, seeds $(ls "$seeds" | wc -l) files, working corpus $work"
  set +e
  "$bin" "${budget[@]}" -max_len="$(max_len "$h")" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  stats=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  if [[ $rc -ne 0 ]]; then
    echo "[fuzz] $h: FINDING (exit $rc); log $log"
    grep -E 'ERROR|SUMMARY|runtime error|fuzz_[a-z]+:' "$log" | head -20 || true
    for f in "$findings"/*; do
      [[ -e $f ]] || continue
      echo "[fuzz]   input: $f"
      echo "[fuzz]   reproduce: $bin $f"
      echo "[fuzz]   keep as a regression once fixed: cp $f $seeds/"
    done
    failed+=("$h")
  else
    echo "[fuzz] $h: no finding; ${execs:-?} inputs run; ${stats:-}"
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "[fuzz] findings in: ${failed[*]}"
  exit 1
fi
echo "[fuzz] all harnesses clean"
