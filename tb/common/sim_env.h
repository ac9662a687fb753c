// Test-bench environment: seeds, waveform switches and stimulus throttles,
// read from environment variables so a failing run replays exactly. The
// engines (sim/) take the waveform switches as sim::SimOptions (options()).
//
//   SEED=<n>          base seed (default 1); printed by every test
//   SEEDS=<n>         number of seeds a random test sweeps (default per test)
//   TRACE=1           write an FST waveform (off by default)
//   TRACE_START=<c>   first cycle dumped (default 0)
//   TRACE_END=<c>     last cycle dumped (default: end of test)
//   WAVE_DIR=<dir>    where waveforms go (default ./waves)
//   FAIL_WAVE=0       no failure waveform (a failed lock-step test re-runs
//                     itself traced around the first mismatch: fail_wave.h)
//   FAIL_WAVE_CYCLES=<n>  cycles of it before the mismatch (default 2000)
//   IDLE_PCT=<p>      percent of cycles a source inserts a bubble (override)
//   STALL_PCT=<p>     percent of cycles a sink refuses (override)
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "sim_options.h"

namespace hwprof::tb {

struct SimEnv {
  uint64_t seed = 1;
  unsigned seeds = 0;  ///< 0: the test's own default
  bool trace = false;
  uint64_t trace_start = 0;
  uint64_t trace_end = UINT64_MAX;
  std::string wave_dir = "waves";
  int idle_pct = -1;   ///< -1: the test's own default
  int stall_pct = -1;

  static SimEnv from_env();
  /// The engines' options: TRACE, TRACE_START/END and WAVE_DIR.
  sim::SimOptions options() const;
  /// Bubble / backpressure percentages for one seed of a random sweep:
  /// IDLE_PCT / STALL_PCT when set, else the seed picks from 0/10/50/90%
  /// (16 consecutive seeds cover every pair).
  int idle_for(uint64_t s) const { return idle_pct >= 0 ? idle_pct : kSweepPct[s % 4]; }
  int stall_for(uint64_t s) const { return stall_pct >= 0 ? stall_pct : kSweepPct[(s / 4) % 4]; }
  static constexpr int kSweepPct[4] = {0, 10, 50, 90};
  /// "<wave_dir>/<test>_seed<seed>.fst"; creates wave_dir.
  std::string wave_path(const std::string& test, uint64_t seed) const;
};

/// Random bubble / backpressure inserter: true with probability pct/100.
class Throttle {
 public:
  Throttle(uint64_t seed, int pct) : rng_(seed), pct_(pct) {}
  /// True if this cycle should be throttled (bubble or ready low).
  bool operator()() { return pct_ > 0 && static_cast<int>(rng_() % 100) < pct_; }
  int pct() const { return pct_; }

 private:
  std::mt19937_64 rng_;
  int pct_;
};

}  // namespace hwprof::tb
