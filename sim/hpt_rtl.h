// The Verilated Hot Path Table (rtl/path_profiler/hwprof_hpt.sv) behind the cycle
// model's In/Out interface (model::Hpt, sim_models/path_profiler/hpt.h).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "hpt.h"
#include "rtl_engine.h"

namespace hwprof::sim {

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

/// hpt builds by HptConfig::name().
RtlRegistry<HptRtl>& hpt_registry();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<HptRtl> make_hpt_rtl(const HptConfig& cfg, const SimOptions& opt, const std::string& wave_name,
                                     uint64_t seed);

}  // namespace hwprof::sim
