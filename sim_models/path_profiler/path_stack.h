// Cycle model of rtl/path_profiler/hwprof_path_stack.sv. The state change of a
// record is PathStackAlgo::process (the functional model); this class adds
// the handshake, the output register and the 32-bit saturating counters.
//   in_ready = !out_valid | out_ready (combinational from the consumer);
//   go = in_valid & in_ready: the record's operations commit at the edge and
//   its emission (if any) is in the output register from that edge;
//   stall_cycles counts in_valid & !in_ready.
//
// Storage (docs/path_stack.md, "Storage"): the model also mirrors the RTL's
// RAM-backed stack, to check that the scheme can serve every record without
// a stall and to report which storage states a stimulus reached:
//   * entry 0 (the top) in flip-flops; entries 1..count-1 in a RAM of
//     Slots = 2^max(1, clog2(Depth-1)) words used as a circular stack (a word
//     leaves out dirs[MaxLen-1] and, for MaxLen a power of two, the length's
//     top bit: 0 on every entry below the top, length < MaxLen), wp =
//     the slot of entry 1 (entry i at slot wp - (i-1) mod Slots);
//   * a push alone on a non-empty stack (after step 2) spills the old top
//     (after step 3) to slot wp+1 and makes it wp; on a full stack (count
//     Depth) that write abandons the bottom entry's slot (the overflow
//     discard is a pointer move, not a shift);
//   * a pop alone with count >= 2 fills the top from entry 1 and moves wp
//     down: from the bypass register when the previous edge spilled (the
//     RAM read at that edge collided with the write), else from the RAM's
//     read register, which every edge loads with the word at the next wp
//     (read-ahead, latency 1);
//   * pop + push, update and records without operations touch only the top.
// No record pattern needs a stall (the bypass register covers a pop right
// after a spill, the read-ahead covers pop runs of any length), so the ports
// behave exactly as with the former shift-register stack. The mirror throws
// std::logic_error if it ever disagrees with PathStackAlgo (a broken scheme,
// not a stimulus error); words never written since reset and a colliding
// read are poisoned, so consuming one is caught.
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

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
  /// Storage events (model only, cumulative over resets): what a stimulus
  /// exercised in the RAM-backed storage.
  struct Coverage {
    uint64_t spills = 0;          ///< old top written to the RAM (push alone)
    uint64_t full_spills = 0;     ///< spills on a full stack (bottom slot abandoned)
    uint64_t fills_ram = 0;       ///< top refilled from the RAM's read register
    uint64_t fills_bypass = 0;    ///< top refilled from the bypass register (pop right after a spill)
    uint64_t pop_push = 0;        ///< pop + push (top rewritten, RAM untouched)
    uint64_t wraps = 0;           ///< wp crossed the end of the RAM (either way)
    unsigned max_fill_run = 0;    ///< longest run of fills on consecutive records
    uint64_t fill_after_fill = 0;   ///< fills whose previous record also filled
    uint64_t spill_after_spill = 0; ///< spills whose previous record also spilled
    unsigned max_ram_entries = 0; ///< most entries held in the RAM
    uint64_t resets_with_ram = 0; ///< resets while the RAM held entries
  };

  explicit PathStack(unsigned depth = 16, unsigned max_len = 32)
      : algo_(depth, max_len), slots_(depth < 2 ? 0 : 1u << std::max(1u, clog2(depth - 1))), ram_(slots_) {}
  void reset() {
    if (algo_.occupancy() >= 2) ++cov_.resets_with_ram;
    algo_.reset();
    out_valid_ = false;
    stall_cycles_ = 0;
    // Control state resets; the RAM and its read register keep stale words
    // in the RTL: poisoned here, so a scheme that read one would be caught.
    wp_ = 0;
    fwd_ = false;
    rdata_.reset();
    std::fill(ram_.begin(), ram_.end(), std::nullopt);
    fill_run_ = 0;
    last_spill_ = false;
  }
  bool in_ready(bool out_ready) const { return !out_valid_ || out_ready; }
  const PathStackAlgo& algo() const { return algo_; }
  const Coverage& coverage() const { return cov_; }
  /// RAM words of the storage (0 for Depth 1).
  unsigned slots() const { return slots_; }

  Out step(const In& in) {
    Out o;
    o.in_ready = in_ready(in.out_ready);
    o.out_valid = out_valid_;
    o.out = out_;
    o.count = algo_.occupancy();
    o.stats = stats();
    if (in.in_valid && o.in_ready) {
      const unsigned n0 = algo_.occupancy();
      auto e = algo_.process(in.in_data);
      out_valid_ = e.has_value();
      if (e) out_ = *e;
      storage_edge(true, n0);
    } else {
      if (in.out_ready) out_valid_ = false;
      storage_edge(false, 0);
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
  static unsigned clog2(unsigned v) {
    unsigned b = 0;
    while ((1u << b) < v) ++b;
    return b;
  }
  static void check(bool ok, const char* what) {
    if (!ok) throw std::logic_error(std::string("PathStack storage mirror: ") + what);
  }

  // One clock edge of the storage: the RAM write and read-ahead, the bypass
  // register and wp; go = a record was processed, n0 = occupancy before it.
  void storage_edge(bool go, unsigned n0) {
    unsigned wp_d = wp_;
    bool write = false;
    PathEntry wdata{};
    if (go && algo_.last_ops().pop && algo_.last_ops().push) ++cov_.pop_push;
    if (go && slots_ > 0) {
      const PathOps& ops = algo_.last_ops();
      const bool touch = ops.upd || ops.updc;
      const unsigned count1 = n0 + ((touch && n0 == 0) ? 1 : 0);  // after step 2
      const bool spill = ops.push && !ops.pop && count1 >= 1;
      const bool fill = ops.pop && !ops.push && count1 >= 2;
      if (spill && last_spill_) ++cov_.spill_after_spill;
      last_spill_ = spill;
      if (spill) {
        wp_d = (wp_ + 1) & (slots_ - 1);
        write = true;
        wdata = algo_.entry(1);  // the old top after step 3
        // The RAM word leaves out dirs[MaxLen-1] and the length's top bit
        // when MaxLen is a power of two: both are 0 on a spilled entry.
        check(wdata.length < algo_.max_len() && !(wdata.dirs >> (algo_.max_len() - 1) & 1u),
              "spilled entry does not fit the RAM word");
        ++cov_.spills;
        if (count1 == algo_.depth()) ++cov_.full_spills;
        if (wp_d == 0) ++cov_.wraps;
      }
      if (fill) {
        const PathEntry* src = nullptr;
        if (fwd_) {
          src = &spill_;
          ++cov_.fills_bypass;
        } else {
          check(rdata_.has_value(), "fill from an unwritten or colliding RAM word");
          src = &*rdata_;
          ++cov_.fills_ram;
        }
        check(algo_.occupancy() >= 1 && *src == algo_.entry(0), "filled top differs from the functional model");
        if (wp_ == 0) ++cov_.wraps;
        wp_d = (wp_ + slots_ - 1) & (slots_ - 1);
        if (fill_run_ > 0) ++cov_.fill_after_fill;
        cov_.max_fill_run = std::max(cov_.max_fill_run, ++fill_run_);
      } else {
        fill_run_ = 0;
      }
    }
    if (slots_ > 0) {
      // Read-ahead at this edge: the word at the next wp, before the write;
      // a collision with the write reads garbage (the bypass covers it).
      rdata_ = (write) ? std::nullopt : ram_[wp_d];
      if (write) {
        ram_[wp_d] = wdata;
        spill_ = wdata;
      }
      fwd_ = write;
      wp_ = wp_d;
      // Every entry below the top is in its slot.
      const unsigned n = algo_.occupancy();
      for (unsigned i = 1; i < n; ++i) {
        const auto& w = ram_[(wp_ + slots_ - (i - 1)) & (slots_ - 1)];
        check(w.has_value() && *w == algo_.entry(i), "RAM slot differs from the functional model's entry");
      }
      cov_.max_ram_entries = std::max(cov_.max_ram_entries, n > 0 ? n - 1 : 0u);
    }
  }

  PathStackAlgo algo_;
  bool out_valid_ = false;
  Emission out_{};
  uint64_t stall_cycles_ = 0;
  // Storage mirror.
  unsigned slots_;
  std::vector<std::optional<PathEntry>> ram_;
  std::optional<PathEntry> rdata_;  // the RAM's read register
  PathEntry spill_{};               // bypass register: the word spilled at the last edge
  bool fwd_ = false;                // the last edge spilled
  unsigned wp_ = 0;
  unsigned fill_run_ = 0;
  bool last_spill_ = false;
  Coverage cov_;
};

}  // namespace hwprof::model
