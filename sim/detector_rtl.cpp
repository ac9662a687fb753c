#include "detector_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "detector_rtl_impl.h"
#include "hwprof_rtl_cli.h"

namespace hwprof::sim {

using model::DetectorMode;

std::string DetectorConfig::name() const {
  const auto& p = params;
  std::string n = fmt::format("{}_n{}_s{}_e{}", model::detector_mode_name(p.mode), p.counters, p.sig_w, p.entries);
  if (p.mode == DetectorMode::Path) n += fmt::format("_d{}_l{}", depth, max_len);
  return n;
}

DetectorConfig DetectorConfig::of(unsigned mode, unsigned counters, unsigned sig_w, unsigned entries,
                                  unsigned markov_entries, unsigned threshold, unsigned depth, unsigned max_len) {
  DetectorConfig c;
  c.params.mode = mode ? DetectorMode::Path : DetectorMode::Bbv;
  c.params.counters = counters;
  c.params.sig_w = sig_w;
  c.params.entries = entries;
  c.params.markov_entries = markov_entries;
  c.params.threshold = threshold;
  c.depth = depth;
  c.max_len = max_len;
  return c;
}

DetectorConfig detector_default(DetectorMode mode) {
  DetectorConfig c;
  c.params.mode = mode;
  return c;
}

RtlRegistry<DetectorRtl>& detector_registry() {
  static RtlRegistry<DetectorRtl> r = [] {
    RtlRegistry<DetectorRtl> reg;
    HWPROF_RTL_CLI_phase_detector(HWPROF_DETECTOR_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<DetectorRtl> make_detector_rtl(const DetectorConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed) {
  if (auto p = detector_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("phase detector {} has no RTL build (Verilated: {})", cfg.name(),
                                          detector_registry().names()));
}

}  // namespace hwprof::sim
