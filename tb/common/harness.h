// The Verilated harness (sim::Harness, sim/rtl_harness.h) with the tests'
// environment: waveform switches from SimEnv (TRACE, TRACE_START/END,
// WAVE_DIR).
#pragma once

#include <cstdint>
#include <string>

#include "rtl_harness.h"
#include "sim_env.h"

namespace hwprof::tb {

template <typename Top>
class Harness : public sim::Harness<Top> {
 public:
  /// `wave_name` names the FST file (with the seed) when TRACE=1.
  Harness(const SimEnv& env, const std::string& wave_name, uint64_t seed)
      : sim::Harness<Top>(env.options(), wave_name, seed) {}
};

}  // namespace hwprof::tb
