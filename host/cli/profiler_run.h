// Runs a trace through the whole path profiler (path-stack front end -> hot
// path table) with the engine the user chose and returns the HPT's readout:
// the dumped entries, the HPT statistics and, where the engine sees the
// descriptor stream, the exact profile of the same run. Used by
// `hwprof profile --unit path`.
//
// Engines:
//   model: the front end's functional model (run_path_frontend, "model")
//          feeding HptAlgo; the exact profile comes from the same stream;
//   rtl:   the Verilated path profiler (front end + HPT), read back through
//          its dump port and registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hpt_algo.h"
#include "path_frontend_rtl.h"
#include "path_profile.h"
#include "path_stack_algo.h"
#include "progress.h"
#include "sim_options.h"

namespace hwprof::cli {

struct ProfilerOptions {
  uint32_t ppcr = model::Ppcr::kBl;
  sim::PathConfig frontend;  ///< queue depth, stack depth, MaxLen
  unsigned sets = 128;
  unsigned ways = 4;
  uint32_t hpt_ctrl = model::HptCtrl::reset_value();  ///< HPT CTRL (docs/hpt.md, "Registers")
  sim::SimOptions sim;      ///< rtl: waveform options
  bool want_exact = true;  ///< also build the exact profile when the engine sees the descriptors
};

struct ProfilerRun {
  std::vector<model::HptEntry> entries;  ///< the valid entries in dump order (set-major, then way)
  model::HptStats stats;                 ///< the HPT's counters
  model::PathStackStats frontend;        ///< the front end's counters
  std::optional<model::PathProfile> exact;  ///< the exact profile of the same run, if the engine has it
  uint64_t cycles = 0;                   ///< clock cycles (RTL engines only)
  uint64_t feed_cycles = 0;  ///< RTL: from the first record offered until the last descriptor is in the HPT
  uint64_t dump_cycles = 0;  ///< RTL: from the dump command until the dump ends
};

/// engine: "model" or "rtl"; `branches` (the trace's branch record count)
/// scales the progress report. Throws std::runtime_error for an engine that
/// is not available.
ProfilerRun run_path_profiler(const std::string& trace, const std::string& engine, const ProfilerOptions& cfg,
                              uint64_t seed, uint64_t branches, Progress& progress);

}  // namespace hwprof::cli
