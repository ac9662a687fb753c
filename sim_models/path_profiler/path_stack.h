// Cycle model of rtl/path_profiler/hwprof_path_stack.sv. The state change of a
// record is PathStackAlgo::process (the functional model); this class adds
// the handshake, the output register and the 32-bit saturating counters.
//   in_ready = !out_valid | out_ready (combinational from the consumer);
//   go = in_valid & in_ready: the record's operations commit at the edge and
//   its emission (if any) is in the output register from that edge;
//   stall_cycles counts in_valid & !in_ready.
#pragma once

#include <algorithm>

#include "path_stack_algo.h"
#include "prim.h"

namespace hwprof::model {

class PathStack {
 public:
  /// The RTL's stat_* outputs (32-bit saturating).
  struct Stats {
    uint32_t records = 0, emitted = 0, incomplete = 0, splits = 0, overflows = 0, empty_pops = 0, stall_cycles = 0;
  };
  /// Mirrors the ports without suffixes.
  struct In {
    bool in_valid = false;
    PathRecord in_data{};
    bool out_ready = false;
  };
  struct Out {
    bool in_ready = false;
    bool out_valid = false;
    Emission out{};  ///< meaningful only when out_valid
    unsigned count = 0;
    Stats stats;
  };

  explicit PathStack(unsigned depth = 16, unsigned max_len = 32) : algo_(depth, max_len) {}
  void reset() {
    algo_.reset();
    out_valid_ = false;
    stall_cycles_ = 0;
  }
  bool in_ready(bool out_ready) const { return !out_valid_ || out_ready; }
  const PathStackAlgo& algo() const { return algo_; }

  Out step(const In& in) {
    Out o;
    o.in_ready = in_ready(in.out_ready);
    o.out_valid = out_valid_;
    o.out = out_;
    o.count = algo_.occupancy();
    o.stats = stats();
    if (in.in_valid && o.in_ready) {
      auto e = algo_.process(in.in_data);
      out_valid_ = e.has_value();
      if (e) out_ = *e;
    } else if (in.out_ready) {
      out_valid_ = false;
    }
    if (in.in_valid && !o.in_ready) ++stall_cycles_;
    return o;
  }

  /// Counter values as the RTL shows them (saturated to 32 bits).
  Stats stats() const {
    const auto& s = algo_.stats();
    return {sat32(s.records),   sat32(s.emitted),    sat32(s.incomplete),  sat32(s.splits),
            sat32(s.overflows), sat32(s.empty_pops), sat32(stall_cycles_)};
  }

 private:
  PathStackAlgo algo_;
  bool out_valid_ = false;
  Emission out_{};
  uint64_t stall_cycles_ = 0;
};

}  // namespace hwprof::model
