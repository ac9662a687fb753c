// The Verilated RAP engine (rtl/rap/hwprof_rap_engine.sv) behind the cycle model's
// In/Out interface (model::RapEngineT, sim_models/rap/rap_engine.h): the 1-D
// builds (RangeW <= 32, model::RapEngine) and the 2-D builds on interleaved
// (code, data) keys (RangeW = 64, model::RapEngine64; docs/rap2d.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rap_engine.h"
#include "rtl_engine.h"

namespace hwprof::sim {

using RapEngineRtl = RtlEngine<model::RapEngine>;
using RapEngine64Rtl = RtlEngine<model::RapEngine64>;

/// Name of a Verilated configuration: "w32_g127_q1024_t4".
std::string rap_config_name(const model::RapEngineConfig& c);
/// The default build: W = 32, 127 groups, RAM TCAM with 4-bit slices.
inline const model::RapEngineConfig kRapDefault{32, 127, 1024, 8, 4, 4};
/// W = 8, 8 groups, 4-deep queue, RAM TCAM with 4-bit slices (two slices).
inline const model::RapEngineConfig kRapSmall{8, 8, 4, 8, 4, 4};
/// kRapSmall with the flip-flop TCAM.
inline const model::RapEngineConfig kRapSmallFf{8, 8, 4, 8, 4, 0};
/// The 2-D build (hwprof profile --unit rap2d --engine rtl): kRapDefault at
/// W = 64, the interleaved keys of two 32-bit addresses.
inline const model::RapEngineConfig kRap2dDefault{64, 127, 1024, 8, 4, 4};
/// W = 64, 8 groups, 4-deep queue, RAM TCAM with 4-bit slices (16 slices).
inline const model::RapEngineConfig kRap2dSmall{64, 8, 4, 8, 4, 4};
/// kRap2dSmall with the flip-flop TCAM.
inline const model::RapEngineConfig kRap2dSmallFf{64, 8, 4, 8, 4, 0};

/// rap_engine builds by rap_config_name() (every build has MaxBuf 8, BufDefault 4).
RtlRegistry<RapEngineRtl>& rap_registry();
/// rap_engine builds at RangeW = 64 (unit rap_engine64 of sim/rtl_configs.cmake).
RtlRegistry<RapEngine64Rtl>& rap64_registry();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimOptions& opt,
                                           const std::string& wave_name, uint64_t seed);
/// The same for a RangeW = 64 build.
std::unique_ptr<RapEngine64Rtl> make_rap64_rtl(const model::RapEngineConfig& cfg, const SimOptions& opt,
                                               const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
