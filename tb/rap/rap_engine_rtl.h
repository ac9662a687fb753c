// The Verilated RAP engine (rtl/rap/hwprof_rap_engine.sv) behind the cycle model's
// In/Out interface (model::RapEngine, sim_models/rap/rap_engine.h), with its
// scoreboard fields and lock-step engine.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep.h"
#include "path_frontend_rtl.h"  // RtlEngine
#include "rap_engine.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using RapEngineRtl = RtlEngine<model::RapEngine>;

/// Name of a Verilated configuration: "w32_g127_q1024_t4".
std::string rap_config_name(const model::RapEngineConfig& c);
/// The default build: W = 32, 127 groups, RAM TCAM with 4-bit slices.
inline const model::RapEngineConfig kRapDefault{32, 127, 1024, 8, 4, 4};
/// W = 8, 8 groups, 4-deep queue, RAM TCAM with 4-bit slices (two slices).
inline const model::RapEngineConfig kRapSmall{8, 8, 4, 8, 4, 4};
/// kRapSmall with the flip-flop TCAM.
inline const model::RapEngineConfig kRapSmallFf{8, 8, 4, 8, 4, 0};
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
