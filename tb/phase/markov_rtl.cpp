#include "markov_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vinterval_counter_i32_c40.h"
#include "Vinterval_counter_i8_c18.h"
#include "Vmarkov_predictor_e256.h"
#include "Vmarkov_predictor_e4.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::IntervalCounter;
using model::MarkovPredictor;

namespace {

template <typename V>
class MarkovRtlT final : public RtlBase<MarkovPredictor, V> {
 public:
  using RtlBase<MarkovPredictor, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.clear_i = 0;
    t.upd_valid_i = 0;
    t.upd_phase_i = 0;
    this->h_.reset();
  }
  MarkovPredictor::Out step(const MarkovPredictor::In& in) override {
    auto& t = this->h_.top();
    t.clear_i = in.clear;
    t.upd_valid_i = in.upd_valid;
    t.upd_phase_i = in.upd_phase;
    this->h_.eval();
    MarkovPredictor::Out o;
    o.res_valid = t.res_valid_o;
    o.res_pred = t.res_pred_o;
    o.res_scored = t.res_scored_o;
    o.res_correct = t.res_correct_o;
    this->h_.tick();
    return o;
  }
};

template <typename V>
class IntervalRtlT final : public RtlBase<IntervalCounter, V> {
 public:
  IntervalRtlT(const SimEnv& env, const std::string& name, uint64_t seed, unsigned interval_w)
      : RtlBase<IntervalCounter, V>(env, name, seed), mask_(interval_w >= 32 ? ~0u : (1u << interval_w) - 1) {}
  void reset() override {
    auto& t = this->h_.top();
    t.restart_i = 0;
    t.step_i = 0;
    t.insns_i = 0;
    t.interval_i = 1;
    this->h_.reset();
  }
  IntervalCounter::Out step(const IntervalCounter::In& in) override {
    if (in.interval & ~mask_) throw std::invalid_argument(fmt::format("interval {} is wider than the RTL's", in.interval));
    auto& t = this->h_.top();
    t.interval_i = in.interval;
    t.restart_i = in.restart;
    t.step_i = in.step;
    t.insns_i = in.insns & 0xffff;
    this->h_.eval();
    IntervalCounter::Out o;
    o.end = t.end_o;
    this->h_.tick();
    return o;
  }

 private:
  uint32_t mask_;
};

}  // namespace

const std::vector<unsigned>& markov_configs() {
  static const std::vector<unsigned> c = {256, 4};
  return c;
}

std::unique_ptr<MarkovRtl> make_markov_rtl(unsigned entries, const SimEnv& env, const std::string& wave_name,
                                           uint64_t seed) {
  std::unique_ptr<MarkovRtl> p;
  if (entries == 256)
    p = std::make_unique<MarkovRtlT<Vmarkov_predictor_e256>>(env, wave_name, seed);
  else if (entries == 4)
    p = std::make_unique<MarkovRtlT<Vmarkov_predictor_e4>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format("markov_predictor with {} slots has no RTL build (Verilated: 256, 4)", entries));
  p->reset();
  return p;
}

std::string IntervalConfig::name() const { return fmt::format("i{}_c{}", interval_w, count_w); }

const std::vector<IntervalConfig>& interval_configs() {
  static const std::vector<IntervalConfig> c = {{32, 40}, {8, 18}};
  return c;
}

std::unique_ptr<IntervalRtl> make_interval_rtl(const IntervalConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<IntervalRtl> p;
  if (cfg.interval_w == 32 && cfg.count_w == 40)
    p = std::make_unique<IntervalRtlT<Vinterval_counter_i32_c40>>(env, wave_name, seed, 32);
  else if (cfg.interval_w == 8 && cfg.count_w == 18)
    p = std::make_unique<IntervalRtlT<Vinterval_counter_i8_c18>>(env, wave_name, seed, 8);
  else
    throw std::invalid_argument("interval_counter " + cfg.name() + " has no RTL build (Verilated: i32_c40, i8_c18)");
  p->reset();
  return p;
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
