// The lock-step comparison inside a waveform: the scoreboard's compares of
// one traced harness (name, RTL value, model value, care), written beside
// the Verilated signals of the same FST when the harness closes it
// (docs/debugging.md):
//   rtl.<name>       the RTL output as the scoreboard read it
//   model.<name>     the model's expected value (x while the field is masked)
//   mismatch.<name>  1 in a cycle where the two differ (and the field counts)
//   cmp.mismatch     1 in a cycle where any field differs
//   cmp.cycle        the harness cycle of the sample
// A field name with dots ("dump.set") becomes nested scopes. Values are
// placed at the harness's sample time of their cycle (kWaveTicksPerCycle *
// cycle), so they line up with the RTL's ports; widths are the widest value
// recorded. Only cycles inside the harness's dump window are kept.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <string>
#include <unordered_map>
#include <vector>

namespace hwprof::sim {

/// The comparison layout written beside a waveform: "x.fst" -> "x.gtkw".
inline std::string gtkw_path(const std::string& fst) {
  const std::string ext = ".fst";
  if (fst.size() > ext.size() && fst.compare(fst.size() - ext.size(), ext.size(), ext) == 0)
    return fst.substr(0, fst.size() - ext.size()) + ".gtkw";
  return fst + ".gtkw";
}

/// Waveform time units per harness cycle: sample at 10c, rising edge at 10c+5.
constexpr uint64_t kWaveTicksPerCycle = 10;

class WaveCompare {
 public:
  WaveCompare(uint64_t first_cycle, uint64_t last_cycle) : first_(first_cycle), last_(last_cycle) {}

  bool in_window(uint64_t cycle) const { return cycle >= first_ && cycle <= last_; }
  /// Records one cycle's compares. `Fields` is any range of objects with
  /// members name (const char*), expected, actual (uint64_t) and care (bool),
  /// e.g. the scoreboard's std::vector<tb::Field>. Call in cycle order; a
  /// field missing from a cycle keeps its last value.
  template <typename Fields>
  void record(uint64_t cycle, const Fields& fields) {
    if (!in_window(cycle)) return;
    begin(cycle);
    for (const auto& f : fields) field(f.name, f.expected, f.actual, f.care);
    end();
  }
  /// The first mismatch (the layout's marker).
  void set_marker(uint64_t cycle) {
    if (!has_marker_) marker_ = cycle, has_marker_ = true;
  }
  bool has_marker() const { return has_marker_; }
  uint64_t marker() const { return marker_; }
  /// The unit (the layout's title) and its saved RTL layout (a .gtkw whose
  /// signal lines are appended to the comparison layout; empty: none).
  void set_unit(std::string unit, std::string layout) {
    unit_ = std::move(unit);
    layout_ = std::move(layout);
  }
  bool empty() const { return cycles_.empty(); }

  /// Writes `out_fst`: every scope, variable and value change of `in_fst`
  /// plus the comparison signals. Returns false (with `err`) on failure.
  bool merge(const std::string& in_fst, const std::string& out_fst, std::string* err = nullptr) const;
  /// Writes the comparison layout of `fst` to `gtkw`: cmp.*, then per field
  /// rtl / model / mismatch (mismatching fields first), then the unit's
  /// layout; marker and view at the first mismatch.
  bool write_gtkw(const std::string& gtkw, const std::string& fst) const;

  /// The FST / GTKWave name of a field variable in `scope` ("rtl.dump.set"
  /// plus " [w-1:0]" style range as GTKWave shows it, "rtl.dump.set[3:0]").
  std::string signal_name(const std::string& scope, size_t field) const;
  size_t fields() const { return vars_.size(); }
  const std::string& field_name(size_t i) const { return vars_[i].name; }

 private:
  struct Change {
    uint64_t cycle, e, a;
    bool care;
  };
  struct Var {
    std::string name;
    std::vector<Change> ch;
    unsigned width = 1;
    bool ever_mismatched = false;
    uint64_t first_bad = UINT64_MAX;  ///< first cycle it mismatched
    size_t stamp = 0;  ///< cycles_.size() when last set (duplicate names)
  };
  void begin(uint64_t cycle);
  void field(const char* name, uint64_t e, uint64_t a, bool care);
  void end();
  size_t index_of(const char* name);

  uint64_t first_, last_;
  uint64_t cur_ = 0;
  bool cur_any_ = false;
  size_t next_guess_ = 0;
  std::vector<Var> vars_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<uint64_t> cycles_;                      // every recorded cycle
  std::vector<std::pair<uint64_t, bool>> any_;        // cmp.mismatch changes
  bool has_marker_ = false;
  uint64_t marker_ = 0;
  std::string unit_, layout_;
  // GTKWave names of the merged FST's RTL variables, by name without the
  // trailing range (filled by merge(); the unit layout is fitted to them).
  mutable std::unordered_map<std::string, std::string> rtl_names_;
};

}  // namespace hwprof::sim

#include "wave_compare_impl.h"
