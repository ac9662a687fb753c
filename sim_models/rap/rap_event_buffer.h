// The RAP engine's merging event buffer (docs/rap_engine.md, "Merging event
// buffer"): combines raw (value, weight) events into (value, weight) pairs
// before they reach the tree. Written once: the cycle model (rap_engine.h)
// and the CLI's model engine both use it, and rtl/rap/hwprof_rap_merge_buffer.sv
// implements the same rule.
//
// Definition (depth D, 0..kRapBufMaxDepth):
//  - The buffer holds up to D entries (value, weight) in arrival order.
//  - push(v, w): if an entry holds value v and its weight + w fits in 32 bits
//    (<= 0xffffffff), w is added to it (with several such entries, the
//    youngest). Otherwise (v, w) is appended as the youngest entry; if the
//    buffer already held D entries, the oldest one is emitted first (it is the
//    pair push() returns). With D = 0 every event is emitted at once as the
//    pair (v, w): the tree sees the raw stream.
//  - flush (pop_oldest): emits the oldest entry. The engine's FLUSH command
//    emits every entry, oldest first; the tree "after a stream" is the tree
//    after the flush.
// The pair stream is a pure function of the event stream and the flush points;
// timing (idle cycles, backpressure, stalls) cannot change it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace hwprof::model {

inline constexpr unsigned kRapBufMaxDepth = 8;  ///< rap_engine's MaxBuf default

/// One pair on its way to the tree (values up to 64 bits: the 2-D engine's
/// interleaved keys; the 1-D engine's are below 2^32).
struct RapPair {
  uint64_t value = 0;
  uint32_t weight = 0;
  bool operator==(const RapPair& o) const { return value == o.value && weight == o.weight; }
};

class RapEventBuffer {
 public:
  /// Throws std::invalid_argument for depth > kRapBufMaxDepth.
  explicit RapEventBuffer(unsigned depth = 0) { set_depth(depth); }
  /// Sets the depth and empties the buffer.
  void set_depth(unsigned depth);
  void reset() { q_.clear(); }
  unsigned depth() const { return depth_; }
  size_t size() const { return q_.size(); }
  bool empty() const { return q_.empty(); }

  /// Index (0 = oldest) of the entry push(value, weight) would add to, or -1.
  int match(uint64_t value, uint32_t weight) const;
  /// True if push(value, weight) would emit a pair.
  bool would_emit(uint64_t value, uint32_t weight) const {
    return match(value, weight) < 0 && q_.size() >= depth_;
  }
  /// One raw event; returns the pair it pushes out, if any.
  std::optional<RapPair> push(uint64_t value, uint32_t weight);
  /// Removes and returns the oldest entry (flush), if any.
  std::optional<RapPair> pop_oldest();
  /// The entries, oldest first.
  const std::deque<RapPair>& entries() const { return q_; }

 private:
  unsigned depth_ = 0;
  std::deque<RapPair> q_;
};

}  // namespace hwprof::model
