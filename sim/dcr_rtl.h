// The Verilated DCR phase tracker (rtl/phase/hwprof_dcr_tracker.sv) behind its
// cycle model's In/Out interface (model::DcrTracker,
// sim_models/phase/dcr_tracker.h).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "dcr_tracker.h"
#include "rtl_engine.h"

namespace hwprof::sim {

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

/// dcr_tracker builds by DcrConfig::name().
RtlRegistry<DcrRtl>& dcr_registry();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<DcrRtl> make_dcr_rtl(const DcrConfig& cfg, const SimOptions& opt, const std::string& wave_name,
                                     uint64_t seed);

}  // namespace hwprof::sim
