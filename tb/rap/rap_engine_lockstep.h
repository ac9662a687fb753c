// Lock-step engine of the RAP engine: the cycle model (model::RapEngine,
// sim_models/rap/rap_engine.h) against the Verilated rap_engine
// (sim/rap_engine_rtl.h), with its scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep.h"
#include "rap_engine.h"
#include "rap_engine_rtl.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::kRapDefault;
using sim::kRapSmall;
using sim::kRapSmallFf;
using sim::rap_config_name;
using sim::RapEngineRtl;

/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                           const std::string& wave_name, uint64_t seed);

// Scoreboard hooks: every output every cycle except the dump beat's data
// (the model does not place groups in slots; dumps are compared as trees).
template <>
struct LockstepTraits<model::RapEngine> {
  static std::string describe(const model::RapEngine::In& in);
  static std::vector<Field> fields(const model::RapEngine::Out& e, const model::RapEngine::Out& a);
};

using RapLockstep = Lockstep<model::RapEngine, RapEngineRtl>;
RapLockstep make_rap_lockstep(const model::RapEngineConfig& cfg, const SimEnv& env, const std::string& name,
                              uint64_t seed);

}  // namespace hwprof::tb
