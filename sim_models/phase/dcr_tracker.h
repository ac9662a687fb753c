// Cycle model of rtl/phase/hwprof_dcr_tracker.sv (docs/dcr.md, "Cycle
// behaviour"). The algorithm is DcrAlgo's (dcr_algo.h): the interval count
// of a record (DcrAlgo::count), its stack operation (DcrAlgo::apply), the
// signature snapshot (close_interval) and the table lookup with the Markov
// update (classify); this class adds the input buffer and the interval-end
// sequence of the RTL, the register port and the 32-bit saturating counters.
//
// Records enter a two-entry input buffer (rec_ready = the buffer is not
// full and no CMD / INTERVAL write in this cycle: it never depends on the
// record or the stack). The interval count steps when a record enters the
// buffer (the record keeps its "ends an interval" bit); the stack works on
// the oldest buffered record (the head). Every step() returns the outputs of
// the cycle (from the state before the edge) and then commits the edge in
// the RTL's order:
//   1. the head, when the tracker is idle: after dcr_scan_cycles() scan
//      cycles (the RTL keeps the stack entries in block RAM and reads one per
//      scan cycle, docs/dcr.md "Stack scans") its stack operation and
//      counters commit and it leaves the buffer; when it ends an interval
//      the sequence starts (state Sig);
//   2. an accepted record enters the buffer (interval count);
//   3. the interval-end sequence advances: Sig (snapshot, stable bits set)
//      -> Search (SigEntries cycles) -> Update (table write, Markov update)
//      -> Wait (Markov result: classify() commits, result registered) ->
//      Out (res_valid until res_ready) -> Idle;
//   4. a register write: STATUS (W1C err), CMD (restart, clear_table,
//      clear_stats; obeyed only when not busy before the edge: idle and the
//      buffer empty, else err), INTERVAL (0 rejected with err, value kept;
//      a legal value restarts the interval count, docs/phase.md).
// STALL_CYCLES counts the cycles with a record offered and not taken. The
// counter increments are registered: a register shows a count one edge
// after the event (shown()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

#include "dcr_algo.h"
#include "dcr_regs.h"
#include "prim.h"

namespace hwprof::model {

/// The 8-bit tag of a call target or return address (hwprof_dcr_stack's
/// tag()): the four bytes XORed. The RTL keeps the tag of every function
/// entry's b and return address in flip-flops, so only entries whose tag
/// matches are read from the stack RAM.
inline uint32_t dcr_tag(uint32_t x) { return (x ^ x >> 8 ^ x >> 16 ^ x >> 24) & 0xffu; }

/// Scan cycles of record r on stack s before it can be taken: the number of
/// stack entries hwprof_dcr_stack reads from its RAM, one per cycle
/// (docs/dcr.md, "Stack scans"). The top two entries are in flip-flops.
///   * call: the function entries whose b tag equals the target's, from the
///     bottom up to the first whose b equals the target (all when none does);
///   * ret in skip mode: the function entries at or below the lowest
///     recursion bit (all entries when none) whose return-address tag equals
///     the target's, from the top down to the first whose return address
///     equals the target, plus one cycle when one does (the resync cycle,
///     which reads the two entries under it);
///   * br/jmp/ijmp in normal mode: with n entries and m the entry left on top
///     after the loop exits (-1 for none), every entry j in [max(m, 0), n-3]
///     that is a loop, and entry m when it is a function at or below n-3 and
///     the branch is backward (its hash is needed for the push);
///   * everything else: 0.
inline unsigned dcr_scan_cycles(const DcrStack& s, const BranchRecord& r) {
  const BranchClass cls = classify(r);
  const int n = static_cast<int>(s.size());
  unsigned c = 0;
  if (cls == BranchClass::Call) {
    const uint32_t t = dcr_tag(r.target);
    for (int i = 0; i < n; ++i) {
      const DcrEntry& e = s.entry(unsigned(i));
      if (e.kind != DcrKind::Func || dcr_tag(e.b) != t) continue;
      ++c;
      if (e.b == r.target) break;
    }
  } else if (cls == BranchClass::Return) {
    if (!s.skip()) return 0;
    int limit = n;  // exclusive
    for (int i = 0; i < n; ++i)
      if (s.entry(unsigned(i)).recursion) {
        limit = i + 1;
        break;
      }
    const uint32_t t = dcr_tag(r.target);
    for (int i = limit; i-- > 0;) {
      const DcrEntry& e = s.entry(unsigned(i));
      if (e.kind != DcrKind::Func || dcr_tag(e.ret()) != t) continue;
      ++c;
      if (e.ret() == r.target) {
        ++c;  // the resync cycle: the entries under the match are read
        break;
      }
    }
  } else if (!s.skip()) {
    const uint32_t next = r.next();
    int m = n - 1;
    while (m >= 0 && s.entry(unsigned(m)).kind == DcrKind::Loop &&
           (next < s.entry(unsigned(m)).a || next > s.entry(unsigned(m)).b))
      --m;
    for (int j = n - 3; j >= m && j >= 0; --j) {
      if (s.entry(unsigned(j)).kind == DcrKind::Loop) ++c;
      else if (j == m && cls == BranchClass::Backward) ++c;
    }
  }
  return c;
}

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
    scan_ = 0;
    scan_cycles_ = 0;
    buf_.clear();
    shown_ = {};
  }

  /// Entries of the input buffer.
  static constexpr size_t kBufEntries = 2;

  /// STATUS.busy: an interval end is being answered or its result waits, or
  /// a record waits in the input buffer.
  bool busy() const { return state_ != State::Idle || !buf_.empty(); }
  /// Records in the input buffer.
  size_t buffered() const { return buf_.size(); }
  const DcrAlgo& algo() const { return algo_; }
  uint32_t interval() const { return interval_; }
  /// Scan cycles since reset (not a register: the part of STALL_CYCLES
  /// spent reading stack entries, docs/dcr.md "Stack scans").
  uint64_t scan_cycles() const { return scan_cycles_; }
  bool err() const { return err_; }

  /// The counts so far (saturated); the registers show them one edge later
  /// (shown()).
  Stats stats() const {
    const DcrStats& s = algo_.stats();
    return {sat32(s.records),    sat32(s.intervals), sat32(s.pushes),     sat32(s.pops),
            sat32(s.overflows),  sat32(s.recursions), sat32(s.resyncs),   sat32(s.new_phases),
            sat32(s.evictions),  sat32(s.scored),    sat32(s.correct),    sat32(stall_cycles_)};
  }

  /// What the counter registers show in this cycle: the counter increments
  /// are registered (hwprof_dcr_tracker's stat_inc_q), so a count reaches
  /// its register one edge after the event; a clear_stats zeroes the
  /// counters and the pending increments at its edge.
  const Stats& shown() const { return shown_; }

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
    const Stats& s = shown_;
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

  /// rec_ready: the input buffer has room and no CMD or INTERVAL write in
  /// this cycle.
  bool rec_ready(const In& in) const {
    const unsigned a = in.csr_addr & 0xf;
    return buf_.size() < kBufEntries &&
           !(in.csr_we && (a == unsigned(DcrCsr::Cmd) || a == unsigned(DcrCsr::Interval)));
  }

  Out step(const In& in) {
    Out o;
    o.rec_ready = rec_ready(in);
    o.res_valid = state_ == State::Out;
    o.res = res_;
    o.csr_rdata = csr_read(in.csr_addr);
    const bool was_busy = busy();
    const Stats before = stats();
    bool cleared = false;

    // 1. The head of the input buffer.
    bool end = false;
    if (state_ == State::Idle && !buf_.empty()) {
      if (scan_ >= dcr_scan_cycles(algo_.stack(), buf_.front().rec)) {
        algo_.apply(buf_.front().rec);
        end = buf_.front().end;
        buf_.pop_front();
        scan_ = 0;
      } else {
        ++scan_;  // one stack entry read
        ++scan_cycles_;
      }
    }
    // 2. An accepted record enters the buffer (interval count).
    if (in.rec_valid && o.rec_ready) buf_.push_back({in.rec, algo_.count(in.rec)});
    if (in.rec_valid && !o.rec_ready) ++stall_cycles_;
    // 3. The interval-end sequence.
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
    // 4. Register writes.
    if (in.csr_we) {
      switch (static_cast<DcrCsr>(in.csr_addr & 0xf)) {
        case DcrCsr::Status:
          if (in.csr_wdata & 1) err_ = false;
          break;
        case DcrCsr::Cmd: {
          const uint32_t c = in.csr_wdata & (kDcrCmdRestart | kDcrCmdClearTable | kDcrCmdClearStats);
          if (was_busy) {
            if (c) err_ = true;
            break;
          }
          if (c & kDcrCmdRestart) {
            algo_.restart();
            scan_ = 0;
          }
          if (c & kDcrCmdClearTable) algo_.clear_table();
          if (c & kDcrCmdClearStats) {
            algo_.clear_stats();
            stall_cycles_ = 0;
            cleared = true;
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
    shown_ = cleared ? Stats{} : before;
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
  Stats shown_{};  ///< the counter registers (one edge behind stats())
  struct Buffered {
    BranchRecord rec;
    bool end;  ///< the record ends an interval
  };
  std::deque<Buffered> buf_;  ///< the input buffer, oldest first
  unsigned scan_ = 0;  ///< scan cycles of the head so far
  uint64_t scan_cycles_ = 0;
};

}  // namespace hwprof::model
