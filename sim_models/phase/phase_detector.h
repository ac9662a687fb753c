// Cycle models of rtl/phase/hwprof_detector_core.sv (DetectorCore) and
// rtl/phase/hwprof_phase_detector.sv (PhaseDetector: the register port and the
// feature source of the mode around the core; bbv_phase.sv and
// path_phase.sv fix the mode). docs/phase_detector.md, "Cycle behaviour".
//
// The state change of an interval end is DetectorAlgo::end_interval (the
// functional model), committed at the edge where the core takes the item
// that ends the interval. The signature pass runs in the background (the
// accumulators are double-banked): when the pass is free (idle: no pass
// running and no result offered, registered state only) the pass of the
// ending interval starts at that edge and the core keeps taking items; it
// stays busy for exactly DetectorParams::busy_cycles(allocated) cycles and
// offers the result from the next cycle until it is taken. When the pass is
// not free the interval end waits (end pending): the core takes no item
// until the pass is idle again (the cycle after the running pass's result
// is taken), and the waiting pass starts at that edge. res_ready never
// starts a pass (keeps the result handshake off the pass-start logic). These
// cycles are the only stalls the core adds (STALL_CYCLES).
#pragma once

#include <algorithm>
#include <cstdint>

#include "detector_algo.h"
#include "detector_regs.h"
#include "path_classifier.h"
#include "path_frontend.h"  // PpcrReg
#include "path_stack.h"
#include "prim.h"

namespace hwprof::model {

/// Cycle model of detector_core.sv.
class DetectorCore {
 public:
  struct Stats {
    uint32_t records = 0, features = 0, intervals = 0, phases = 0, busy_cycles = 0;
  };
  struct In {
    bool restart = false;           ///< CTRL.restart (priority over everything)
    bool interval_we = false;       ///< INTERVAL written (legal value): restarts the count
    uint32_t interval = IntervalCounter::kDefaultInterval;
    uint32_t threshold = 128;       ///< THRESHOLD register
    bool hold = false;              ///< a register write this cycle: no item is taken
    bool item_valid = false;
    bool feat_valid = false;
    uint32_t key = 0;
    uint32_t weight = 0;            ///< 24 bits
    uint16_t insns = 0;
    bool res_ready = false;
  };
  struct Out {
    bool item_ready = false;
    bool busy = false;
    bool res_valid = false;
    DetectorResult res{};  ///< meaningful only when res_valid
  };

  /// Cycles between the edge that takes a result and the start of an
  /// interval end waiting behind it (the pass starts from Idle only): the
  /// records stall for them too.
  static constexpr unsigned kPendingStartDelay = 1;

  explicit DetectorCore(const DetectorParams& p = {}) : algo_(p) {}
  void reset() {
    algo_.restart();
    algo_.set_interval(algo_.params().interval);
    busy_left_ = 0;
    res_valid_ = false;
    res_ = {};
    end_pending_ = false;
    pend_res_ = {};
    pend_alloc_ = false;
    stats_ = {};
  }
  bool idle() const { return busy_left_ == 0 && !res_valid_ && !end_pending_; }
  bool busy() const { return busy_left_ > 0; }
  bool res_pending() const { return res_valid_; }
  /// An interval end waits for the running pass (items stall).
  bool end_pending() const { return end_pending_; }
  bool item_ready(const In& in) const { return !end_pending_ && !in.restart && !in.hold; }

  Out step(const In& in) {
    Out o;
    o.item_ready = item_ready(in);
    o.busy = busy_left_ > 0;
    o.res_valid = res_valid_;
    o.res = res_;
    if (in.restart) {
      algo_.restart();
      busy_left_ = 0;
      res_valid_ = false;
      end_pending_ = false;
      return o;
    }
    if (in.interval_we) algo_.set_interval(in.interval);
    // The pass is free for a new interval end at this edge: idle (no pass
    // running, no result offered; a result taken now frees it from the next
    // cycle on).
    const bool taken = res_valid_ && in.res_ready;
    const bool free = busy_left_ == 0 && !res_valid_;
    if (busy_left_ > 0) {
      stats_.busy_cycles = sat32(stats_.busy_cycles + uint64_t{1});
      if (--busy_left_ == 0) res_valid_ = true;
    } else if (taken) {
      res_valid_ = false;
      stats_.intervals = sat32(stats_.intervals + uint64_t{1});
      if (!res_.matched) stats_.phases = sat32(stats_.phases + uint64_t{1});
    }
    if (free && end_pending_) {
      start(pend_res_, pend_alloc_);
      end_pending_ = false;
    } else if (in.item_valid && o.item_ready) {
      stats_.records = sat32(stats_.records + uint64_t{1});
      if (in.feat_valid) {
        algo_.feature(in.key, in.weight);
        stats_.features = sat32(stats_.features + uint64_t{1});
      }
      algo_.set_threshold(in.threshold);
      if (auto r = algo_.tick(in.insns)) {
        if (free) {
          start(*r, algo_.last_allocated());
        } else {
          pend_res_ = *r;
          pend_alloc_ = algo_.last_allocated();
          end_pending_ = true;
        }
      }
    }
    return o;
  }

  const DetectorAlgo& algo() const { return algo_; }
  const Stats& stats() const { return stats_; }

 private:
  void start(const DetectorResult& r, bool allocated) {
    res_ = r;
    res_valid_ = false;
    busy_left_ = algo_.params().busy_cycles(allocated);
  }

  DetectorAlgo algo_;
  uint64_t busy_left_ = 0;
  bool res_valid_ = false;
  DetectorResult res_{};
  bool end_pending_ = false;  ///< an interval end waits for the pass
  DetectorResult pend_res_{};
  bool pend_alloc_ = false;
  Stats stats_;
};

/// Cycle model of phase_detector.sv (Mode from params.mode).
class PhaseDetector {
 public:
  struct In {
    bool rec_valid = false;
    BranchRecord rec_data{};
    bool res_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;  ///< 4 bits
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool rec_ready = false;
    bool res_valid = false;
    DetectorResult res{};  ///< meaningful only when res_valid
    uint32_t csr_rdata = 0;
  };

  /// depth, max_len: the path stack (path mode).
  explicit PhaseDetector(const DetectorParams& p = {}, unsigned depth = 16, unsigned max_len = 32)
      : p_(p), core_(p), stack_(depth, max_len) {
    reset();
  }

  void reset() {
    core_.reset();
    classifier_.reset();
    stack_.reset();
    ppcr_.reset();
    interval_ = p_.interval;
    threshold_ = p_.threshold;
    err_ = false;
    tick_valid_ = false;
    tick_insns_ = 0;
    ignored_ = 0;
    stall_ = 0;
  }

  uint32_t csr_read(unsigned addr) const {
    const auto& s = core_.stats();
    const bool path = p_.mode == DetectorMode::Path;
    switch (static_cast<DetCsr>(addr)) {
      case DetCsr::Ctrl: return 0;
      case DetCsr::Status:
        return uint32_t(err_) | (path && ppcr_.err() ? kDetStatusPpcrErr : 0) | busy_bits();
      case DetCsr::Interval: return interval_;
      case DetCsr::Threshold: return threshold_;
      case DetCsr::Ppcr: return path ? ppcr_.value() : 0;
      case DetCsr::Records: return s.records;
      case DetCsr::Features: return s.features;
      case DetCsr::Ignored: return ignored_;
      case DetCsr::Intervals: return s.intervals;
      case DetCsr::Phases: return s.phases;
      case DetCsr::StallCycles: return stall_;
      case DetCsr::BusyCycles: return s.busy_cycles;
      case DetCsr::Params:
        return (p_.counters & 0xffu) | (p_.sig_w & 0xffu) << 8 | (p_.entries & 0xffu) << 16 | uint32_t(path) << 24;
    }
    return 0;
  }

  Out step(const In& in) {
    Out o;
    o.csr_rdata = csr_read(in.csr_addr);
    const bool path = p_.mode == DetectorMode::Path;
    // Register writes (decoded as in the RTL).
    const auto a = static_cast<DetCsr>(in.csr_addr);
    const bool we = in.csr_we;
    const bool restart = we && a == DetCsr::Ctrl && in.csr_wdata == kDetCtrlRestart;
    const bool ctrl_bad = we && a == DetCsr::Ctrl && in.csr_wdata > kDetCtrlRestart;
    const bool int_we = we && a == DetCsr::Interval && in.csr_wdata != 0;
    const bool int_bad = we && a == DetCsr::Interval && in.csr_wdata == 0;
    const bool thr_we = we && a == DetCsr::Threshold && p_.legal_threshold(in.csr_wdata);
    const bool thr_bad = we && a == DetCsr::Threshold && !p_.legal_threshold(in.csr_wdata);
    const bool clr_err = we && a == DetCsr::Status && (in.csr_wdata & kDetStatusErr);
    const bool clr_ppcr_err = we && a == DetCsr::Status && (in.csr_wdata & kDetStatusPpcrErr);

    DetectorCore::In ci;
    ci.restart = restart;
    ci.interval_we = int_we;
    ci.interval = in.csr_wdata;
    ci.threshold = threshold_;
    ci.hold = we;
    ci.res_ready = in.res_ready;
    const bool core_ready = core_.item_ready(ci);

    if (!path) {
      ci.item_valid = in.rec_valid;
      ci.feat_valid = true;
      ci.key = in.rec_data.pc;
      ci.weight = in.rec_data.insns;
      ci.insns = in.rec_data.insns;
      o.rec_ready = core_ready;
    } else {
      const bool tick_free = !tick_valid_ || core_ready;
      const bool stack_ready = stack_.in_ready(core_ready) && tick_free;
      const bool cls_valid = classifier_.out_valid();
      auto c = classifier_.step({ppcr_.value(), in.rec_valid, in.rec_data, stack_ready});
      o.rec_ready = c.in_ready;
      const bool go = cls_valid && stack_ready;
      auto s = stack_.step({cls_valid && tick_free, c.out_data, core_ready});
      ci.item_valid = tick_valid_;
      ci.feat_valid = s.out_valid && !s.out.path.incomplete;
      ci.key = DetectorAlgo::path_key(s.out.path);
      ci.weight = s.out.path.insns;
      ci.insns = tick_insns_;
      if (tick_valid_ && core_ready && s.out_valid && s.out.path.incomplete) ignored_ = sat32(ignored_ + uint64_t{1});
      if (go) {
        tick_valid_ = true;
        tick_insns_ = c.out_data.insns;
      } else if (core_ready) {
        tick_valid_ = false;
      }
      const bool wr_ppcr = we && a == DetCsr::Ppcr;
      ppcr_.step({wr_ppcr, in.csr_wdata, clr_ppcr_err});
    }
    if (in.rec_valid && !o.rec_ready) stall_ = sat32(stall_ + uint64_t{1});

    auto co = core_.step(ci);
    o.res_valid = co.res_valid;
    o.res = co.res;

    if (clr_err) err_ = false;
    if (ctrl_bad || int_bad || thr_bad) err_ = true;
    if (int_we) interval_ = in.csr_wdata;
    if (thr_we) threshold_ = in.csr_wdata;
    return o;
  }

  const DetectorCore& core() const { return core_; }
  const DetectorParams& params() const { return p_; }

 private:
  uint32_t busy_bits() const {
    // busy: the pass runs or an interval end waits for it.
    return (core_.busy() || core_.end_pending() ? kDetStatusBusy : 0) |
           (core_.res_pending() ? kDetStatusResValid : 0);
  }
  DetectorParams p_;
  DetectorCore core_;
  PathClassifier classifier_;
  PathStack stack_;
  PpcrReg ppcr_;
  uint32_t interval_ = IntervalCounter::kDefaultInterval;
  uint32_t threshold_ = 128;
  bool err_ = false;
  bool tick_valid_ = false;
  uint16_t tick_insns_ = 0;
  uint32_t ignored_ = 0;
  uint32_t stall_ = 0;
};

}  // namespace hwprof::model
