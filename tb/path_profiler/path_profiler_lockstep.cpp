#include "path_profiler_lockstep.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hwprof_rtl_configs.h"
#include "hwprof_rtl_test.h"
#include "path_profiler_rtl_impl.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::PathProfiler;

const std::vector<ProfilerConfig>& path_profiler_configs() {
  static const std::vector<ProfilerConfig> c = {
#define X(V, use, q, d, l, s, w) ProfilerConfig{{q, d, l}, s, w},
      HWPROF_RTL_CONFIGS_path_profiler(X)
#undef X
  };
  return c;
}

std::unique_ptr<PathProfilerRtl> make_path_profiler_rtl(const ProfilerConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_path_profiler_rtl(cfg, env.options(), wave_name, seed);
}

PathProfilerLockstep make_path_profiler_lockstep(const ProfilerConfig& cfg, const SimEnv& env,
                                                 const std::string& name, uint64_t seed) {
  return {PathProfiler(cfg.path.queue_depth, cfg.path.depth, cfg.path.max_len, cfg.sets, cfg.ways),
          make_path_profiler_rtl(cfg, env, name, seed), "path_profiler", seed, env};
}

const std::vector<ProfilerProbConfig>& path_profiler_prob_configs() {
  static const std::vector<ProfilerProbConfig> c = {
#define X(V, use, q, d, l, s, w, ps, pw, pf, pc) ProfilerProbConfig{ProfilerConfig{{q, d, l}, s, w}, {ps, pw, pf, pc}},
      HWPROF_RTL_CONFIGS_path_profiler_prob(X)
#undef X
  };
  return c;
}

PathProfilerLockstep make_path_profiler_prob_lockstep(const ProfilerProbConfig& cfg, const SimEnv& env,
                                                      const std::string& name, uint64_t seed) {
  std::unique_ptr<PathProfilerRtl> rtl;
  const auto key = [](const ProfilerProbConfig& c) {
    return fmt::format("{}_p{}x{}x{}x{}", c.base.name(), c.prob.sets, c.prob.ways, c.prob.fp_bits, c.prob.count_bits);
  };
#define X(V, use, q, d, l, s, w, ps, pw, pf, pc)                                                                  \
  if (!rtl && key(cfg) == key(ProfilerProbConfig{ProfilerConfig{{q, d, l}, s, w}, {ps, pw, pf, pc}}))            \
    rtl = sim::make_rtl<PathProfilerRtl, sim::PathProfilerRtlT<V>>(env.options(), name, seed);
  HWPROF_RTL_CONFIGS_path_profiler_prob(X)
#undef X
  if (!rtl) throw std::invalid_argument("path_profiler_prob " + key(cfg) + " was not Verilated");
  rtl->reset();  // started as the registry's engines are
  const auto& b = cfg.base;
  return {PathProfiler(b.path.queue_depth, b.path.depth, b.path.max_len, b.sets, b.ways, cfg.prob), std::move(rtl),
          "path_profiler", seed, env};
}

std::string LockstepTraits<PathProfiler>::describe(const PathProfiler::In& in) {
  return fmt::format("rec_valid={} rec_data={{{}}} dump_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.rec_valid), in.rec_data.str(), int(in.dump_ready), int(in.csr_we), in.csr_addr,
                     in.csr_wdata);
}

std::vector<Field> LockstepTraits<PathProfiler>::fields(const PathProfiler::Out& e, const PathProfiler::Out& a) {
  std::vector<Field> f = {
      {"rec_ready", e.rec_ready, a.rec_ready},
      {"dump_valid", e.dump_valid, a.dump_valid},
      {"dump_busy", e.dump_busy, a.dump_busy},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
  add_dump_fields(f, e.dump, a.dump, e.dump_valid);
  return f;
}

}  // namespace hwprof::tb
