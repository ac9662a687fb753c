// Lock-step engine of the Hot Path Table: the cycle model (model::Hpt,
// sim_models/path_profiler/hpt.h) against the Verilated hpt
// (sim/hpt_rtl.h), with its scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "hpt.h"
#include "hpt_rtl.h"
#include "lockstep.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::HptConfig;
using sim::HptRtl;
using sim::read_dump_port;
using sim::RtlEngine;

/// Scoreboard fields of a dumped entry (compared while `valid`).
void add_dump_fields(std::vector<Field>& f, const model::Hpt::DumpEntry& e, const model::Hpt::DumpEntry& a,
                     bool valid);

/// Configurations with a Verilated hpt (sim/rtl_configs.cmake): 128 x 4 (the
/// default, first), 4 x 2 (tiny: a set fills after two paths), 1 x 4 (fully
/// associative), 16 x 8 (eight ways: a three-level minimum search).
const std::vector<HptConfig>& hpt_configs();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<HptRtl> make_hpt_rtl(const HptConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed);

// Scoreboard hooks (see lockstep.h): every output every cycle, the dump
// entry masked by dump_valid.
template <>
struct LockstepTraits<model::Hpt> {
  static std::string describe(const model::Hpt::In& in);
  static std::vector<Field> fields(const model::Hpt::Out& e, const model::Hpt::Out& a);
};

using HptLockstep = Lockstep<model::Hpt, HptRtl>;

HptLockstep make_hpt_lockstep(const HptConfig& cfg, const SimEnv& env, const std::string& name, uint64_t seed);

/// A Verilated hpt with the probation area of policy 3 (lfu+prob;
/// sim/rtl_configs.cmake unit hpt_prob): the table and the area.
struct HptProbConfig {
  HptConfig table;
  model::HptProbation prob;
  std::string name() const;  ///< "s128_w4_p128x4x12x14"
};
inline void PrintTo(const HptProbConfig& c, std::ostream* os) { *os << c.name(); }
/// The hpt_prob configurations: 128 x 4 with 128 x 4 x (12 + 14) (first),
/// 4 x 2 with 2 x 2 x (4 + 3).
const std::vector<HptProbConfig>& hpt_prob_configs();
/// The lock-step pair of a probation configuration (the model built with
/// the same area); throws std::invalid_argument if it was not Verilated.
HptLockstep make_hpt_prob_lockstep(const HptProbConfig& cfg, const SimEnv& env, const std::string& name,
                                   uint64_t seed);

}  // namespace hwprof::tb
