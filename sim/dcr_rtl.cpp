#include "dcr_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "dcr_rtl_impl.h"
#include "hwprof_rtl_cli.h"

namespace hwprof::sim {

std::string DcrConfig::name() const { return fmt::format("d{}_s{}_m{}", depth, sig_entries, markov_entries); }

model::DcrParams DcrConfig::params() const {
  model::DcrParams p;
  p.depth = depth;
  p.sig_entries = sig_entries;
  p.markov_entries = markov_entries;
  return p;
}

RtlRegistry<DcrRtl>& dcr_registry() {
  static RtlRegistry<DcrRtl> r = [] {
    RtlRegistry<DcrRtl> reg;
    HWPROF_RTL_CLI_dcr_tracker(HWPROF_DCR_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<DcrRtl> make_dcr_rtl(const DcrConfig& cfg, const SimOptions& opt, const std::string& wave_name,
                                     uint64_t seed) {
  if (auto p = dcr_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument(
      fmt::format("dcr_tracker {} has no RTL build (Verilated: {})", cfg.name(), dcr_registry().names()));
}

}  // namespace hwprof::sim
