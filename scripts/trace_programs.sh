# Sourced by record_traces.sh and check_recorder.sh: the programs behind the
# shipped traces, written once. `run_trace_program FN NAME` calls
#   FN NAME STDIN EXTRA_ENV... -- PROGRAM ARGS...
# (run from tests/traces/inputs/; STDIN "" means /dev/null).
TRACE_PROGRAMS=(gzip bzip2 sqlite3 perl)

run_trace_program() {
  local fn=$1 n=$2
  case $n in
    gzip)    "$fn" gzip "" -- gzip -6 -n -c GPL-2 ;;
    bzip2)   "$fn" bzip2 "" -- bzip2 -9 -c sqlite_inserts.sql ;;
    sqlite3) "$fn" sqlite3 sqlite_inserts.sql -- sqlite3 -batch :memory: ;;
    perl)    "$fn" perl "" PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 -- perl perl_workload.pl ;;
    *) echo "unknown trace program '$n' (${TRACE_PROGRAMS[*]})" >&2; exit 2 ;;
  esac
}
