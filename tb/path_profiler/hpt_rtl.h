// The Verilated Hot Path Table (rtl/path_profiler/hwprof_hpt.sv) behind the cycle
// model's In/Out interface (model::Hpt, sim_models/path_profiler/hpt.h), with
// its scoreboard fields and lock-step engine.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "hpt.h"
#include "lockstep.h"
#include "path_frontend_rtl.h"  // RtlEngine
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

/// Parameters of a Verilated hpt configuration.
struct HptConfig {
  unsigned sets = 128;
  unsigned ways = 4;
  std::string name() const;  ///< "s128_w4"
};
inline void PrintTo(const HptConfig& c, std::ostream* os) { *os << c.name(); }

using HptRtl = RtlEngine<model::Hpt>;

/// The dump port of a Verilated hpt or path_profiler (same port names).
template <typename Top>
model::Hpt::DumpEntry read_dump_port(const Top& t) {
  model::Hpt::DumpEntry d;
  d.set = t.dump_set_o;
  d.way = t.dump_way_o;
  d.key.start = t.dump_start_o;
  d.key.length = static_cast<uint8_t>(t.dump_length_o);
  d.key.dirs = t.dump_dirs_o;
  d.acc = t.dump_acc_o;
  return d;
}
/// Scoreboard fields of a dumped entry (compared while `valid`).
void add_dump_fields(std::vector<Field>& f, const model::Hpt::DumpEntry& e, const model::Hpt::DumpEntry& a,
                     bool valid);

/// Configurations with a Verilated hpt (see tb/CMakeLists.txt): 128 x 4 (the
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

}  // namespace hwprof::tb
