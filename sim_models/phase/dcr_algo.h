// The DCR phase tracker of paper 003 as fixed by hwprof-spec.md section 5
// and docs/dcr.md: the call/loop stack with stable and recursion bits
// (DcrStack), the signature table with LRU replacement (DcrSigTable) and
// DcrAlgo, which runs one branch record at a time and returns a result at
// every interval end. Written once: the cycle model (dcr_tracker.h) commits
// through these pieces, the CLI and the phase study run DcrAlgo directly.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "branch_record.h"
#include "interval.h"
#include "markov.h"

namespace hwprof::model {

/// Kind of a stack entry (the RTL's entry kind bit).
enum class DcrKind : uint8_t { Func = 0, Loop = 1 };

/// One stack entry (docs/dcr.md, "Stack"). Function: a = call pc, b = call
/// target, ilen = the call's length (the return address is a + ilen). Loop:
/// a = loop start (branch target), b = loop end (branch pc), ilen = 0.
/// hash = the signature hash of the entries from the bottom up to this one,
/// computed at the push (the entries below never change while it is on the
/// stack).
struct DcrEntry {
  DcrKind kind = DcrKind::Func;
  uint32_t a = 0;
  uint32_t b = 0;
  uint8_t ilen = 0;
  bool stable = false;
  bool recursion = false;
  uint32_t hash = 0;
  uint32_t ret() const { return a + ilen; }
};

/// What one record did to the stack.
struct DcrStackOp {
  unsigned pushes = 0;     ///< 0 or 1
  unsigned pops = 0;       ///< entries removed (loop exits, a return, a resync flush)
  bool overflow = false;   ///< a push was refused: the stack was full (skip mode entered)
  bool recursion = false;  ///< a call's target equalled a function entry's b
  bool resync = false;     ///< a return in skip mode matched a caller entry (skip mode left)
  bool iteration = false;  ///< a backward branch matched the loop on top
};

/// The signature state taken at an interval end (DcrStack::snapshot).
struct DcrSnapshot {
  unsigned depth = 0;       ///< maximal run of stable entries from the bottom
  uint32_t hash = 0;        ///< its hash (kEmptyHash for depth 0)
  bool recursion = false;   ///< an entry has its recursion bit set
  bool overflow = false;    ///< a push was refused since the previous interval end
  bool skip = false;        ///< the stack is in skip mode (recursion or overflow)
};

class DcrStack {
 public:
  /// Hash of the empty signature (the chain's seed).
  static constexpr uint32_t kEmptyHash = 0x811C9DC5u;
  /// Kind constants folded into the hash.
  static constexpr uint32_t kFuncSalt = 0x7F4A7C15u;
  static constexpr uint32_t kLoopSalt = 0x9E3779B9u;

  /// depth: 1..255; throws std::invalid_argument.
  explicit DcrStack(unsigned depth = 32);

  /// One record (docs/dcr.md, "Stack operations").
  DcrStackOp process(const BranchRecord& r);
  /// The signature at an interval end (before start_interval()).
  DcrSnapshot snapshot() const;
  /// Interval start: every entry's stable bit set, the overflow flag cleared.
  void start_interval();
  /// Empty stack, skip mode off, flags cleared.
  void clear();

  /// h' = (rotl(h, 5) ^ a) + (rotl(b, 16) ^ salt(kind)), modulo 2^32.
  static uint32_t hash_step(uint32_t h, DcrKind k, uint32_t a, uint32_t b);

  unsigned depth() const { return depth_; }
  unsigned size() const { return static_cast<unsigned>(st_.size()); }
  const DcrEntry& entry(unsigned i) const { return st_.at(i); }  ///< 0 = bottom
  bool skip() const { return skip_; }
  bool overflowed() const { return ovf_; }

 private:
  void push(DcrKind k, uint32_t a, uint32_t b, uint8_t ilen);
  unsigned depth_;
  std::vector<DcrEntry> st_;
  bool skip_ = false;
  bool ovf_ = false;
};

/// One signature table slot.
struct DcrSigEntry {
  bool valid = false;
  uint32_t hash = 0;
  uint16_t phase = 0;
  uint32_t stamp = 0;  ///< value of the use counter at the last hit or fill
};

/// What one lookup did.
struct DcrLookup {
  uint16_t phase = 0;
  bool hit = false;
  bool evicted = false;  ///< a miss replaced a valid slot (LRU)
  unsigned slot = 0;
};

class DcrSigTable {
 public:
  /// entries: 1..4096; throws std::invalid_argument.
  explicit DcrSigTable(unsigned entries = 64);
  /// Hit: the slot's phase, its stamp := uses. Miss: phase := next id
  /// (16-bit, wraps), into the lowest invalid slot, else into the slot with
  /// the smallest stamp (ties to the lowest slot). Then uses += 1.
  DcrLookup lookup(uint32_t hash);
  /// Every slot invalid, next id 0, use counter 0.
  void clear();
  unsigned entries() const { return static_cast<unsigned>(t_.size()); }
  const DcrSigEntry& slot(unsigned i) const { return t_.at(i); }
  uint16_t next_id() const { return next_id_; }
  uint32_t uses() const { return uses_; }

 private:
  std::vector<DcrSigEntry> t_;
  uint16_t next_id_ = 0;
  uint32_t uses_ = 0;
};

/// Result flag bits (docs/dcr.md, "Result").
namespace dcr_flag {
inline constexpr uint8_t kNew = 1u << 0;        ///< signature missed: a new phase id
inline constexpr uint8_t kEvict = 1u << 1;      ///< ... and it evicted a valid slot
inline constexpr uint8_t kChanged = 1u << 2;    ///< phase differs from the previous interval's (or first)
inline constexpr uint8_t kRecursion = 1u << 3;  ///< a recursion bit is set at the interval end
inline constexpr uint8_t kOverflow = 1u << 4;   ///< a push was refused in this interval
inline constexpr uint8_t kSkip = 1u << 5;       ///< the stack is in skip mode at the interval end
inline constexpr uint8_t kScored = 1u << 6;     ///< a prediction for this interval existed
inline constexpr uint8_t kCorrect = 1u << 7;    ///< ... and it was right
}  // namespace dcr_flag

/// One interval's result.
struct DcrResult {
  uint16_t phase = 0;
  uint16_t predicted = 0;  ///< predicted phase of the next interval
  uint8_t sig_depth = 0;
  uint8_t flags = 0;
  uint32_t sig_hash = 0;
  bool operator==(const DcrResult& o) const {
    return phase == o.phase && predicted == o.predicted && sig_depth == o.sig_depth && flags == o.flags &&
           sig_hash == o.sig_hash;
  }
  bool operator!=(const DcrResult& o) const { return !(*this == o); }
};

/// Statistics (the RTL's 32-bit saturating counters show these saturated).
struct DcrStats {
  uint64_t records = 0, intervals = 0, pushes = 0, pops = 0, overflows = 0, recursions = 0, resyncs = 0,
           new_phases = 0, evictions = 0, scored = 0, correct = 0;
};

struct DcrParams {
  unsigned depth = 32;           ///< stack entries
  unsigned sig_entries = 64;     ///< signature table slots
  unsigned markov_entries = 256; ///< Markov predictor slots (power of two)
  uint32_t interval = IntervalCounter::kDefaultInterval;
};

class DcrAlgo {
 public:
  explicit DcrAlgo(const DcrParams& p = {});

  /// One record: the stack operation, then the interval count; at an
  /// interval end the result (close_interval() then classify()).
  std::optional<DcrResult> step(const BranchRecord& r);

  // The pieces, in the order step() runs them (the cycle model commits
  // them at different edges).
  /// Stack operation and interval count; true when the record ends an interval.
  /// The same as apply(r) then count(r).
  bool record(const BranchRecord& r);
  /// The record's stack operation and its statistics (no interval count).
  void apply(const BranchRecord& r);
  /// The record's interval count alone; true when it ends an interval.
  bool count(const BranchRecord& r) { return ic_.step(r.insns); }
  /// The signature snapshot, then the next interval starts (stable bits set).
  DcrSnapshot close_interval();
  /// Signature table lookup, Markov update, flags, statistics.
  DcrResult classify(const DcrSnapshot& s);

  /// CMD.restart: empty stack, skip mode off, interval count 0.
  void restart();
  /// CMD.clear_table: signature table, Markov predictor and the previous
  /// phase forgotten; phase ids restart at 0.
  void clear_table();
  void clear_stats() { stats_ = DcrStats{}; }
  /// A write of INTERVAL: the new length, and the count restarts
  /// (docs/phase.md).
  void set_interval(uint32_t v) {
    ic_.set_interval(v);
    ic_.restart();
  }

  const DcrParams& params() const { return p_; }
  const DcrStack& stack() const { return stack_; }
  const DcrSigTable& table() const { return table_; }
  const MarkovAlgo& markov() const { return markov_; }
  const IntervalCounter& counter() const { return ic_; }
  const DcrStats& stats() const { return stats_; }

 private:
  DcrParams p_;
  DcrStack stack_;
  DcrSigTable table_;
  MarkovAlgo markov_;
  IntervalCounter ic_;
  DcrStats stats_;
  bool have_prev_ = false;
  uint16_t prev_phase_ = 0;
};

}  // namespace hwprof::model
