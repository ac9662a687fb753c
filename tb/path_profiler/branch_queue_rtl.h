// The Verilated branch_queue behind the model's In/Out interface, and the
// lock-step engine that steps RTL and model together and compares them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "branch_queue.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

/// RTL engine: same interface as model::BranchQueue.
class BranchQueueRtl {
 public:
  virtual ~BranchQueueRtl() = default;
  virtual void reset() = 0;
  /// Applies `in`, samples the outputs, then clocks one rising edge.
  virtual model::BranchQueue::Out step(const model::BranchQueue::In& in) = 0;
  /// Clock edges so far (reset() can be called at any time, mid-stream too).
  virtual uint64_t cycles() const = 0;
  virtual void flush_wave() = 0;
  virtual std::string wave_path() const = 0;

  /// Depths with a Verilated configuration (see tb/CMakeLists.txt).
  static const std::vector<unsigned>& depths();
  /// Throws std::invalid_argument for a depth that was not Verilated.
  static std::unique_ptr<BranchQueueRtl> create(unsigned depth, const SimEnv& env, const std::string& wave_name,
                                                uint64_t seed);
};

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
