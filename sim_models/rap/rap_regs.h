// Register map of hwprof_rap_engine's csr port (docs/rap_engine.md).
// Generated from data/regs/rap.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_rap_engine's csr port (docs/rap_engine.md).
enum class RapCsr : unsigned {
  Eps = 0,  ///< EPS: staged epsilon (rw, staged)
  Cap = 1,  ///< CAP: staged NodeCap (rw, staged)
  MergeFirst = 2,  ///< MERGE_FIRST: staged first merge point (rw, staged)
  BufDepth = 3,  ///< BUF_DEPTH: staged merging-buffer depth (rw, staged)
  Cmd = 4,  ///< CMD: command (wo, reads 0)
  Status = 5,  ///< STATUS: status (ro)
  NLo = 6,  ///< N_LO: n, low word (ro)
  NHi = 7,  ///< N_HI: n, high word (ro)
  Raw = 8,  ///< RAW: raw events (ro)
  Pairs = 9,  ///< PAIRS: pairs committed (ro)
  Splits = 10,  ///< SPLITS: splits (ro)
  Skipped = 11,  ///< SKIPPED: skipped splits (ro)
  SchedPasses = 12,  ///< SCHED_PASSES: scheduled passes (ro)
  CapPasses = 13,  ///< CAP_PASSES: capacity passes (ro)
  Merges = 14,  ///< MERGES: merges (ro)
  Nodes = 15,  ///< NODES: nodes (ro)
  Peak = 16,  ///< PEAK: peak nodes (ro)
  StallFlush = 17,  ///< STALL_FLUSH: replay stalls (ro)
  StallCap = 18,  ///< STALL_CAP: capacity-pass cycles (ro)
  StallSched = 19,  ///< STALL_SCHED: scheduled-pass cycles (ro)
  InStall = 20,  ///< IN_STALL: ingress stall cycles (ro)
  Params = 21,  ///< PARAMS: build parameters (ro)
  StallTcam = 22,  ///< STALL_TCAM: TCAM write cycles (ro)
};
inline constexpr unsigned kRapCsrCount = 23;
inline constexpr uint32_t kRapEpsReset = 6554u;  ///< EPS reset
inline constexpr uint32_t kRapMergeFirstReset = 1024u;  ///< MERGE_FIRST reset
// CMD fields.
/// CMD.clear: apply the staged values and reset the tree, queue, buffer, pipeline and counters
/// (wins over everything in its cycle)
inline constexpr uint32_t kRapCmdClear = 1u << 0;
/// CMD.flush: flush the merging buffer into the tree
inline constexpr uint32_t kRapCmdFlush = 1u << 1;
/// CMD.dump: start a dump; only when idle, else ignored and err set
inline constexpr uint32_t kRapCmdDump = 1u << 2;
// STATUS fields.
/// STATUS.err: an illegal write or command (sticky)
inline constexpr uint32_t kRapStErr = 1u << 0;
/// STATUS.idle: queue, buffer, P and S1 empty, RUN, not flushing
inline constexpr uint32_t kRapStIdle = 1u << 1;
/// STATUS.full: a split was skipped for want of a group (set when a capacity pass frees none;
/// cleared when a scheduled pass ends)
inline constexpr uint32_t kRapStFull = 1u << 2;
/// STATUS.dumping: a dump is running
inline constexpr uint32_t kRapStDump = 1u << 3;
/// STATUS.pass: a merge pass is running
inline constexpr uint32_t kRapStPass = 1u << 4;
/// STATUS.flushing: the buffer is being flushed
inline constexpr uint32_t kRapStFlush = 1u << 5;
/// STATUS.twr: the RAM TCAM's write after a split (TWR)
inline constexpr uint32_t kRapStTcam = 1u << 6;
// PARAMS fields.
/// PARAMS.groups: Groups
inline constexpr unsigned kRapParamsGroupsLsb = 0, kRapParamsGroupsW = 12;
/// PARAMS.max_buf: MaxBuf
inline constexpr unsigned kRapParamsMaxBufLsb = 12, kRapParamsMaxBufW = 4;
/// PARAMS.range_w: RangeW (2..64)
inline constexpr unsigned kRapParamsRangeWLsb = 16, kRapParamsRangeWW = 7;
/// PARAMS.tcam_slice: TcamSlice (0: flip-flop TCAM)
inline constexpr unsigned kRapParamsTcamSliceLsb = 23, kRapParamsTcamSliceW = 4;

}  // namespace hwprof::model
