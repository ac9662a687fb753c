// The Verilated markov_predictor and interval_counter (rtl/phase/) behind
// their cycle models' In/Out interfaces (sim_models/phase/markov.h,
// interval.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "interval.h"
#include "markov.h"
#include "rtl_engine.h"

namespace hwprof::sim {

using MarkovRtl = RtlEngine<model::MarkovPredictor>;
using IntervalRtl = RtlEngine<model::IntervalCounter>;

/// interval_counter configuration.
struct IntervalConfig {
  unsigned interval_w = 32;
  unsigned count_w = 40;
  std::string name() const;  ///< "i32_c40"
};

/// markov_predictor builds by slot count ("256", "4").
RtlRegistry<MarkovRtl>& markov_registry();
/// interval_counter builds by IntervalConfig::name().
RtlRegistry<IntervalRtl>& interval_registry();
/// Each throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<MarkovRtl> make_markov_rtl(unsigned entries, const SimOptions& opt, const std::string& wave_name,
                                           uint64_t seed);
std::unique_ptr<IntervalRtl> make_interval_rtl(const IntervalConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
