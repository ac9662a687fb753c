// Lock-step engine of the whole path profiler (front end + HPT):
// model::PathProfiler against the Verilated path_profiler
// (sim/path_profiler_rtl.h), with its scoreboard fields.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "hpt_lockstep.h"
#include "path_frontend_lockstep.h"
#include "path_profiler.h"
#include "path_profiler_rtl.h"

namespace hwprof::tb {

using sim::PathProfilerRtl;
using sim::ProfilerConfig;

/// Configurations with a Verilated path_profiler (list order; the first is the default).
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

/// A Verilated path profiler whose HPT has the probation area of policy 3
/// (sim/rtl_configs.cmake unit path_profiler_prob).
struct ProfilerProbConfig {
  ProfilerConfig base;
  model::HptProbation prob;
};
const std::vector<ProfilerProbConfig>& path_profiler_prob_configs();
PathProfilerLockstep make_path_profiler_prob_lockstep(const ProfilerProbConfig& cfg, const SimEnv& env,
                                                      const std::string& name, uint64_t seed);

}  // namespace hwprof::tb
