// IntervalCounter: the interval boundary rule shared by every phase unit
// (hwprof-spec.md section 5; docs/phase.md "Intervals"). RTL:
// rtl/phase/hwprof_interval_counter.sv.
//
// count holds the instructions retired since the last boundary. A record
// with `insns` instructions ends an interval when count + insns >= interval;
// then count := count + insns - interval, so the next boundary is the
// previous one plus IntervalInsns and boundaries never drift. At most one
// interval ends per record: a record that jumps past two boundaries ends one
// interval, and the record after it ends the next. count saturates at
// 2^40 - 1 (reachable only with records much longer than the interval).
//
// The same class is the functional and the cycle model: the RTL's end_o is
// combinational on the record and count is its only register.
#pragma once

#include <algorithm>
#include <cstdint>

namespace hwprof::model {

class IntervalCounter {
 public:
  /// Default width of the count register (interval_counter.sv, CountW).
  static constexpr unsigned kCountW = 40;
  /// Reset value of every unit's INTERVAL register (spec section 5).
  static constexpr uint32_t kDefaultInterval = 1'000'000;

  explicit IntervalCounter(uint32_t interval = kDefaultInterval, unsigned count_w = kCountW)
      : interval_(interval), count_max_((uint64_t{1} << count_w) - 1) {}

  /// count := 0 (reset, a clear command, or a write of the interval).
  void restart() { count_ = 0; }
  /// Takes effect from the next record; the count is kept.
  void set_interval(uint32_t interval) { interval_ = interval; }
  uint32_t interval() const { return interval_; }
  uint64_t count() const { return count_; }

  /// Would a record with `insns` instructions end an interval now?
  bool ends(uint32_t insns) const { return count_ + insns >= interval_; }

  /// The RTL's ports (interval_counter.sv): one cycle. restart has priority
  /// over step and ends no interval; `end` is combinational on the inputs.
  struct In {
    uint32_t interval = kDefaultInterval;
    bool restart = false;
    bool step = false;
    uint32_t insns = 0;
  };
  struct Out {
    bool end = false;
  };
  Out step(const In& in) {
    interval_ = in.interval;
    if (in.restart) {
      restart();
      return {};
    }
    return {in.step && step(in.insns)};
  }
  void reset() { restart(); }

  /// One record; true when it ends an interval.
  bool step(uint32_t insns) {
    const bool end = ends(insns);
    uint64_t next = count_ + insns;
    if (end) next -= interval_;
    count_ = std::min(next, count_max_);
    return end;
  }

 private:
  uint32_t interval_;
  uint64_t count_max_;
  uint64_t count_ = 0;
};

}  // namespace hwprof::model
