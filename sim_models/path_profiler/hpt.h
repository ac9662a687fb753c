// Cycle model of rtl/path_profiler/hwprof_hpt.sv (docs/hpt.md, "Cycle behaviour").
// The table update of a descriptor is HptAlgo::insert (the functional
// model); this class adds the pipeline (a descriptor accepted at edge e
// commits at edge e + kCommitLatency: S1 read, S2 prepare, S3 decide), the
// control and command registers, the dump walk and the 32-bit saturating
// counters. Every step() returns the outputs of the cycle (from the state
// before the edge) and then commits the edge in the RTL's order:
//   0. the outcome registered at the last edge reaches the counters
//      (DESCS..IGNORED show a commit kStatsLatency edges after acceptance,
//      one edge after the commit; STALL_CYCLES counts at its own edge);
//   1. the descriptor in S3 commits (HptAlgo::insert; its outcome is
//      registered, counted at the next edge); the others move one stage on;
//   2. a register write: CTRL (illegal values rejected, err set), STATUS
//      (W1C err), CMD (clear table, clear statistics, start a dump; ignored
//      with err set while a dump is busy), in that order. clear_stats zeroes
//      the counters and drops both the outcome counted at this edge (step 0)
//      and the one registered at it (step 1): the statistics are those of
//      the descriptors that commit after the clearing edge, as without the
//      outcome register;
//   3. the dump walk advances;
//   4. an accepted descriptor enters S1 with the CTRL value before the edge.
// The dump walk starts with kDrainCycles Drain cycles: the descriptors in
// flight commit and their table writes land before the walk reads the RAMs.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hpt_algo.h"
#include "hpt_regs.h"
#include "prim.h"

namespace hwprof::model {

class Hpt {
 public:
  /// The counters as the registers show them (32-bit saturating).
  struct Stats {
    uint32_t descs = 0, hits = 0, fills = 0, replacements = 0, rejects = 0, saturations = 0, ignored = 0,
             stall_cycles = 0;
    bool operator==(const Stats& o) const {
      return descs == o.descs && hits == o.hits && fills == o.fills && replacements == o.replacements &&
             rejects == o.rejects && saturations == o.saturations && ignored == o.ignored &&
             stall_cycles == o.stall_cycles;
    }
  };
  /// One entry on the dump port.
  struct DumpEntry {
    unsigned set = 0, way = 0;
    PathKey key;
    uint32_t acc = 0;
    bool operator==(const DumpEntry& o) const {
      return set == o.set && way == o.way && key == o.key && acc == o.acc;
    }
  };
  /// Mirrors the ports without suffixes. in_desc carries the descriptor
  /// fields the HPT uses (start, length, dirs, events, insns, incomplete).
  struct In {
    bool in_valid = false;
    PathEntry in_desc{};
    bool dump_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool in_ready = false;
    bool dump_valid = false;
    DumpEntry dump{};  ///< meaningful only when dump_valid
    bool dump_busy = false;
    uint32_t csr_rdata = 0;
  };

  /// Edges from acceptance to commit: accepted at edge e, a descriptor is
  /// in S1, S2, S3 and commits at edge e + 3 (its counts are visible in the
  /// cycle after that edge).
  static constexpr unsigned kCommitLatency = 3;
  /// Drain cycles of a dump: the last descriptor accepted commits at the
  /// third edge, the RAM write of that commit lands at the fourth.
  static constexpr unsigned kDrainCycles = kCommitLatency + 1;
  /// Edges from acceptance to the counters: the outcome of a commit is
  /// registered at the commit edge and counted at the next one, so DESCS ..
  /// IGNORED show a descriptor accepted at edge e in the cycle after edge
  /// e + kStatsLatency (STALL_CYCLES counts in the cycle of the stall).
  static constexpr unsigned kStatsLatency = kCommitLatency + 1;
  /// Busy cycles of a dump without backpressure.
  /// Cycles per set: Read (the RAMs read the set), Load (its valid bits are
  /// registered), then one Emit cycle per way.
  static constexpr unsigned dump_cycles(unsigned sets, unsigned ways) { return kDrainCycles + sets * (2 + ways); }

  /// prob: the probation area (hwprof_hpt's ProbSets, ProbWays, ProbFpBits,
  /// ProbCountBits; sets = 0: none, CTRL.policy 3 is then illegal). The
  /// probation area adds no stage and no stall: policy 3 commits through
  /// HptAlgo::insert like the others.
  explicit Hpt(unsigned sets = 128, unsigned ways = 4, const HptProbation& prob = {})
      : algo_(sets, ways, HptSketch{}, prob) {}

  void reset() {
    algo_.reset();
    ctrl_ = HptCtrl::reset_value();
    err_ = false;
    state_ = State::Idle;
    dump_set_ = dump_way_ = 0;
    drain_ = 0;
    for (auto& x : pipe_) x = Slot{};
    pending_ = HptStats{};
    stall_cycles_ = 0;
  }

  bool in_ready() const { return state_ == State::Idle; }
  bool dump_busy() const { return state_ != State::Idle; }
  const HptAlgo& algo() const { return algo_; }
  /// The build has a probation area (CTRL.policy 3 legal).
  bool has_probation() const { return algo_.probation().sets > 0; }
  uint32_t ctrl() const { return ctrl_; }
  bool err() const { return err_; }
  /// True while a descriptor is in flight (S1, S2 or S3; it commits within
  /// kCommitLatency edges).
  bool s1_busy() const { return pipe_[0].valid || pipe_[1].valid || pipe_[2].valid; }

  Stats stats() const {
    // The functional model's counts less the outcome not yet counted.
    const auto& a = algo_.stats();
    const auto& p = pending_;
    return {sat32(a.descs - p.descs),
            sat32(a.hits - p.hits),
            sat32(a.fills - p.fills),
            sat32(a.replacements - p.replacements),
            sat32(a.rejects - p.rejects),
            sat32(a.saturations - p.saturations),
            sat32(a.ignored - p.ignored),
            sat32(stall_cycles_)};
  }

  uint32_t params() const {
    return reg_field(algo_.set_bits(), kHptParamsSetBitsLsb, kHptParamsSetBitsW) |
           (has_probation() ? kHptParamsProb : 0u) | reg_field(algo_.ways(), kHptParamsWaysLsb, kHptParamsWaysW);
  }

  uint32_t csr_read(unsigned addr) const {
    const Stats s = stats();
    switch (static_cast<HptCsr>(addr)) {
      case HptCsr::Ctrl: return ctrl_;
      case HptCsr::Status: return (err_ ? kHptStatusErr : 0u) | (dump_busy() ? kHptStatusDumpBusy : 0u);
      case HptCsr::Cmd: return 0;
      case HptCsr::Descs: return s.descs;
      case HptCsr::Hits: return s.hits;
      case HptCsr::Fills: return s.fills;
      case HptCsr::Replacements: return s.replacements;
      case HptCsr::Rejects: return s.rejects;
      case HptCsr::Saturations: return s.saturations;
      case HptCsr::Ignored: return s.ignored;
      case HptCsr::StallCycles: return s.stall_cycles;
      case HptCsr::Params: return params();
    }
    return 0;
  }

  Out step(const In& in) {
    Out o;
    o.in_ready = in_ready();
    o.dump_busy = dump_busy();
    o.csr_rdata = csr_read(in.csr_addr);
    if (state_ == State::Emit) {
      const HptEntry& x = algo_.entry(dump_set_, dump_way_);
      o.dump_valid = x.valid;
      o.dump = {dump_set_, dump_way_, x.key, x.acc};
    }

    // 0. The outcome registered at the last edge is counted.
    pending_ = HptStats{};
    // 1. S3 commits (its outcome is registered: pending_); S2 and S1 move
    // on.
    if (pipe_[kCommitLatency - 1].valid) {
      const HptStats before = algo_.stats();
      algo_.insert(Emission{pipe_[kCommitLatency - 1].desc}, HptCtrl::unpack(pipe_[kCommitLatency - 1].ctrl));
      const HptStats& after = algo_.stats();
      pending_.descs = after.descs - before.descs;
      pending_.hits = after.hits - before.hits;
      pending_.fills = after.fills - before.fills;
      pending_.replacements = after.replacements - before.replacements;
      pending_.rejects = after.rejects - before.rejects;
      pending_.saturations = after.saturations - before.saturations;
      pending_.ignored = after.ignored - before.ignored;
    }
    for (unsigned k = kCommitLatency - 1; k > 0; --k) pipe_[k] = pipe_[k - 1];
    pipe_[0] = Slot{};
    // 2. Register writes.
    const uint32_t ctrl_before = ctrl_;
    const bool was_idle = state_ == State::Idle;
    if (in.csr_we) {
      switch (static_cast<HptCsr>(in.csr_addr)) {
        case HptCsr::Ctrl:
          if (HptCtrl::legal(in.csr_wdata, has_probation()))
            ctrl_ = in.csr_wdata & HptCtrl::kMask;
          else
            err_ = true;
          break;
        case HptCsr::Status:
          if (in.csr_wdata & kHptStatusErr) err_ = false;
          break;
        case HptCsr::Cmd:
          if (!was_idle) {
            if (in.csr_wdata & (kHptCmdClear | kHptCmdDump | kHptCmdClearStats)) err_ = true;
            break;
          }
          if (in.csr_wdata & kHptCmdClear) algo_.clear();
          if (in.csr_wdata & kHptCmdClearStats) {
            algo_.clear_stats();  // the counted and the registered outcome too
            pending_ = HptStats{};
            stall_cycles_ = 0;
          }
          break;
        default: break;
      }
    }
    // 3. The dump walk.
    switch (state_) {
      case State::Idle: break;
      case State::Drain:
        if (++drain_ == kDrainCycles) state_ = State::Read;
        break;
      case State::Read: state_ = State::Load; break;
      case State::Load:
        state_ = State::Emit;
        dump_way_ = 0;
        break;
      case State::Emit:
        if (!o.dump_valid || in.dump_ready) {
          if (dump_way_ + 1 < algo_.ways()) {
            ++dump_way_;
          } else if (dump_set_ + 1 < algo_.sets()) {
            ++dump_set_;
            state_ = State::Read;
          } else {
            state_ = State::Idle;
          }
        }
        break;
    }
    if (was_idle && in.csr_we && in.csr_addr == unsigned(HptCsr::Cmd) && (in.csr_wdata & kHptCmdDump)) {
      state_ = State::Drain;
      dump_set_ = dump_way_ = 0;
      drain_ = 0;
    }
    // 4. Intake.
    if (in.in_valid && o.in_ready) pipe_[0] = Slot{true, in.in_desc, ctrl_before};
    // (A CMD write is only obeyed when idle, and then in_ready was high: a
    // statistics clear never races a stall count.)
    if (in.in_valid && !o.in_ready) ++stall_cycles_;
    return o;
  }

 private:
  enum class State { Idle, Drain, Read, Load, Emit };

  HptAlgo algo_;
  uint32_t ctrl_ = HptCtrl::reset_value();
  bool err_ = false;
  State state_ = State::Idle;
  unsigned dump_set_ = 0, dump_way_ = 0;
  unsigned drain_ = 0;
  /// The descriptors in flight: pipe_[k] in stage S(k+1), with the CTRL
  /// value of their acceptance.
  struct Slot {
    bool valid = false;
    PathEntry desc{};
    uint32_t ctrl = 0;
  };
  Slot pipe_[kCommitLatency];
  /// The outcome of the commit at the last edge (registered, counted at the
  /// next edge): algo_.stats() already holds it, the counters not yet.
  HptStats pending_{};
  uint64_t stall_cycles_ = 0;
};

}  // namespace hwprof::model
