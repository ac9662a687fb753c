// Adapter of a Verilated dcr_tracker. Include only from the registries (it
// needs the Verilated headers).
#pragma once

#include "dcr_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class DcrRtlT final : public RtlBase<model::DcrTracker, V> {
 public:
  using RtlBase<model::DcrTracker, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.res_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  model::DcrTracker::Out step(const model::DcrTracker::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec.pack();
    for (int i = 0; i < 3; ++i) t.rec_i[i] = w[i];
    t.res_ready_i = in.res_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    model::DcrTracker::Out o;
    o.rec_ready = t.rec_ready_o;
    o.res_valid = t.res_valid_o;
    o.res.phase = t.res_phase_o;
    o.res.predicted = t.res_pred_o;
    o.res.sig_depth = t.res_depth_o;
    o.res.flags = t.res_flags_o;
    o.res.sig_hash = t.res_hash_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, Depth, SigEntries,
/// MarkovEntries) into `reg`.
#define HWPROF_DCR_RTL_ADD(V, d, s, m) \
  reg.add(::hwprof::sim::DcrConfig{d, s, m}.name(), &::hwprof::sim::make_rtl<::hwprof::sim::DcrRtl, ::hwprof::sim::DcrRtlT<V>>);
