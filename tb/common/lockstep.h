// Generic lock-step engine: steps a cycle model and its RTL engine with the
// same inputs every cycle and compares every output through the scoreboard.
// A unit specializes LockstepTraits<Model> with
//   static std::string describe(const Model::In&);            // inputs, one line
//   static std::vector<Field> fields(const Model::Out& expected,
//                                    const Model::Out& actual);  // data masked by valid
// and its RTL engine has reset(), step(In) -> Out, cycles(), flush_wave(),
// wave_path().
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

template <typename Model>
struct LockstepTraits;

template <typename Model, typename Rtl>
class Lockstep {
 public:
  Lockstep(Model model, std::unique_ptr<Rtl> rtl, const std::string& unit, uint64_t seed, const SimEnv& env)
      : model_(std::move(model)), rtl_(std::move(rtl)), sb_(unit, seed) {
    if (env.trace) sb_.set_note("waveform: " + rtl_->wave_path());
  }
  void reset() {
    model_.reset();
    rtl_->reset();
  }
  /// One cycle on both; throws LockstepMismatch at the first difference.
  typename Model::Out step(const typename Model::In& in) {
    const uint64_t c = rtl_->cycles();
    auto e = model_.step(in);
    auto a = rtl_->step(in);
    if (!sb_.check(c, LockstepTraits<Model>::describe(in), LockstepTraits<Model>::fields(e, a))) {
      rtl_->flush_wave();
      throw LockstepMismatch(sb_.report());
    }
    return e;
  }
  uint64_t cycles() const { return rtl_->cycles(); }
  const Scoreboard& scoreboard() const { return sb_; }
  /// Test hook: lets a test make the model deliberately wrong to prove the
  /// scoreboard catches it.
  Model& model() { return model_; }
  Rtl& rtl() { return *rtl_; }

 private:
  Model model_;
  std::unique_ptr<Rtl> rtl_;
  Scoreboard sb_;
};

}  // namespace hwprof::tb
