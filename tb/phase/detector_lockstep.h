// Lock-step engine of the phase detector (both modes): the cycle model
// (model::PhaseDetector, sim_models/phase/phase_detector.h) against the
// Verilated phase_detector (sim/detector_rtl.h), with its scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "detector_rtl.h"
#include "lockstep.h"
#include "phase_detector.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::DetectorConfig;
using sim::DetectorRtl;

/// Configurations with a Verilated phase_detector (sim/rtl_configs.cmake, in its order):
/// the defaults in both modes (32 counters, 10-bit elements, 32 entries,
/// Markov 256, INTERVAL 1,000,000, THRESHOLD 128), and small ones (4
/// counters, 4-bit elements, 2 entries, Markov 4, THRESHOLD 4; path stack
/// depth 4, MaxLen 8) for hand-worked cases, LRU eviction and overflow.
const std::vector<DetectorConfig>& detector_configs();
/// The configuration of that mode and size ("default" or "small").
const DetectorConfig& detector_config(model::DetectorMode mode, bool small);
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<DetectorRtl> make_detector_rtl(const DetectorConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed);

template <>
struct LockstepTraits<model::PhaseDetector> {
  static std::string describe(const model::PhaseDetector::In& in);
  static std::vector<Field> fields(const model::PhaseDetector::Out& e, const model::PhaseDetector::Out& a);
};

using DetectorLockstep = Lockstep<model::PhaseDetector, DetectorRtl>;

DetectorLockstep make_detector_lockstep(const DetectorConfig& cfg, const SimEnv& env, const std::string& name,
                                        uint64_t seed);

}  // namespace hwprof::tb
