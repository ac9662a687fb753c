// Failure waveforms of the lock-step tests (docs/debugging.md).
//
// Passing tests trace nothing. When a test fails with a lock-step mismatch
// and was not traced (no TRACE=1), the test binary re-runs that one test in
// a child process (same seed, same stimulus: the runs are deterministic)
// with tracing on for the one harness whose scoreboard failed, for the
// cycles [C - FAIL_WAVE_CYCLES, C + 16] around the first mismatch C. The
// child keeps stepping 16 cycles past the mismatch, then fails as before. The
// FST gets the comparison (rtl.*, model.*, mismatch.*, cmp.*: see
// sim/wave_compare.h) and a layout with a marker at the mismatch; the parent
// prints both paths and the gtkwave command.
//
//   FAIL_WAVE=0           no re-run
//   FAIL_WAVE_CYCLES=<n>  cycles traced before the mismatch (default 2000)
//
// Identification: the harnesses a test constructs are numbered in order
// (sim::harness_hook); the re-run (HWPROF_FAIL_WAVE=<n>:<first>:<last>:
// <cycle>:<fst>) traces harness n only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "wave_compare.h"

namespace hwprof::tb {

/// What a scoreboard knows of the harness built just before it (its engine).
struct WaveBinding {
  std::shared_ptr<sim::WaveCompare> compare;  ///< null: that harness does not trace
  unsigned ordinal = 0;                       ///< harness number within the test
  std::string traced_path;                    ///< its FST when it traces
  std::string fail_path;                      ///< the FST a failure re-run writes
  bool rerun_target = false;                  ///< this process is the re-run, for this harness
};

/// Binds a new scoreboard of `unit` to the last constructed harness (and
/// gives its comparison log the unit's saved layout).
WaveBinding fail_wave_bind(const std::string& unit);

/// The first mismatch of a scoreboard at `cycle`. Returns the number of
/// cycles the scoreboard keeps going (the failure re-run records past the
/// mismatch), else 0; appends to `report` where the waveform will be.
uint64_t fail_wave_mismatch(const WaveBinding& b, uint64_t cycle, const std::string& unit, std::string& report);

/// The saved RTL layout of a unit: tb/<dir>/<unit>.gtkw (or a layout whose
/// name ends the unit's, "detector" for "phase_detector"); empty if none.
std::string unit_layout(const std::string& unit);

}  // namespace hwprof::tb
