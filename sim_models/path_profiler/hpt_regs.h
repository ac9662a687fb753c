// Register map of hwprof_hpt's csr port (docs/hpt.md).
// Generated from data/regs/hpt.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_hpt's csr port (docs/hpt.md).
enum class HptCsr : unsigned {
  Ctrl = 0,  ///< CTRL: control (rw)
  Status = 1,  ///< STATUS: status (ro)
  Cmd = 2,  ///< CMD: command (wo, reads 0)
  Descs = 3,  ///< DESCS: descriptors (ro)
  Hits = 4,  ///< HITS: hits (ro)
  Fills = 5,  ///< FILLS: fills (ro)
  Replacements = 6,  ///< REPLACEMENTS: replacements (ro)
  Rejects = 7,  ///< REJECTS: rejects (ro)
  Saturations = 8,  ///< SATURATIONS: saturations (ro)
  Ignored = 9,  ///< IGNORED: ignored (ro)
  StallCycles = 10,  ///< STALL_CYCLES: stall cycles (ro)
  Params = 11,  ///< PARAMS: build parameters (ro)
};
inline constexpr unsigned kHptCsrCount = 12;
inline constexpr uint32_t kHptCtrlReset = 0x00000022u;  ///< CTRL reset
// CTRL fields.
/// CTRL.index: 0 `plb`, 1 `pb`
inline constexpr uint32_t kHptCtrlIndex = 1u << 0;
/// CTRL.skew: skewed way indices
inline constexpr uint32_t kHptCtrlSkew = 1u << 1;
/// CTRL.metric: 0 freq, 1 events, 2 insns; 3 illegal
inline constexpr unsigned kHptCtrlMetricLsb = 2, kHptCtrlMetricW = 2;
/// CTRL.policy: 0 lfu, 1 ss, 2 erode, 3 lfu+prob (lfu with the probation area; illegal when
/// PARAMS.prob is 0)
inline constexpr unsigned kHptCtrlPolicyLsb = 4, kHptCtrlPolicyW = 2;
// STATUS fields.
/// STATUS.err: an illegal CTRL write or a command during a dump
inline constexpr uint32_t kHptStatusErr = 1u << 0;
/// STATUS.dump_busy: a dump is in progress
inline constexpr uint32_t kHptStatusDumpBusy = 1u << 1;
// CMD fields.
/// CMD.clear: invalidate every entry
inline constexpr uint32_t kHptCmdClear = 1u << 0;
/// CMD.dump: start a dump
inline constexpr uint32_t kHptCmdDump = 1u << 1;
/// CMD.clear_stats: zero the counters
inline constexpr uint32_t kHptCmdClearStats = 1u << 2;
// PARAMS fields.
/// PARAMS.set_bits: log2(Sets)
inline constexpr unsigned kHptParamsSetBitsLsb = 0, kHptParamsSetBitsW = 8;
/// PARAMS.prob: the probation area is built (ProbSets > 0): CTRL.policy 3 is legal
inline constexpr uint32_t kHptParamsProb = 1u << 8;
/// PARAMS.ways: Ways
inline constexpr unsigned kHptParamsWaysLsb = 16, kHptParamsWaysW = 16;

}  // namespace hwprof::model
