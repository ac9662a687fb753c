// The Verilated whole path profiler (path_profiler.sv: front end + HPT)
// behind model::PathProfiler's In/Out interface, with its scoreboard fields
// and lock-step engine.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "hpt_rtl.h"
#include "path_frontend_rtl.h"
#include "path_profiler.h"

namespace hwprof::tb {

/// Parameters of a Verilated path_profiler configuration.
struct ProfilerConfig {
  PathConfig path;
  unsigned sets = 128;
  unsigned ways = 4;
  std::string name() const;  ///< "q4_d16_l32_s128_w4"
};
inline void PrintTo(const ProfilerConfig& c, std::ostream* os) { *os << c.name(); }

using PathProfilerRtl = RtlEngine<model::PathProfiler>;

/// Configurations with a Verilated path_profiler.
const std::vector<ProfilerConfig>& path_profiler_configs();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<PathProfilerRtl> make_path_profiler_rtl(const ProfilerConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed);

template <>
struct LockstepTraits<model::PathProfiler> {
  static std::string describe(const model::PathProfiler::In& in);
  static std::vector<Field> fields(const model::PathProfiler::Out& e, const model::PathProfiler::Out& a);
};

using PathProfilerLockstep = Lockstep<model::PathProfiler, PathProfilerRtl>;
PathProfilerLockstep make_path_profiler_lockstep(const ProfilerConfig& cfg, const SimEnv& env,
                                                 const std::string& name, uint64_t seed);

}  // namespace hwprof::tb
