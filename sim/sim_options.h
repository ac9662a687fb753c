// Options of a Verilated simulation run (waveform switches), set by whoever
// drives the engines: the hwprof CLI from its command line, the tests from
// their environment (tb::SimEnv::options()). Nothing in sim/ reads the
// environment.
#pragma once

#include <cstdint>
#include <string>

namespace hwprof::sim {

struct SimOptions {
  bool wave = false;                ///< write an FST waveform
  std::string wave_file;            ///< the FST file; empty: "<wave_dir>/<name>_seed<seed>.fst"
  std::string wave_dir = "waves";   ///< where named waveforms go
  uint64_t wave_start = 0;          ///< first cycle dumped
  uint64_t wave_end = UINT64_MAX;   ///< last cycle dumped

  /// The waveform file of a run named `name` with `seed` (wave_file when
  /// set); creates wave_dir for a named one.
  std::string wave_path(const std::string& name, uint64_t seed) const;
};

}  // namespace hwprof::sim
