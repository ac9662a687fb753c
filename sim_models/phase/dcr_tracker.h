// Cycle model of rtl/phase/hwprof_dcr_tracker.sv (docs/dcr.md, "Cycle
// behaviour"). The algorithm is DcrAlgo's (dcr_algo.h): the stack operation
// and interval count of a record (DcrAlgo::record), the signature snapshot
// (close_interval) and the table lookup with the Markov update (classify);
// this class adds the interval-end sequence of the RTL, the register port
// and the 32-bit saturating counters. Every step() returns the outputs of
// the cycle (from the state before the edge) and then commits the edge in
// the RTL's order:
//   1. an accepted record: stack operation, counters, interval count; when
//      it ends an interval the sequence starts (state Sig);
//   2. the interval-end sequence advances: Sig (snapshot, stable bits set)
//      -> Search (SigEntries cycles) -> Update (table write, Markov update)
//      -> Wait (Markov result: classify() commits, result registered) ->
//      Out (res_valid until res_ready) -> Idle;
//   3. a register write: STATUS (W1C err), CMD (restart, clear_table,
//      clear_stats; obeyed only when idle before the edge, else err),
//      INTERVAL (0 rejected with err, value kept; a legal value restarts
//      the interval count, docs/phase.md).
#pragma once

#include <algorithm>
#include <cstdint>

#include "dcr_algo.h"
#include "dcr_regs.h"
#include "prim.h"

namespace hwprof::model {

class DcrTracker {
 public:
  /// The counters as the registers show them (32-bit saturating).
  struct Stats {
    uint32_t records = 0, intervals = 0, pushes = 0, pops = 0, overflows = 0, recursions = 0, resyncs = 0,
             new_phases = 0, evictions = 0, scored = 0, correct = 0, stall_cycles = 0;
  };
  /// Mirrors the ports without suffixes.
  struct In {
    bool rec_valid = false;
    BranchRecord rec{};
    bool res_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool rec_ready = false;
    bool res_valid = false;
    DcrResult res{};  ///< meaningful only when res_valid
    uint32_t csr_rdata = 0;
  };

  explicit DcrTracker(const DcrParams& p = {}) : p_(p), algo_(p), interval_(p.interval) {}

  void reset() {
    algo_ = DcrAlgo(p_);
    interval_ = p_.interval;
    err_ = false;
    state_ = State::Idle;
    search_ = 0;
    snap_ = {};
    res_ = {};
    stall_cycles_ = 0;
  }

  bool busy() const { return state_ != State::Idle; }
  const DcrAlgo& algo() const { return algo_; }
  uint32_t interval() const { return interval_; }
  bool err() const { return err_; }

  Stats stats() const {
    const DcrStats& s = algo_.stats();
    return {sat32(s.records),    sat32(s.intervals), sat32(s.pushes),     sat32(s.pops),
            sat32(s.overflows),  sat32(s.recursions), sat32(s.resyncs),   sat32(s.new_phases),
            sat32(s.evictions),  sat32(s.scored),    sat32(s.correct),    sat32(stall_cycles_)};
  }

  /// PARAMS: {SigEntries[15:0], log2(MarkovEntries)[7:0], Depth[7:0]}.
  uint32_t params() const {
    unsigned lg = 0;
    while ((1u << lg) < p_.markov_entries) ++lg;
    return (p_.depth & 0xffu) | (lg & 0xffu) << 8 | (p_.sig_entries & 0xffffu) << 16;
  }

  /// STATUS: bit 0 err, bit 1 busy, bit 2 skip, bits 15:8 stack size.
  uint32_t status() const {
    return uint32_t(err_) | uint32_t(busy()) << 1 | uint32_t(algo_.stack().skip()) << 2 |
           (algo_.stack().size() & 0xffu) << 8;
  }

  uint32_t csr_read(unsigned addr) const {
    const Stats s = stats();
    switch (static_cast<DcrCsr>(addr & 0xf)) {
      case DcrCsr::Status: return status();
      case DcrCsr::Cmd: return 0;
      case DcrCsr::Interval: return interval_;
      case DcrCsr::Records: return s.records;
      case DcrCsr::Intervals: return s.intervals;
      case DcrCsr::Pushes: return s.pushes;
      case DcrCsr::Pops: return s.pops;
      case DcrCsr::Overflows: return s.overflows;
      case DcrCsr::Recursions: return s.recursions;
      case DcrCsr::Resyncs: return s.resyncs;
      case DcrCsr::NewPhases: return s.new_phases;
      case DcrCsr::Evictions: return s.evictions;
      case DcrCsr::Scored: return s.scored;
      case DcrCsr::Correct: return s.correct;
      case DcrCsr::StallCycles: return s.stall_cycles;
      case DcrCsr::Params: return params();
    }
    return 0;
  }

  /// rec_ready: idle, and no CMD or INTERVAL write in this cycle.
  bool rec_ready(const In& in) const {
    const unsigned a = in.csr_addr & 0xf;
    return state_ == State::Idle && !(in.csr_we && (a == unsigned(DcrCsr::Cmd) || a == unsigned(DcrCsr::Interval)));
  }

  Out step(const In& in) {
    Out o;
    o.rec_ready = rec_ready(in);
    o.res_valid = state_ == State::Out;
    o.res = res_;
    o.csr_rdata = csr_read(in.csr_addr);
    const bool was_idle = state_ == State::Idle;

    // 1. An accepted record.
    bool end = false;
    if (in.rec_valid && o.rec_ready) end = algo_.record(in.rec);
    if (in.rec_valid && !o.rec_ready) ++stall_cycles_;
    // 2. The interval-end sequence.
    switch (state_) {
      case State::Idle:
        if (end) state_ = State::Sig;
        break;
      case State::Sig:
        snap_ = algo_.close_interval();
        search_ = 0;
        state_ = State::Search;
        break;
      case State::Search:
        if (++search_ == p_.sig_entries) state_ = State::Update;
        break;
      case State::Update: state_ = State::Wait; break;
      case State::Wait:
        res_ = algo_.classify(snap_);
        state_ = State::Out;
        break;
      case State::Out:
        if (in.res_ready) state_ = State::Idle;
        break;
    }
    // 3. Register writes.
    if (in.csr_we) {
      switch (static_cast<DcrCsr>(in.csr_addr & 0xf)) {
        case DcrCsr::Status:
          if (in.csr_wdata & 1) err_ = false;
          break;
        case DcrCsr::Cmd: {
          const uint32_t c = in.csr_wdata & (kDcrCmdRestart | kDcrCmdClearTable | kDcrCmdClearStats);
          if (!was_idle) {
            if (c) err_ = true;
            break;
          }
          if (c & kDcrCmdRestart) algo_.restart();
          if (c & kDcrCmdClearTable) algo_.clear_table();
          if (c & kDcrCmdClearStats) {
            algo_.clear_stats();
            stall_cycles_ = 0;
          }
          break;
        }
        case DcrCsr::Interval:
          if (in.csr_wdata == 0) {
            err_ = true;
          } else {
            interval_ = in.csr_wdata;
            algo_.set_interval(in.csr_wdata);
          }
          break;
        default: break;
      }
    }
    return o;
  }

 private:
  enum class State { Idle, Sig, Search, Update, Wait, Out };

  DcrParams p_;
  DcrAlgo algo_;
  uint32_t interval_ = IntervalCounter::kDefaultInterval;
  bool err_ = false;
  State state_ = State::Idle;
  unsigned search_ = 0;
  DcrSnapshot snap_{};
  DcrResult res_{};
  uint64_t stall_cycles_ = 0;
};

}  // namespace hwprof::model
