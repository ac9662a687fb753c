#!/usr/bin/env bash
# Regenerates the shipped real traces tests/traces/<name>.hwpt.zst and their
# load maps <name>.hwpt.zst.map by recording Debian-packaged programs under
# qemu-user with `hwprof record` (docs/recorder.md, tests/traces/README.md).
#
# usage: scripts/record_traces.sh [HWPROF] [NAME...]
#   HWPROF   the hwprof binary (default: $HWPROF, else build/host/cli/hwprof)
#   NAME     only these traces (gzip bzip2 sqlite3 perl); default all
#
# Every program runs in a fixed, minimal environment (env -i), from
# tests/traces/inputs/ with relative file names, and qemu's -seed is fixed, so
# a regeneration with the same package versions gives identical traces (the
# script prints the versions it ran; tests/traces/README.md lists the ones the
# shipped files came from).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hwprof=${HWPROF:-$root/build/host/cli/hwprof}
if [[ $# -gt 0 && -f $1 ]]; then
  hwprof=$1
  shift
fi
[[ -x $hwprof ]] || { echo "record_traces.sh: hwprof binary not found: $hwprof (build first or pass its path)" >&2; exit 2; }
hwprof=$(cd "$(dirname "$hwprof")" && pwd)/$(basename "$hwprof")

traces=$root/tests/traces
inputs=$traces/inputs
names=("$@")
# shellcheck source=trace_programs.sh
source "$root/scripts/trace_programs.sh"
[[ ${#names[@]} -gt 0 ]] || names=("${TRACE_PROGRAMS[@]}")

for tool in qemu-x86_64 gzip bzip2 sqlite3 perl; do
  command -v "$tool" >/dev/null || { echo "record_traces.sh: $tool is not installed (make deps)" >&2; exit 2; }
done

# Fixed environment for the traced programs (and for qemu).
base_env=(env -i PATH=/usr/bin:/bin LANG=C LC_ALL=C HOME=/nonexistent TERM=dumb)

pkgver() { dpkg-query -W -f='${Package} ${Version}' "$1" 2>/dev/null || echo "$1 (not a Debian package?)"; }

record() {  # record NAME STDIN EXTRA_ENV... -- PROGRAM ARGS...
  local name=$1 stdin=$2
  shift 2
  local extra=()
  while [[ $1 != -- ]]; do extra+=("$1"); shift; done
  shift
  local out=$traces/$name.hwpt.zst
  # absolute program path: argv[0] is then the same as under valgrind and gdb
  # (scripts/check_recorder.sh), and the program does not depend on PATH
  set -- "$(command -v "$1")" "${@:2}"
  echo "== $name: $* ${stdin:+< $stdin}" >&2
  # The program's stdin is the input file or /dev/null, stdout /dev/null and
  # stderr a regular file (hwprof's messages, shown afterwards): programs look
  # at the types of their standard files (perl does), so this keeps the
  # traces independent of how this script is run.
  local log=$traces/.record-$name.log status=0
  (
    cd "$inputs"
    "${base_env[@]}" "${extra[@]}" "$hwprof" record -o "$out" -- "$@" < "${stdin:-/dev/null}" > /dev/null 2> "$log"
  ) || status=$?
  cat "$log" >&2
  rm -f "$log"
  [[ $status -eq 0 ]] || { echo "record_traces.sh: recording $name failed (status $status)" >&2; exit 1; }
  "$hwprof" trace validate "$out"
}

for n in "${names[@]}"; do
  run_trace_program record "$n"
done

echo >&2
echo "Versions: $(qemu-x86_64 --version | sed -n 1p); $(pkgver gzip); $(pkgver bzip2); $(pkgver libbz2-1.0);" \
  "$(pkgver sqlite3); $(pkgver libsqlite3-0); $(pkgver perl-base); $(pkgver libc6)" >&2
echo >&2
printf '%-10s %10s %12s %10s\n' trace records instructions bytes >&2
total=0
for n in "${names[@]}"; do
  f=$traces/$n.hwpt.zst
  info=$("$hwprof" trace info --json "$f")
  rec=$(sed -n 's/.*"records": *\([0-9]*\).*/\1/p' <<<"$info" | sed -n 1p)
  ins=$(sed -n 's/.*"instructions": *\([0-9]*\).*/\1/p' <<<"$info" | sed -n 1p)
  sz=$(stat -c %s "$f")
  total=$((total + sz + $(stat -c %s "$f.map")))
  printf '%-10s %10s %12s %10s\n' "$n" "$rec" "$ins" "$sz" >&2
done
echo "total size of the recorded traces and maps: $total bytes" >&2
if (( total > 20 * 1024 * 1024 )); then
  echo "record_traces.sh: the traces exceed 20 MB" >&2
  exit 1
fi
