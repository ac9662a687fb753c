#include "markov_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hwprof_rtl_cli.h"
#include "markov_rtl_impl.h"

namespace hwprof::sim {

std::string IntervalConfig::name() const { return fmt::format("i{}_c{}", interval_w, count_w); }

RtlRegistry<MarkovRtl>& markov_registry() {
  static RtlRegistry<MarkovRtl> r = [] {
    RtlRegistry<MarkovRtl> reg;
    HWPROF_RTL_CLI_markov_predictor(HWPROF_MARKOV_RTL_ADD)
    return reg;
  }();
  return r;
}

RtlRegistry<IntervalRtl>& interval_registry() {
  static RtlRegistry<IntervalRtl> r = [] {
    RtlRegistry<IntervalRtl> reg;
    HWPROF_RTL_CLI_interval_counter(HWPROF_INTERVAL_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<MarkovRtl> make_markov_rtl(unsigned entries, const SimOptions& opt, const std::string& wave_name,
                                           uint64_t seed) {
  if (auto p = markov_registry().make(std::to_string(entries), opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("markov_predictor with {} slots has no RTL build (Verilated: {})", entries,
                                          markov_registry().names()));
}

std::unique_ptr<IntervalRtl> make_interval_rtl(const IntervalConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed) {
  if (auto p = interval_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument("interval_counter " + cfg.name() + " has no RTL build (Verilated: " +
                              interval_registry().names() + ")");
}

}  // namespace hwprof::sim
