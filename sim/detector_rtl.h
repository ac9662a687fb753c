// The Verilated phase detector (rtl/phase/hwprof_phase_detector.sv, both modes)
// behind the cycle model's In/Out interface (model::PhaseDetector,
// sim_models/phase/phase_detector.h).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "phase_detector.h"
#include "rtl_engine.h"

namespace hwprof::sim {

/// A Verilated phase_detector configuration.
struct DetectorConfig {
  model::DetectorParams params;  ///< mode, counters, sig_w, entries, markov entries, reset values
  unsigned depth = 16;           ///< path stack (path mode)
  unsigned max_len = 32;
  std::string name() const;  ///< "bbv_n32_s10_e32", "path_n4_s4_e2_d4_l8"
  /// From the RTL parameters (Mode 0 = BBV, 1 = path); the other model
  /// parameters at their defaults.
  static DetectorConfig of(unsigned mode, unsigned counters, unsigned sig_w, unsigned entries,
                           unsigned markov_entries, unsigned threshold, unsigned depth, unsigned max_len);
};
inline void PrintTo(const DetectorConfig& c, std::ostream* os) { *os << c.name(); }

/// The default build of a mode (32 counters, 10-bit elements, 32 entries,
/// Markov 256, INTERVAL 1,000,000, THRESHOLD 128; path stack 16 / 32).
DetectorConfig detector_default(model::DetectorMode mode);

using DetectorRtl = RtlEngine<model::PhaseDetector>;

/// phase_detector builds by DetectorConfig::name().
RtlRegistry<DetectorRtl>& detector_registry();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<DetectorRtl> make_detector_rtl(const DetectorConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
