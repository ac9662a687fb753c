#include "path_profiler_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vpath_profiler_q2_d4_l8_s4_w2.h"
#include "Vpath_profiler_q4_d16_l32_s128_w4.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::PathProfiler;

std::string ProfilerConfig::name() const { return fmt::format("{}_s{}_w{}", path.name(), sets, ways); }

namespace {

template <typename V>
class PathProfilerRtlT final : public RtlBase<PathProfiler, V> {
 public:
  using RtlBase<PathProfiler, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  PathProfiler::Out step(const PathProfiler::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec_data.pack();
    for (size_t i = 0; i < w.size(); ++i) t.rec_data_i[i] = w[i];
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0x1f;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    PathProfiler::Out o;
    o.rec_ready = t.rec_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump = read_dump_port(t);
    o.dump_busy = t.dump_busy_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace

const std::vector<ProfilerConfig>& path_profiler_configs() {
  static const std::vector<ProfilerConfig> c = {{{4, 16, 32}, 128, 4}, {{2, 4, 8}, 4, 2}};
  return c;
}

std::unique_ptr<PathProfilerRtl> make_path_profiler_rtl(const ProfilerConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<PathProfilerRtl> p;
  const auto n = cfg.name();
  if (n == "q4_d16_l32_s128_w4")
    p = std::make_unique<PathProfilerRtlT<Vpath_profiler_q4_d16_l32_s128_w4>>(env, wave_name, seed);
  else if (n == "q2_d4_l8_s4_w2")
    p = std::make_unique<PathProfilerRtlT<Vpath_profiler_q2_d4_l8_s4_w2>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format("path_profiler {} has no RTL build (Verilated: q4_d16_l32_s128_w4, "
                                            "q2_d4_l8_s4_w2); use --engine model",
                                            n));
  p->reset();
  return p;
}

PathProfilerLockstep make_path_profiler_lockstep(const ProfilerConfig& cfg, const SimEnv& env,
                                                 const std::string& name, uint64_t seed) {
  return {PathProfiler(cfg.path.queue_depth, cfg.path.depth, cfg.path.max_len, cfg.sets, cfg.ways),
          make_path_profiler_rtl(cfg, env, name, seed), "path_profiler", seed, env};
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
