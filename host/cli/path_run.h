// Runs a trace's branch records through the path-stack front end with the
// engine the user chose (the functional model or the Verilated RTL) and hands every emitted descriptor to a callback. Shared by
// `hwprof paths` and `hwprof kpaths`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "path_frontend_rtl.h"
#include "path_stack_algo.h"
#include "progress.h"
#include "sim_options.h"

namespace hwprof::cli {

struct PathRun {
  model::PathStackStats stats;  ///< the RTL engines read them back from the registers
  uint64_t cycles = 0;          ///< clock cycles (RTL engines only)
};

/// engine: "model" or "rtl" (`sim`: its waveform options); `branches` (the
/// trace's branch record count) scales the progress report.
PathRun run_path_frontend(const std::string& trace, const std::string& engine, uint32_t ppcr,
                          const sim::PathConfig& cfg, const sim::SimOptions& sim, uint64_t seed, uint64_t branches,
                          Progress& progress,
                          const std::function<void(const model::Emission&)>& on_emit);

}  // namespace hwprof::cli
