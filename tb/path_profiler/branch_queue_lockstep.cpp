#include "branch_queue_lockstep.h"

#include "hwprof_rtl_configs.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

const std::vector<unsigned>& branch_queue_depths() {
  static const std::vector<unsigned> d = {
#define X(V, use, depth) depth,
      HWPROF_RTL_CONFIGS_branch_queue(X)
#undef X
  };
  return d;
}

std::unique_ptr<BranchQueueRtl> make_branch_queue_rtl(unsigned depth, const SimEnv& env,
                                                      const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_branch_queue_rtl(depth, env.options(), wave_name, seed);
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
    : model_(depth), rtl_(make_branch_queue_rtl(depth, env, name, seed)), sb_("branch_queue", seed) {
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
