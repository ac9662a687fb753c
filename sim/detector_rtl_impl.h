// Adapter of a Verilated phase_detector. Include only from the registries
// (it needs the Verilated headers).
#pragma once

#include "detector_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class DetectorRtlT final : public RtlBase<model::PhaseDetector, V> {
 public:
  using RtlBase<model::PhaseDetector, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.res_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  model::PhaseDetector::Out step(const model::PhaseDetector::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec_data.pack();
    for (size_t i = 0; i < w.size(); ++i) t.rec_data_i[i] = w[i];
    t.res_ready_i = in.res_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    model::PhaseDetector::Out o;
    o.rec_ready = t.rec_ready_o;
    o.res_valid = t.res_valid_o;
    o.res.phase = t.res_phase_o;
    o.res.changed = t.res_changed_o;
    o.res.matched = t.res_matched_o;
    o.res.distance = t.res_distance_o;
    o.res.predicted = t.res_pred_o;
    o.res.scored = t.res_scored_o;
    o.res.correct = t.res_correct_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, Mode, Counters,
/// SigW, Entries, MarkovEntries, Threshold, Depth, MaxLen) into `reg`.
#define HWPROF_DETECTOR_RTL_ADD(V, mode, n, s, e, m, t, d, l)            \
  reg.add(::hwprof::sim::DetectorConfig::of(mode, n, s, e, m, t, d, l).name(), \
          &::hwprof::sim::make_rtl<::hwprof::sim::DetectorRtl, ::hwprof::sim::DetectorRtlT<V>>);
