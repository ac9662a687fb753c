#include "path_profiler_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hwprof_rtl_cli.h"
#include "path_profiler_rtl_impl.h"

namespace hwprof::sim {

std::string ProfilerConfig::name() const { return fmt::format("{}_s{}_w{}", path.name(), sets, ways); }

RtlRegistry<PathProfilerRtl>& path_profiler_registry() {
  static RtlRegistry<PathProfilerRtl> r = [] {
    RtlRegistry<PathProfilerRtl> reg;
    HWPROF_RTL_CLI_path_profiler(HWPROF_PATH_PROFILER_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<PathProfilerRtl> make_path_profiler_rtl(const ProfilerConfig& cfg, const SimOptions& opt,
                                                        const std::string& wave_name, uint64_t seed) {
  if (auto p = path_profiler_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("path_profiler {} has no RTL build (Verilated: {}); use --engine model",
                                          cfg.name(), path_profiler_registry().names()));
}

}  // namespace hwprof::sim
