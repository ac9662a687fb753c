#include "hpt_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hpt_rtl_impl.h"
#include "hwprof_rtl_cli.h"

namespace hwprof::sim {

std::string HptConfig::name() const { return fmt::format("s{}_w{}", sets, ways); }

RtlRegistry<HptRtl>& hpt_registry() {
  static RtlRegistry<HptRtl> r = [] {
    RtlRegistry<HptRtl> reg;
    HWPROF_RTL_CLI_hpt(HWPROF_HPT_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<HptRtl> make_hpt_rtl(const HptConfig& cfg, const SimOptions& opt, const std::string& wave_name,
                                     uint64_t seed) {
  if (auto p = hpt_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("hpt {} sets x {} ways has no RTL build (Verilated: {})", cfg.sets,
                                          cfg.ways, hpt_registry().names()));
}

}  // namespace hwprof::sim
