// Register map of hwprof_path_frontend's csr port (docs/path_stack.md).
// Generated from data/regs/path.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_path_frontend's csr port (docs/path_stack.md).
enum class PathCsr : unsigned {
  Ppcr = 0,  ///< PPCR: path profiler control register (rw)
  Status = 1,  ///< STATUS: status (ro)
  Records = 2,  ///< RECORDS: records (ro)
  Emitted = 3,  ///< EMITTED: descriptors emitted (ro)
  Incomplete = 4,  ///< INCOMPLETE: incomplete descriptors (ro)
  Splits = 5,  ///< SPLITS: split descriptors (ro)
  Overflows = 6,  ///< OVERFLOWS: overflows (ro)
  EmptyPops = 7,  ///< EMPTY_POPS: empty pops (ro)
  StallCycles = 8,  ///< STALL_CYCLES: stall cycles (ro)
  Params = 9,  ///< PARAMS: build parameters (ro)
};
inline constexpr unsigned kPathCsrCount = 10;
inline constexpr uint32_t kPathPpcrReset = 0x000d6ad1u;  ///< PPCR reset
/// PPCR preset WPP: paper 000 Table 2 (the reset value is BL, Table 1)
inline constexpr uint32_t kPathPpcrWpp = 0x000deed1u;
// PPCR fields.
/// PPCR.forward: operations of the forward class
inline constexpr unsigned kPathPpcrForwardLsb = 0, kPathPpcrForwardW = 4;
/// PPCR.backward: backward class
inline constexpr unsigned kPathPpcrBackwardLsb = 4, kPathPpcrBackwardW = 4;
/// PPCR.call: call class
inline constexpr unsigned kPathPpcrCallLsb = 8, kPathPpcrCallW = 4;
/// PPCR.return: return class
inline constexpr unsigned kPathPpcrReturnLsb = 12, kPathPpcrReturnW = 4;
/// PPCR.indirect: indirect class
inline constexpr unsigned kPathPpcrIndirectLsb = 16, kPathPpcrIndirectW = 4;
/// PPCR.ext_loops: extended loop paths
inline constexpr uint32_t kPathPpcrExtLoops = 1u << 20;
/// PPCR.max_ext: extensions per path (0..3)
inline constexpr unsigned kPathPpcrMaxExtLsb = 21, kPathPpcrMaxExtW = 2;
// STATUS fields.
/// STATUS.ppcr_err: a PPCR write was rejected
inline constexpr uint32_t kPathStatusPpcrErr = 1u << 0;
/// STATUS.occupancy: stack occupancy
inline constexpr unsigned kPathStatusOccupancyLsb = 8, kPathStatusOccupancyW = 8;
// PARAMS fields.
/// PARAMS.depth: Depth
inline constexpr unsigned kPathParamsDepthLsb = 0, kPathParamsDepthW = 8;
/// PARAMS.max_len: MaxLen
inline constexpr unsigned kPathParamsMaxLenLsb = 8, kPathParamsMaxLenW = 8;
/// PARAMS.queue_depth: QueueDepth
inline constexpr unsigned kPathParamsQueueDepthLsb = 16, kPathParamsQueueDepthW = 8;

}  // namespace hwprof::model
