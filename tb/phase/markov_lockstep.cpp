#include "markov_lockstep.h"

#include <fmt/core.h>

#include "hwprof_rtl_configs.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::IntervalCounter;
using model::MarkovPredictor;

const std::vector<unsigned>& markov_configs() {
  static const std::vector<unsigned> c = {
#define X(V, use, entries, lutram, trainram, trainw) entries,  // RAM forms: the same cycle behaviour
      HWPROF_RTL_CONFIGS_markov_predictor(X)
#undef X
  };
  return c;
}

std::unique_ptr<MarkovRtl> make_markov_rtl(unsigned entries, const SimEnv& env, const std::string& wave_name,
                                           uint64_t seed) {
  register_test_configs();
  return sim::make_markov_rtl(entries, env.options(), wave_name, seed);
}

const std::vector<IntervalConfig>& interval_configs() {
  static const std::vector<IntervalConfig> c = {
#define X(V, use, iw, cw) IntervalConfig{iw, cw},
      HWPROF_RTL_CONFIGS_interval_counter(X)
#undef X
  };
  return c;
}

std::unique_ptr<IntervalRtl> make_interval_rtl(const IntervalConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_interval_rtl(cfg, env.options(), wave_name, seed);
}

std::string LockstepTraits<MarkovPredictor>::describe(const MarkovPredictor::In& in) {
  return fmt::format("clear={} upd_valid={} upd_phase={}", int(in.clear), int(in.upd_valid), in.upd_phase);
}

std::vector<Field> LockstepTraits<MarkovPredictor>::fields(const MarkovPredictor::Out& e,
                                                           const MarkovPredictor::Out& a) {
  const bool v = e.res_valid;
  return {{"res_valid", e.res_valid, a.res_valid},
          {"res_pred", e.res_pred, a.res_pred, v},
          {"res_scored", e.res_scored, a.res_scored, v},
          {"res_correct", e.res_correct, a.res_correct, v}};
}

std::string LockstepTraits<IntervalCounter>::describe(const IntervalCounter::In& in) {
  return fmt::format("interval={} restart={} step={} insns={}", in.interval, int(in.restart), int(in.step), in.insns);
}

std::vector<Field> LockstepTraits<IntervalCounter>::fields(const IntervalCounter::Out& e,
                                                           const IntervalCounter::Out& a) {
  return {{"end", e.end, a.end}};
}

MarkovLockstep make_markov_lockstep(unsigned entries, const SimEnv& env, const std::string& name, uint64_t seed) {
  return {MarkovPredictor(entries), make_markov_rtl(entries, env, name, seed), "markov_predictor", seed, env};
}

IntervalLockstep make_interval_lockstep(const IntervalConfig& cfg, const SimEnv& env, const std::string& name,
                                        uint64_t seed) {
  return {IntervalCounter(1, cfg.count_w), make_interval_rtl(cfg, env, name, seed), "interval_counter", seed, env};
}

}  // namespace hwprof::tb
