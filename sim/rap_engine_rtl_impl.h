// Adapter of a Verilated rap_engine. Include only from the registries (it
// needs the Verilated headers).
#pragma once

#include <type_traits>

#include "rap_engine_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

/// RangeW: the width of the RTL's event value port; builds above 32 bits
/// (the 2-D engine) run behind model::RapEngine64's In/Out.
template <typename V, unsigned RangeW>
class RapRtlT final
    : public RtlBase<std::conditional_t<(RangeW > 32), model::RapEngine64, model::RapEngine>, V> {
 public:
  using Model = std::conditional_t<(RangeW > 32), model::RapEngine64, model::RapEngine>;
  using RtlBase<Model, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.ev_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  typename Model::Out step(const typename Model::In& in) override {
    auto& t = this->h_.top();
    t.ev_valid_i = in.ev_valid;
    t.ev_value_i = in.ev_value & kMask;
    t.ev_weight_i = in.ev_weight;
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0x1f;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    typename Model::Out o;
    o.ev_ready = t.ev_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump_last = t.dump_last_o;
    o.dump.valid = t.dump_slot_valid_o;
    o.dump.depth = t.dump_depth_o;
    o.dump.prefix = t.dump_prefix_o;
    o.dump.count[0] = t.dump_cnt0_o;
    o.dump.count[1] = t.dump_cnt1_o;
    o.dump.count[2] = t.dump_cnt2_o;
    o.dump.count[3] = t.dump_cnt3_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }

 private:
  using Value = typename Model::Value;
  static constexpr Value kMask = RangeW >= 8 * sizeof(Value) ? ~Value{0} : (Value{1} << RangeW) - 1;
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, RangeW, Groups,
/// QueueDepth, TcamSlice) into `reg` (rap_registry(), or rap64_registry()
/// for the RangeW = 64 unit rap_engine64).
#define HWPROF_RAP_RTL_ADD(V, w, g, q, t)                                                       \
  reg.add(::hwprof::sim::rap_config_name(::hwprof::model::RapEngineConfig{w, g, q, 8, 4, t}), \
          &::hwprof::sim::make_rtl<::hwprof::sim::RtlEngine<::hwprof::sim::RapRtlT<V, w>::Model>, \
                                   ::hwprof::sim::RapRtlT<V, w>>);
