#include "rap_engine_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hwprof_rtl_cli.h"
#include "rap_engine_rtl_impl.h"

namespace hwprof::sim {

std::string rap_config_name(const model::RapEngineConfig& c) {
  return fmt::format("w{}_g{}_q{}_t{}", c.range_bits, c.groups, c.queue_depth, c.tcam_slice);
}

RtlRegistry<RapEngineRtl>& rap_registry() {
  static RtlRegistry<RapEngineRtl> r = [] {
    RtlRegistry<RapEngineRtl> reg;
    HWPROF_RTL_CLI_rap_engine(HWPROF_RAP_RTL_ADD)
    return reg;
  }();
  return r;
}

RtlRegistry<RapEngine64Rtl>& rap64_registry() {
  static RtlRegistry<RapEngine64Rtl> r = [] {
    RtlRegistry<RapEngine64Rtl> reg;
    HWPROF_RTL_CLI_rap_engine64(HWPROF_RAP_RTL_ADD)
    return reg;
  }();
  return r;
}

namespace {
template <typename Engine>
std::unique_ptr<Engine> make_from(const RtlRegistry<Engine>& reg, const model::RapEngineConfig& cfg,
                                  const SimOptions& opt, const std::string& wave_name, uint64_t seed) {
  if (cfg.max_buf != 8 || cfg.buf_default != 4)
    throw std::invalid_argument("rap_engine RTL builds have MaxBuf 8, BufDefault 4");
  const std::string n = rap_config_name(cfg);
  if (auto p = reg.make(n, opt, wave_name, seed)) return p;
  throw std::invalid_argument("rap_engine " + n + " has no RTL build (Verilated: " + reg.names() + ")");
}
}  // namespace

std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimOptions& opt,
                                           const std::string& wave_name, uint64_t seed) {
  return make_from(rap_registry(), cfg, opt, wave_name, seed);
}

std::unique_ptr<RapEngine64Rtl> make_rap64_rtl(const model::RapEngineConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed) {
  return make_from(rap64_registry(), cfg, opt, wave_name, seed);
}

}  // namespace hwprof::sim
