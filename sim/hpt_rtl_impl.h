// Adapter of a Verilated hpt. Include only from the registries (it needs the
// Verilated headers).
#pragma once

#include "hpt_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class HptRtlT final : public RtlBase<model::Hpt, V> {
 public:
  using RtlBase<model::Hpt, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  model::Hpt::Out step(const model::Hpt::In& in) override {
    auto& t = this->h_.top();
    const auto& d = in.in_desc;
    t.in_valid_i = in.in_valid;
    t.in_start_i = d.start;
    t.in_length_i = d.length & 0x3f;
    t.in_dirs_i = d.dirs;
    t.in_events_i = d.events;
    t.in_insns_i = d.insns & 0xffffff;
    t.in_incomplete_i = d.incomplete;
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    model::Hpt::Out o;
    o.in_ready = t.in_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump = read_dump_port(t);
    o.dump_busy = t.dump_busy_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, Sets, Ways) into `reg`.
#define HWPROF_HPT_RTL_ADD(V, sets, ways) \
  reg.add(::hwprof::sim::HptConfig{sets, ways}.name(), &::hwprof::sim::make_rtl<::hwprof::sim::HptRtl, ::hwprof::sim::HptRtlT<V>>);
