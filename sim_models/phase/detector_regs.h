// Register map of hwprof_phase_detector's csr port (docs/phase_detector.md).
// Generated from data/regs/detector.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_phase_detector's csr port (docs/phase_detector.md).
enum class DetCsr : unsigned {
  Ctrl = 0,  ///< CTRL: control (wo, reads 0)
  Status = 1,  ///< STATUS: status (ro)
  Interval = 2,  ///< INTERVAL: interval length (rw)
  Threshold = 3,  ///< THRESHOLD: match threshold (rw)
  Ppcr = 4,  ///< PPCR: path profiler control register (rw)
  Records = 5,  ///< RECORDS: records (ro)
  Features = 6,  ///< FEATURES: features (ro)
  Ignored = 7,  ///< IGNORED: ignored paths (ro)
  Intervals = 8,  ///< INTERVALS: intervals (ro)
  Phases = 9,  ///< PHASES: new phases (ro)
  StallCycles = 10,  ///< STALL_CYCLES: stall cycles (ro)
  BusyCycles = 11,  ///< BUSY_CYCLES: busy cycles (ro)
  Params = 12,  ///< PARAMS: build parameters (ro)
};
inline constexpr unsigned kDetCsrCount = 13;
// CTRL fields.
/// CTRL.restart: with bits 31:1 zero
inline constexpr uint32_t kDetCtrlRestart = 1u << 0;
// STATUS fields.
/// STATUS.err: illegal CTRL/INTERVAL/THRESHOLD write
inline constexpr uint32_t kDetStatusErr = 1u << 0;
/// STATUS.ppcr_err: path mode: a PPCR write was rejected
inline constexpr uint32_t kDetStatusPpcrErr = 1u << 1;
/// STATUS.busy: the background signature pass is running (Wait .. Capt) or an interval end waits
/// for it
inline constexpr uint32_t kDetStatusBusy = 1u << 2;
/// STATUS.res_valid: a result is pending
inline constexpr uint32_t kDetStatusResValid = 1u << 3;
// PARAMS fields.
/// PARAMS.counters: Counters
inline constexpr unsigned kDetParamsCountersLsb = 0, kDetParamsCountersW = 8;
/// PARAMS.sig_w: SigW
inline constexpr unsigned kDetParamsSigWLsb = 8, kDetParamsSigWW = 8;
/// PARAMS.entries: Entries
inline constexpr unsigned kDetParamsEntriesLsb = 16, kDetParamsEntriesW = 8;
/// PARAMS.mode: Mode (0 BBV, 1 path)
inline constexpr uint32_t kDetParamsMode = 1u << 24;

}  // namespace hwprof::model
