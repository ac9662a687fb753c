// Lock-step engine of the DCR phase tracker: the cycle model
// (model::DcrTracker, sim_models/phase/dcr_tracker.h) against the Verilated
// dcr_tracker (sim/dcr_rtl.h), with its scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "dcr_rtl.h"
#include "dcr_tracker.h"
#include "lockstep.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::DcrConfig;
using sim::DcrRtl;

/// Configurations with a Verilated dcr_tracker (sim/rtl_configs.cmake):
/// 32/64/256 (the default, first), 4/2/4 (tiny: overflow, LRU eviction and
/// Markov aliasing within a few records), 8/5/2 (a table size that is not a
/// power of two).
const std::vector<DcrConfig>& dcr_configs();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<DcrRtl> make_dcr_rtl(const DcrConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed);

// Scoreboard hooks (see lockstep.h): every output every cycle, the result
// masked by res_valid.
template <>
struct LockstepTraits<model::DcrTracker> {
  static std::string describe(const model::DcrTracker::In& in);
  static std::vector<Field> fields(const model::DcrTracker::Out& e, const model::DcrTracker::Out& a);
};

using DcrLockstep = Lockstep<model::DcrTracker, DcrRtl>;

DcrLockstep make_dcr_lockstep(const DcrConfig& cfg, const SimEnv& env, const std::string& name, uint64_t seed);

}  // namespace hwprof::tb
