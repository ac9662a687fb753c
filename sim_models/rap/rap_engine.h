// Cycle model of rtl/rap/hwprof_rap_engine.sv (docs/rap_engine.md). The tree update
// of a pair is RapTreeT::add (the functional model, written once) and the
// merging buffer is RapEventBuffer; this class adds the event queue, the
// pair register P, the match/update pipeline (S0: match P's value; M: the
// registered match; S1: update; D: the structural change a commit decided),
// the controller's
// pass and dump states, the register port and the stall accounting. Every
// step() returns the outputs of the cycle (from the state before the edge)
// and then commits the edge in the RTL's order:
//   0. CMD.clear overrides everything (tree, buffer, queue, pipeline, counters;
//      the event taken in that cycle is dropped too);
//   1. controller: a pass or TCAM-write cycle counts down (the tree already
//      holds the result, the RTL computes it over these cycles; the order is
//      capacity pass, TCAM write of the split, scheduled pass); a dump beat
//      advances;
//      in RUN the pair in S1 commits (RapTree::add) unless the decision
//      stage D acts in this cycle. A commit that changes the tree's
//      structure (split or pass) is acted on in the next cycle (D: the RTL
//      registers the split check's outcome, so the decision never reaches
//      the stream's moves in its own cycle): in the commit's cycle the
//      stream moves on as usual; in D's cycle nothing moves (counted in
//      STALL_FLUSH), the split is made (the RTL corrects the pairs in S1 and
//      M whose leaf split) and a pass or TCAM write starts at its edge.
//      After a pass the pairs in S1 and M are stale: the first two RUN
//      cycles after any pass a commit started re-match S1's pair, then M's
//      (nothing moves; each counted in STALL_FLUSH, whether S1 and M hold a
//      pair or not, so STALL_FLUSH does not depend on the stream's timing);
//   2. M moves to S1 (RUN, not D's cycle, not a re-match cycle); S0: P
//      moves to M (the same, M free after this edge);
//   3. buffer: in FLUSH mode the oldest entry goes to P (FLUSH mode ends at
//      the edge of a cycle that began with the buffer empty); otherwise the
//      queue head enters the buffer (merged, appended, or emitting a pair into
//      P, which needs P free after step 2); frozen while dumping;
//   4. register writes (staged parameters, STATUS W1C, CMD flush / dump);
//   5. the ingress event is pushed into the queue;
//   6. the tree counters shown on the register port are copied from the tree
//      unless the controller is in a pass or a TCAM write.
// RapEngineT<V> is templated on the value (key) type like RapTreeT:
// RapEngine (uint32_t, RangeW <= 32) is the 1-D engine, RapEngine64
// (uint64_t, RangeW <= 64) the same engine on the 2-D tree's interleaved
// (code, data) keys (docs/rap2d.md, "Engine").
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>

#include "prim.h"
#include "rap_event_buffer.h"
#include "rap_regs.h"
#include "rap_tree.h"

namespace hwprof::model {

/// Build-time parameters of one engine (the RTL's parameters).
struct RapEngineConfig {
  unsigned range_bits = 32;      ///< RangeW: 2, 4, 8, 16, 32 (RapEngine) or 64 (RapEngine64)
  unsigned groups = 127;         ///< Groups: child groups of four (NodeCap up to 4*Groups+1 nodes)
  unsigned queue_depth = 1024;   ///< QueueDepth
  unsigned max_buf = kRapBufMaxDepth;  ///< MaxBuf
  unsigned buf_default = 4;      ///< BUF_DEPTH after reset
  unsigned tcam_slice = 4;       ///< TcamSlice: 0 flip-flop TCAM, else the RAM TCAM's slice width
  unsigned cap_max() const { return 4 * groups + 4; }
  /// Cycles of the RAM TCAM's entry write after a split (the TWR state):
  /// 2^TcamSlice addresses plus one refresh cycle; 0 for the flip-flop TCAM
  /// (docs/rap_engine.md, "TCAM write latency").
  uint64_t tcam_write_cycles() const { return tcam_slice ? (uint64_t{1} << tcam_slice) + 1 : 0; }
  /// Cycles of one merge pass that starts with `nodes` nodes: one per group
  /// (internal node), one per depth H-1..0 and one drain cycle for the scan
  /// pipeline's last stage (docs/rap_engine.md, "Merge pass").
  uint64_t pass_cycles(uint64_t nodes) const { return (nodes - 1) / 4 + range_bits / 2 + 1; }
};

/// One dump beat: beat 0 is the root, beat 1 + s is group slot s.
struct RapDumpBeat {
  bool valid = false;   ///< the slot holds a group (always 1 for the root beat)
  unsigned depth = 0;   ///< depth of the group's four nodes (0: the root beat)
  uint64_t prefix = 0;  ///< the parent's prefix (left-aligned, low bits 0; RangeW bits)
  uint64_t count[4] = {0, 0, 0, 0};  ///< the four nodes' counters (root beat: count[0])
};

template <class V>
class RapEngineT {
 public:
  using Value = V;
  using Tree = RapTreeT<V>;
  /// Mirrors the ports without suffixes.
  struct In {
    bool ev_valid = false;
    V ev_value = 0;
    uint16_t ev_weight = 0;
    bool dump_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool ev_ready = false;
    bool dump_valid = false;
    bool dump_last = false;
    RapDumpBeat dump{};  ///< RTL only (the model does not place groups in slots)
    uint32_t csr_rdata = 0;
  };
  /// Tree counters as the register port shows them.
  struct Shown {
    uint64_t n = 0, pairs = 0, splits = 0, skipped = 0, sched = 0, cap = 0, merges = 0, nodes = 1, peak = 1;
    bool full = false;
  };

  explicit RapEngineT(const RapEngineConfig& c = {}) : cfg_(c), tree_(params_for(c, defaults(c))) { reset(); }

  void reset() {
    staged_ = defaults(cfg_);
    err_ = false;
    clear();
  }

  const RapEngineConfig& config() const { return cfg_; }
  const Tree& tree() const { return tree_; }
  const RapEventBuffer& buffer() const { return buf_; }
  bool idle() const { return st_ == St::Run && !d_ && !s1_ && !m_ && !p_ && buf_.empty() && !flush_ && q_.empty(); }
  bool err() const { return err_; }

  uint32_t csr_read(unsigned addr) const {
    switch (static_cast<RapCsr>(addr)) {
      case RapCsr::Eps: return staged_.eps;
      case RapCsr::Cap: return staged_.cap;
      case RapCsr::MergeFirst: return staged_.merge_first;
      case RapCsr::BufDepth: return staged_.buf;
      case RapCsr::Cmd: return 0;
      case RapCsr::Status:
        return (err_ ? kRapStErr : 0) | (idle() ? kRapStIdle : 0) | (shown_.full ? kRapStFull : 0) |
               (st_ == St::Dump ? kRapStDump : 0) | (st_ == St::Pass ? kRapStPass : 0) |
               (flush_ ? kRapStFlush : 0) | (st_ == St::Twr ? kRapStTcam : 0);
      case RapCsr::NLo: return static_cast<uint32_t>(shown_.n);
      case RapCsr::NHi: return static_cast<uint32_t>(shown_.n >> 32);
      case RapCsr::Raw: return sat32(raw_);
      case RapCsr::Pairs: return sat32(shown_.pairs);
      case RapCsr::Splits: return sat32(shown_.splits);
      case RapCsr::Skipped: return sat32(shown_.skipped);
      case RapCsr::SchedPasses: return sat32(shown_.sched);
      case RapCsr::CapPasses: return sat32(shown_.cap);
      case RapCsr::Merges: return sat32(shown_.merges);
      case RapCsr::Nodes: return sat32(shown_.nodes);
      case RapCsr::Peak: return sat32(shown_.peak);
      case RapCsr::StallFlush: return sat32(stall_flush_);
      case RapCsr::StallCap: return sat32(stall_cap_);
      case RapCsr::StallSched: return sat32(stall_sched_);
      case RapCsr::InStall: return sat32(in_stall_);
      case RapCsr::Params:
        return field(cfg_.groups, kRapParamsGroupsLsb, kRapParamsGroupsW) |
               field(cfg_.max_buf, kRapParamsMaxBufLsb, kRapParamsMaxBufW) |
               field(cfg_.range_bits, kRapParamsRangeWLsb, kRapParamsRangeWW) |
               field(cfg_.tcam_slice, kRapParamsTcamSliceLsb, kRapParamsTcamSliceW);
      case RapCsr::StallTcam: return sat32(stall_tcam_);
    }
    return 0;
  }

  Out step(const In& in) {
    Out o;
    o.ev_ready = q_.size() != cfg_.queue_depth;
    o.dump_valid = st_ == St::Dump;
    o.dump_last = st_ == St::Dump && beat_ == cfg_.groups;
    o.csr_rdata = csr_read(in.csr_addr);
    if (in.ev_valid && !o.ev_ready) ++in_stall_;

    // 0. CMD.clear.
    if (in.csr_we && in.csr_addr == unsigned(RapCsr::Cmd) && (in.csr_wdata & kRapCmdClear)) {
      clear();
      return o;
    }
    const bool idle_before = idle();
    const St st_before = st_;

    // 1. Controller.
    bool disturbed = false, committed = false;
    if (st_ == St::Pass || st_ == St::Twr) {
      if (rem_cap_ > 0) {
        --rem_cap_;
        ++stall_cap_;
      } else if (rem_twr_ > 0) {
        --rem_twr_;
        ++stall_tcam_;
      } else {
        --rem_sched_;
        ++stall_sched_;
      }
      st_ = busy_state();
    } else if (st_ == St::Dump) {
      if (in.dump_ready) {
        if (beat_ == cfg_.groups)
          st_ = St::Run;
        else
          ++beat_;
      }
    } else if (d_) {
      // D's cycle: the structural change of the last commit.
      disturbed = true;
      d_ = false;
      ++stall_flush_;
      if (d_pass_) rematch_ = 2;
      st_ = busy_state();
    } else if (s1_ && rematch_ == 0) {  // S1 waits through the re-match cycles
      const Shown before = shown_;
      const auto u = tree_.add(static_cast<V>(s1_pair_.value), s1_pair_.weight);
      committed = true;
      if (u.split || u.capacity_pass || u.scheduled_pass) {
        d_ = true;
        d_pass_ = u.capacity_pass || u.scheduled_pass;
        rem_cap_ = u.capacity_pass ? cfg_.pass_cycles(u.capacity_pass_nodes) : 0;
        rem_twr_ = u.split ? cfg_.tcam_write_cycles() : 0;
        rem_sched_ = u.scheduled_pass ? cfg_.pass_cycles(u.scheduled_pass_nodes) : 0;
        // Until D acts the register port shows the commit only (n, PAIRS,
        // a skip at a full tree), not the split or the pass.
        shown_d_ = before;
        shown_d_.n = tree_.n();
        ++shown_d_.pairs;
        if (u.split_skipped && !u.capacity_pass) ++shown_d_.skipped;
      }
    }

    // 2. M -> S1; P -> M; or a re-match cycle.
    const bool run = st_before == St::Run && !disturbed;
    const bool rematch = run && rematch_ > 0;
    const bool adv_m = run && !rematch && m_;
    const bool adv_p = run && !rematch && p_ && (!m_ || adv_m);
    const bool p_free = !p_ || adv_p;
    s1_ = adv_m || (s1_ && !committed);
    if (adv_m) {
      s1_pair_ = m_pair_;
      m_ = false;
    }
    if (rematch) {
      --rematch_;
      ++stall_flush_;  // a re-match cycle (S1's pair, then M's, searched again)
    }
    if (adv_p) {
      m_pair_ = p_pair_;
      m_ = true;
      p_ = false;
    }

    // 3. Buffer.
    const bool buf_empty_before = buf_.empty();
    if (st_before != St::Dump) {
      if (flush_) {
        if (p_free && !buf_.empty()) {
          p_pair_ = *buf_.pop_oldest();
          p_ = true;
        }
      } else if (!q_.empty()) {
        const RapPair h = q_.front();
        if (p_free || !buf_.would_emit(h.value, h.weight)) {
          if (const auto e = buf_.push(h.value, h.weight)) {
            p_pair_ = *e;
            p_ = true;
          }
          q_.pop_front();
          ++raw_;
        }
      }
    }
    flush_ = flush_ && !buf_empty_before;  // flush mode ends the cycle after the buffer is empty

    // 4. Register writes.
    if (in.csr_we) write(in.csr_addr, in.csr_wdata, idle_before);

    // 5. Ingress.
    if (in.ev_valid && o.ev_ready) q_.push_back({in.ev_value & mask(), in.ev_weight});

    // 6. Shown counters.
    if (d_) shown_ = shown_d_;
    else if (st_ == St::Run || st_ == St::Dump) shown_ = shown_from_tree();
    return o;
  }

 private:
  enum class St { Run, Pass, Dump, Twr };
  /// The state while cycles remain: capacity pass, TCAM write, scheduled pass.
  St busy_state() const {
    if (rem_cap_ > 0) return St::Pass;
    if (rem_twr_ > 0) return St::Twr;
    if (rem_sched_ > 0) return St::Pass;
    return St::Run;
  }
  struct Staged {
    uint32_t eps = kRapEpsDefault, cap = 512, merge_first = 1024, buf = 4;
  };
  static Staged defaults(const RapEngineConfig& c) {
    Staged s;
    s.cap = c.cap_max();
    s.buf = std::min(c.buf_default, c.max_buf);
    return s;
  }
  static RapParams params_for(const RapEngineConfig& c, const Staged& s) {
    RapParams p;
    p.range_bits = c.range_bits;
    p.eps_q16 = s.eps;
    p.node_cap = s.cap;
    p.merge_first = s.merge_first;
    return p;
  }
  V mask() const { return static_cast<V>(mask_of(cfg_.range_bits)); }
  static uint32_t field(unsigned v, unsigned lsb, unsigned w) {
    return static_cast<uint32_t>(v & mask_of(w)) << lsb;
  }

  Shown shown_from_tree() const {
    const RapStats& s = tree_.stats();
    return {tree_.n(),    s.updates, s.splits,          s.splits_skipped, s.scheduled_passes, s.capacity_passes,
            s.merges,     tree_.node_count(), s.peak_nodes, tree_.full()};
  }

  void clear() {
    tree_.init(params_for(cfg_, staged_));
    buf_.set_depth(staged_.buf);
    q_.clear();
    p_ = m_ = s1_ = d_ = d_pass_ = flush_ = false;
    rematch_ = 0;
    st_ = St::Run;
    beat_ = 0;
    rem_cap_ = rem_twr_ = rem_sched_ = 0;
    raw_ = stall_flush_ = stall_cap_ = stall_sched_ = stall_tcam_ = in_stall_ = 0;
    shown_ = shown_from_tree();
  }

  void write(unsigned addr, uint32_t v, bool idle_before) {
    switch (static_cast<RapCsr>(addr)) {
      case RapCsr::Eps:
        if (v <= 0xffffu) staged_.eps = v; else err_ = true;
        break;
      case RapCsr::Cap:
        if (v >= 1 && v <= cfg_.cap_max()) staged_.cap = v; else err_ = true;
        break;
      case RapCsr::MergeFirst:
        if (v >= 1) staged_.merge_first = v; else err_ = true;
        break;
      case RapCsr::BufDepth:
        if (v <= cfg_.max_buf) staged_.buf = v; else err_ = true;
        break;
      case RapCsr::Status:
        if (v & kRapStErr) err_ = false;
        break;
      case RapCsr::Cmd:
        if (v & kRapCmdFlush) flush_ = true;
        if (v & kRapCmdDump) {
          if (idle_before) {
            st_ = St::Dump;
            beat_ = 0;
          } else {
            err_ = true;
          }
        }
        break;
      default: break;  // read-only: ignored
    }
  }

  RapEngineConfig cfg_;
  Staged staged_;
  Tree tree_;
  RapEventBuffer buf_;
  std::deque<RapPair> q_;
  bool p_ = false, m_ = false, s1_ = false, flush_ = false, err_ = false;
  /// D acts in the next cycle (the last commit split or started a pass).
  bool d_ = false;
  bool d_pass_ = false;  ///< and it starts a pass (S1 and M re-match after it)
  /// Re-match cycles still due: the first two RUN cycles after a pass that a
  /// commit started re-match S1's pair, then M's (nothing moves): two cycles
  /// per such pass whether S1 and M hold pairs or not, so STALL_FLUSH does
  /// not depend on how the stream arrives.
  unsigned rematch_ = 0;
  Shown shown_d_;  ///< the register port's view until D acts
  RapPair p_pair_, m_pair_, s1_pair_;
  St st_ = St::Run;
  unsigned beat_ = 0;
  uint64_t rem_cap_ = 0, rem_twr_ = 0, rem_sched_ = 0;
  uint64_t raw_ = 0, stall_flush_ = 0, stall_cap_ = 0, stall_sched_ = 0, stall_tcam_ = 0, in_stall_ = 0;
  Shown shown_;
};

using RapEngine = RapEngineT<uint32_t>;
using RapEngine64 = RapEngineT<uint64_t>;

}  // namespace hwprof::model
