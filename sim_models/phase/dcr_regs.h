// Register map of hwprof_dcr_tracker's csr port (docs/dcr.md).
// Generated from data/regs/dcr.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_dcr_tracker's csr port (docs/dcr.md).
enum class DcrCsr : unsigned {
  Status = 0,  ///< STATUS: status (ro)
  Cmd = 1,  ///< CMD: command (wo, reads 0)
  Interval = 2,  ///< INTERVAL: interval length (rw)
  Records = 3,  ///< RECORDS: records (ro)
  Intervals = 4,  ///< INTERVALS: intervals (ro)
  Pushes = 5,  ///< PUSHES: pushes (ro)
  Pops = 6,  ///< POPS: pops (ro)
  Overflows = 7,  ///< OVERFLOWS: overflows (ro)
  Recursions = 8,  ///< RECURSIONS: recursions (ro)
  Resyncs = 9,  ///< RESYNCS: resyncs (ro)
  NewPhases = 10,  ///< NEW_PHASES: new phases (ro)
  Evictions = 11,  ///< EVICTIONS: evictions (ro)
  Scored = 12,  ///< SCORED: scored intervals (ro)
  Correct = 13,  ///< CORRECT: correct predictions (ro)
  StallCycles = 14,  ///< STALL_CYCLES: stall cycles (ro)
  Params = 15,  ///< PARAMS: build parameters (ro)
};
inline constexpr unsigned kDcrCsrCount = 16;
// STATUS fields.
/// STATUS.err: a command while busy or an INTERVAL write of 0
inline constexpr uint32_t kDcrStatusErr = 1u << 0;
/// STATUS.busy: an interval end is being answered or its result waits, or a record waits in the
/// input buffer
inline constexpr uint32_t kDcrStatusBusy = 1u << 1;
/// STATUS.skip: skip mode
inline constexpr uint32_t kDcrStatusSkip = 1u << 2;
/// STATUS.size: stack size
inline constexpr unsigned kDcrStatusSizeLsb = 8, kDcrStatusSizeW = 8;
// CMD fields.
/// CMD.restart: empty stack, skip off, overflow flag off, interval count 0
inline constexpr uint32_t kDcrCmdRestart = 1u << 0;
/// CMD.clear_table: slots invalid, next id 0, uses 0, Markov predictor cleared, no previous phase
inline constexpr uint32_t kDcrCmdClearTable = 1u << 1;
/// CMD.clear_stats: zero the counters
inline constexpr uint32_t kDcrCmdClearStats = 1u << 2;
// PARAMS fields.
/// PARAMS.depth: Depth
inline constexpr unsigned kDcrParamsDepthLsb = 0, kDcrParamsDepthW = 8;
/// PARAMS.markov_lg: log2(MarkovEntries)
inline constexpr unsigned kDcrParamsMarkovLgLsb = 8, kDcrParamsMarkovLgW = 8;
/// PARAMS.sig_entries: SigEntries
inline constexpr unsigned kDcrParamsSigEntriesLsb = 16, kDcrParamsSigEntriesW = 16;

}  // namespace hwprof::model
