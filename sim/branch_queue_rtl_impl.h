// Adapter of a Verilated branch_queue to BranchQueueRtl. Include only from
// the registries (it needs the Verilated headers).
#pragma once

#include "branch_queue_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class BranchQueueRtlT final : public RtlBase<model::BranchQueue, V> {
 public:
  using RtlBase<model::BranchQueue, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.enq_valid_i = 0;
    t.deq_ready_i = 0;
    this->h_.reset();
  }
  model::BranchQueue::Out step(const model::BranchQueue::In& in) override {
    auto& t = this->h_.top();
    t.enq_valid_i = in.enq_valid;
    t.deq_ready_i = in.deq_ready;
    auto w = in.enq_data.pack();
    for (int i = 0; i < 3; ++i) t.enq_data_i[i] = w[i];
    this->h_.eval();
    model::BranchQueue::Out o;
    o.enq_ready = t.enq_ready_o;
    o.deq_valid = t.deq_valid_o;
    o.deq_data = model::BranchRecord::unpack({t.deq_data_o[0], t.deq_data_o[1], t.deq_data_o[2]});
    o.count = t.count_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, Depth) into `reg`.
#define HWPROF_BRANCH_QUEUE_RTL_ADD(V, depth) \
  reg.add(std::to_string(depth), &::hwprof::sim::make_rtl<::hwprof::sim::BranchQueueRtl, ::hwprof::sim::BranchQueueRtlT<V>>);
