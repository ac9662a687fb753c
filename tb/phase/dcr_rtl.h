// The Verilated DCR phase tracker (rtl/phase/hwprof_dcr_tracker.sv) behind its
// cycle model's In/Out interface (model::DcrTracker,
// sim_models/phase/dcr_tracker.h), with its scoreboard fields and lock-step
// engine.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "dcr_tracker.h"
#include "lockstep.h"
#include "path_frontend_rtl.h"  // RtlEngine
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

/// Parameters of a Verilated dcr_tracker configuration.
struct DcrConfig {
  unsigned depth = 32;
  unsigned sig_entries = 64;
  unsigned markov_entries = 256;
  std::string name() const;  ///< "d32_s64_m256"
  /// The model's parameters (INTERVAL at its reset value 1,000,000).
  model::DcrParams params() const;
};
inline void PrintTo(const DcrConfig& c, std::ostream* os) { *os << c.name(); }

using DcrRtl = RtlEngine<model::DcrTracker>;

/// Configurations with a Verilated dcr_tracker (see tb/phase/dcr.cmake):
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
