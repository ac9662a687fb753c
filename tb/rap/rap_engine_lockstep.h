// Lock-step engine of the RAP engine: the cycle model (model::RapEngine, or
// model::RapEngine64 for the RangeW = 64 builds; sim_models/rap/rap_engine.h)
// against the Verilated rap_engine (sim/rap_engine_rtl.h), with its
// scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "lockstep.h"
#include "rap_engine.h"
#include "rap_engine_rtl.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::kRap2dDefault;
using sim::kRap2dSmall;
using sim::kRap2dSmallFf;
using sim::kRapDefault;
using sim::kRapSmall;
using sim::kRapSmallFf;
using sim::rap_config_name;
using sim::RapEngine64Rtl;
using sim::RapEngineRtl;

/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                           const std::string& wave_name, uint64_t seed);
/// The same for a RangeW = 64 build.
std::unique_ptr<RapEngine64Rtl> make_rap64_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed);
/// make_rap_rtl or make_rap64_rtl by the model type (generic test helpers).
template <typename Model>
std::unique_ptr<sim::RtlEngine<Model>> make_rap_rtl_for(const model::RapEngineConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed) {
  if constexpr (std::is_same_v<Model, model::RapEngine64>)
    return make_rap64_rtl(cfg, env, wave_name, seed);
  else
    return make_rap_rtl(cfg, env, wave_name, seed);
}

// Scoreboard hooks: every output every cycle except the dump beat's data
// (the model does not place groups in slots; dumps are compared as trees).
template <typename V>
struct LockstepTraits<model::RapEngineT<V>> {
  static std::string describe(const typename model::RapEngineT<V>::In& in);
  static std::vector<Field> fields(const typename model::RapEngineT<V>::Out& e,
                                   const typename model::RapEngineT<V>::Out& a);
};

using RapLockstep = Lockstep<model::RapEngine, RapEngineRtl>;
RapLockstep make_rap_lockstep(const model::RapEngineConfig& cfg, const SimEnv& env, const std::string& name,
                              uint64_t seed);

}  // namespace hwprof::tb
