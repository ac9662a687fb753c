// Lock-step engines of the markov_predictor and interval_counter: the cycle
// models (sim_models/phase/markov.h, interval.h) against the Verilated
// engines (sim/markov_rtl.h), with scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interval.h"
#include "lockstep.h"
#include "markov.h"
#include "markov_rtl.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::IntervalConfig;
using sim::IntervalRtl;
using sim::MarkovRtl;

/// Slot counts with a Verilated markov_predictor: 256 (the default) and 4
/// (small, so phases alias).
const std::vector<unsigned>& markov_configs();
/// Throws std::invalid_argument for a slot count that was not Verilated.
std::unique_ptr<MarkovRtl> make_markov_rtl(unsigned entries, const SimEnv& env, const std::string& wave_name,
                                           uint64_t seed);

/// interval_counter configurations: the default (IntervalW 32, CountW 40)
/// and a narrow one (IntervalW 8, CountW 18) whose count saturates within a
/// few records.
const std::vector<IntervalConfig>& interval_configs();
std::unique_ptr<IntervalRtl> make_interval_rtl(const IntervalConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed);

template <>
struct LockstepTraits<model::MarkovPredictor> {
  static std::string describe(const model::MarkovPredictor::In& in);
  static std::vector<Field> fields(const model::MarkovPredictor::Out& e, const model::MarkovPredictor::Out& a);
};
template <>
struct LockstepTraits<model::IntervalCounter> {
  static std::string describe(const model::IntervalCounter::In& in);
  static std::vector<Field> fields(const model::IntervalCounter::Out& e, const model::IntervalCounter::Out& a);
};

using MarkovLockstep = Lockstep<model::MarkovPredictor, MarkovRtl>;
using IntervalLockstep = Lockstep<model::IntervalCounter, IntervalRtl>;

MarkovLockstep make_markov_lockstep(unsigned entries, const SimEnv& env, const std::string& name, uint64_t seed);
IntervalLockstep make_interval_lockstep(const IntervalConfig& cfg, const SimEnv& env, const std::string& name,
                                        uint64_t seed);

}  // namespace hwprof::tb
