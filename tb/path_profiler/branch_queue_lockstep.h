// The lock-step engine of the branch queue: steps the model and the Verilated
// branch_queue (sim/branch_queue_rtl.h) together and compares them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "branch_queue.h"
#include "branch_queue_rtl.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::BranchQueueRtl;

/// Depths with a Verilated configuration (sim/rtl_configs.cmake), list order.
const std::vector<unsigned>& branch_queue_depths();
/// Throws std::invalid_argument for a depth that was not Verilated.
std::unique_ptr<BranchQueueRtl> make_branch_queue_rtl(unsigned depth, const SimEnv& env,
                                                      const std::string& wave_name, uint64_t seed);

/// Steps the model and the RTL with the same inputs every cycle; the
/// scoreboard compares every output (data masked by deq_valid) and the
/// occupancy probe. Throws LockstepMismatch at the first difference.
class BranchQueueLockstep {
 public:
  BranchQueueLockstep(unsigned depth, const SimEnv& env, const std::string& name, uint64_t seed);
  void reset();
  model::BranchQueue::Out step(const model::BranchQueue::In& in);
  uint64_t cycles() const { return rtl_->cycles(); }
  const Scoreboard& scoreboard() const { return sb_; }
  /// Test hook: lets a test make the model deliberately wrong to prove the
  /// scoreboard catches it.
  model::BranchQueue& model() { return model_; }

 private:
  model::BranchQueue model_;
  std::unique_ptr<BranchQueueRtl> rtl_;
  Scoreboard sb_;
};

/// Scoreboard fields of the branch queue outputs.
std::vector<Field> branch_queue_fields(const model::BranchQueue::Out& exp, const model::BranchQueue::Out& act);

}  // namespace hwprof::tb
