// Adapters of the Verilated markov_predictor and interval_counter. Include
// only from the registries (they need the Verilated headers).
#pragma once

#include <fmt/core.h>

#include <stdexcept>

#include "markov_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class MarkovRtlT final : public RtlBase<model::MarkovPredictor, V> {
 public:
  using RtlBase<model::MarkovPredictor, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.clear_i = 0;
    t.upd_valid_i = 0;
    t.upd_phase_i = 0;
    this->h_.reset();
  }
  model::MarkovPredictor::Out step(const model::MarkovPredictor::In& in) override {
    auto& t = this->h_.top();
    t.clear_i = in.clear;
    t.upd_valid_i = in.upd_valid;
    t.upd_phase_i = in.upd_phase;
    this->h_.eval();
    model::MarkovPredictor::Out o;
    o.res_valid = t.res_valid_o;
    o.res_pred = t.res_pred_o;
    o.res_scored = t.res_scored_o;
    o.res_correct = t.res_correct_o;
    this->h_.tick();
    return o;
  }
};

/// IntervalW: the width of the RTL's interval port.
template <typename V, unsigned IntervalW>
class IntervalRtlT final : public RtlBase<model::IntervalCounter, V> {
 public:
  using RtlBase<model::IntervalCounter, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.restart_i = 0;
    t.step_i = 0;
    t.insns_i = 0;
    t.interval_i = 1;
    this->h_.reset();
  }
  model::IntervalCounter::Out step(const model::IntervalCounter::In& in) override {
    if (in.interval & ~kMask)
      throw std::invalid_argument(fmt::format("interval {} is wider than the RTL's", in.interval));
    auto& t = this->h_.top();
    t.interval_i = in.interval;
    t.restart_i = in.restart;
    t.step_i = in.step;
    t.insns_i = in.insns & 0xffff;
    this->h_.eval();
    model::IntervalCounter::Out o;
    o.end = t.end_o;
    this->h_.tick();
    return o;
  }

 private:
  static constexpr uint32_t kMask = IntervalW >= 32 ? ~0u : (1u << IntervalW) - 1;
};

}  // namespace hwprof::sim

/// Registry entries of generated configurations into `reg`: X(Vprefix,
/// Entries, LutRam), X(Vprefix, IntervalW, CountW).
#define HWPROF_MARKOV_RTL_ADD(V, entries, lutram, trainram, trainw) /* RAM forms: the same cycle behaviour */ \
  reg.add(std::to_string(entries), &::hwprof::sim::make_rtl<::hwprof::sim::MarkovRtl, ::hwprof::sim::MarkovRtlT<V>>);
#define HWPROF_INTERVAL_RTL_ADD(V, iw, cw)             \
  reg.add(::hwprof::sim::IntervalConfig{iw, cw}.name(), \
          &::hwprof::sim::make_rtl<::hwprof::sim::IntervalRtl, ::hwprof::sim::IntervalRtlT<V, iw>>);
