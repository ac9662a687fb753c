// Lock-step scoreboard: compares every output of the DUT with the model
// every cycle (data fields masked by their valid), keeps a short history and,
// at the first mismatch, builds a report with cycle, seed, inputs, expected,
// actual and the last cycles, then fails. Bound to the harness built just
// before it (its engine's): when that harness traces, every compare goes
// into its waveform (rtl.*, model.*, mismatch.*: sim/wave_compare.h), and a
// failing test leaves a waveform of the mismatch (tb/common/fail_wave.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "fail_wave.h"

namespace hwprof::tb {

/// One compared output. `care` = false masks the field (e.g. data while
/// valid is low).
struct Field {
  const char* name;
  uint64_t expected;
  uint64_t actual;
  bool care = true;
};

/// Thrown by lock-step engines at the first mismatch; what() is the report.
class LockstepMismatch : public std::runtime_error {
 public:
  explicit LockstepMismatch(const std::string& m) : std::runtime_error(m) {}
};

class Scoreboard {
 public:
  Scoreboard(std::string unit, uint64_t seed, size_t history = 12)
      : unit_(std::move(unit)), seed_(seed), depth_(history), wave_(fail_wave_bind(unit_)) {}

  /// Compares one cycle. Returns true if every cared field matches; on the
  /// first mismatch returns false and report() explains it.
  bool check(uint64_t cycle, const std::string& inputs, const std::vector<Field>& fields);
  bool failed() const { return failed_; }
  const std::string& report() const { return report_; }
  uint64_t cycles_checked() const { return checked_; }
  /// Extra line appended to a failure report (e.g. the waveform path).
  void set_note(std::string n) { note_ = std::move(n); }
  /// The waveform this scoreboard records into (compare null: none).
  const WaveBinding& wave() const { return wave_; }

 private:
  std::string unit_;
  uint64_t seed_;
  size_t depth_;
  // The last `depth_` matched cycles, kept raw (a ring) and formatted only
  // for a failure report: passing cycles pay a copy, not the formatting.
  struct Seen {
    uint64_t cycle = 0;
    std::string inputs;
    std::vector<Field> fields;
  };
  std::vector<Seen> ring_;
  size_t ring_next_ = 0, ring_used_ = 0;
  std::string report_, note_;
  bool failed_ = false;
  uint64_t checked_ = 0;
  WaveBinding wave_;
  uint64_t hold_until_ = 0;  ///< failure re-run: keeps recording up to this cycle
};

}  // namespace hwprof::tb
