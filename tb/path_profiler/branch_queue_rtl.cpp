#include "branch_queue_rtl.h"

#include <stdexcept>

#include "Vbranch_queue_d1.h"
#include "Vbranch_queue_d2.h"
#include "Vbranch_queue_d4.h"
#include "Vbranch_queue_d8.h"
#include "harness.h"

namespace hwprof::tb {

namespace {

template <typename V>
class BranchQueueRtlT final : public BranchQueueRtl {
 public:
  BranchQueueRtlT(const SimEnv& env, const std::string& name, uint64_t seed) : h_(env, name, seed) { reset(); }
  void reset() override {
    auto& t = h_.top();
    t.enq_valid_i = 0;
    t.deq_ready_i = 0;
    h_.reset();
  }
  model::BranchQueue::Out step(const model::BranchQueue::In& in) override {
    auto& t = h_.top();
    t.enq_valid_i = in.enq_valid;
    t.deq_ready_i = in.deq_ready;
    auto w = in.enq_data.pack();
    for (int i = 0; i < 3; ++i) t.enq_data_i[i] = w[i];
    h_.eval();
    model::BranchQueue::Out o;
    o.enq_ready = t.enq_ready_o;
    o.deq_valid = t.deq_valid_o;
    o.deq_data = model::BranchRecord::unpack({t.deq_data_o[0], t.deq_data_o[1], t.deq_data_o[2]});
    o.count = t.count_o;
    h_.tick();
    return o;
  }
  uint64_t cycles() const override { return h_.cycle(); }
  void flush_wave() override { h_.flush(); }
  std::string wave_path() const override { return h_.wave_path(); }

 private:
  Harness<V> h_;
};

}  // namespace

const std::vector<unsigned>& BranchQueueRtl::depths() {
  static const std::vector<unsigned> d = {1, 2, 4, 8};
  return d;
}

std::unique_ptr<BranchQueueRtl> BranchQueueRtl::create(unsigned depth, const SimEnv& env, const std::string& name,
                                                       uint64_t seed) {
  switch (depth) {
    case 1: return std::make_unique<BranchQueueRtlT<Vbranch_queue_d1>>(env, name, seed);
    case 2: return std::make_unique<BranchQueueRtlT<Vbranch_queue_d2>>(env, name, seed);
    case 4: return std::make_unique<BranchQueueRtlT<Vbranch_queue_d4>>(env, name, seed);
    case 8: return std::make_unique<BranchQueueRtlT<Vbranch_queue_d8>>(env, name, seed);
    default:
      throw std::invalid_argument("branch queue depth " + std::to_string(depth) +
                                  " has no RTL build (Verilated depths: 1, 2, 4, 8)");
  }
}

std::vector<Field> branch_queue_fields(const model::BranchQueue::Out& e, const model::BranchQueue::Out& a) {
  const bool v = e.deq_valid;
  return {
      {"enq_ready", e.enq_ready, a.enq_ready},
      {"deq_valid", e.deq_valid, a.deq_valid},
      {"count", e.count, a.count},
      {"deq_data.kind", e.deq_data.kind, a.deq_data.kind, v},
      {"deq_data.pc", e.deq_data.pc, a.deq_data.pc, v},
      {"deq_data.target", e.deq_data.target, a.deq_data.target, v},
      {"deq_data.taken", e.deq_data.taken, a.deq_data.taken, v},
      {"deq_data.ilen", e.deq_data.ilen, a.deq_data.ilen, v},
      {"deq_data.insns", e.deq_data.insns, a.deq_data.insns, v},
      {"deq_data.events", e.deq_data.events, a.deq_data.events, v},
  };
}

BranchQueueLockstep::BranchQueueLockstep(unsigned depth, const SimEnv& env, const std::string& name, uint64_t seed)
    : model_(depth), rtl_(BranchQueueRtl::create(depth, env, name, seed)), sb_("branch_queue", seed) {
  if (env.trace) sb_.set_note("waveform: " + rtl_->wave_path());
}

void BranchQueueLockstep::reset() {
  model_.reset();
  rtl_->reset();
}

model::BranchQueue::Out BranchQueueLockstep::step(const model::BranchQueue::In& in) {
  const uint64_t c = rtl_->cycles();
  auto e = model_.step(in);
  auto a = rtl_->step(in);
  if (!sb_.check(c, std::string("enq_valid=") + (in.enq_valid ? "1" : "0") + " enq_data={" + in.enq_data.str() +
                        "} deq_ready=" + (in.deq_ready ? "1" : "0"),
                 branch_queue_fields(e, a))) {
    rtl_->flush_wave();
    throw LockstepMismatch(sb_.report());
  }
  return e;
}

}  // namespace hwprof::tb
