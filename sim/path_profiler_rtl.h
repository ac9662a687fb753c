// The Verilated whole path profiler (hwprof_path_profiler.sv: front end + HPT)
// behind model::PathProfiler's In/Out interface.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "hpt_rtl.h"
#include "path_frontend_rtl.h"
#include "path_profiler.h"

namespace hwprof::sim {

/// Parameters of a Verilated path_profiler configuration.
struct ProfilerConfig {
  PathConfig path;
  unsigned sets = 128;
  unsigned ways = 4;
  std::string name() const;  ///< "q4_d16_l32_s128_w4"
};
inline void PrintTo(const ProfilerConfig& c, std::ostream* os) { *os << c.name(); }

using PathProfilerRtl = RtlEngine<model::PathProfiler>;

/// path_profiler builds by ProfilerConfig::name().
RtlRegistry<PathProfilerRtl>& path_profiler_registry();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<PathProfilerRtl> make_path_profiler_rtl(const ProfilerConfig& cfg, const SimOptions& opt,
                                                        const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
