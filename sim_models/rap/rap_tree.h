// The range-adaptive profiling (RAP) tree of paper 001 sections 2 and 3 as
// fixed by hwprof-spec.md section 4.1 and docs/rap.md: RapParams, RapTree
// (init / add / finalize), node read-out, range estimates, hot ranges and the
// text dump. Written once: the cycle model commits every event through
// RapTree::add, and the CLI runs it directly.
//
// Semantics (docs/rap.md is the long form; every rule below is bit-exact in
// the RTL):
//  - W-bit values (W = range_bits, even, 2..32; a value is taken modulo 2^W).
//    b = 4: a node at depth d (0..W/2) has a 2d-bit prefix; its range is every
//    value with that prefix. The root (depth 0) is never removed. A node has
//    zero or four children, so the longest-prefix match is always a leaf.
//  - SplitThreshold(n) = floor(E * n / (65536 * W/2)), E = eps in Q0.16,
//    computed exactly in integers.
//  - add(value, weight): leaf.count += weight; n += weight; then the split
//    check (leaf.count > SplitThreshold(n) and depth < W/2), then the merge
//    check (n >= next_merge). Weight 0 is a full update (it can retry a split
//    that capacity once skipped).
//  - Split: four children, count 0, the node keeps its count. Capacity: a
//    split fits when node_count + 4 <= NodeCap. A split that does not fit runs
//    one capacity merge pass first unless `full` is set; if it still does not
//    fit, `full` is set and the split is skipped and counted. While `full` is
//    set, a split that does not fit is skipped and counted with no pass.
//  - Scheduled merge pass when n >= next_merge (starts at MergeFirst); then
//    next_merge doubles until it exceeds n; the pass clears `full`. A
//    capacity pass leaves next_merge and `full` alone.
//  - Merge pass (scheduled, capacity or final, all the same rule): nodes by
//    decreasing depth; a node whose four children are all leaves absorbs them
//    when count + sum(children) <= SplitThreshold(n). Within one depth the
//    visiting order cannot change the result (a merge at depth d only reads
//    and writes depth d and d+1), so no tie-break is needed there; the model
//    visits in ascending prefix order.
//  - finalize(): one final merge pass at the current n; next_merge and `full`
//    unchanged. The tree stays usable (add may follow).
//
// Deterministic orders (tie-breaks of the read-out, not of the algorithm):
//  - nodes(), hot_ranges() and dump_text() list nodes in pre-order with the
//    four children in ascending prefix order, i.e. by (prefix ascending, depth
//    ascending): an ancestor comes before its descendants.
//  - A hot range (spec 4.1, paper 001 section 5.1): carry(v) = v.count + sum of
//    carry(c) over the children c that are not hot; v is hot iff
//    carry(v) > floor(F * n / 65536), F = hot fraction in Q0.16 (default 6554,
//    10%). Any node, the root included, can be hot.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace hwprof::model {

inline constexpr unsigned kRapBranching = 4;     ///< b (spec 4.1): 2 bits per level
inline constexpr unsigned kRapMaxRangeBits = 32;  ///< W at most 32
inline constexpr uint32_t kRapQ16One = 65536;     ///< 1.0 in Q0.16
inline constexpr uint32_t kRapEpsDefault = 6554;  ///< round(0.10 * 65536)
inline constexpr uint32_t kRapHotDefault = 6554;  ///< hot fraction 10%
inline constexpr unsigned kRapMergeRatio = 2;     ///< q: merge periods double

/// Parameters of a RAP tree (the RTL's parameters and configuration).
struct RapParams {
  unsigned range_bits = 32;          ///< W: even, 2..32
  uint32_t eps_q16 = kRapEpsDefault;  ///< E: eps = E / 65536, 0..65535
  uint32_t node_cap = 512;           ///< NodeCap, root included; 0 = unlimited (model only)
  uint64_t merge_first = 1024;       ///< MergeFirst: n of the first scheduled merge, >= 1

  unsigned max_depth() const { return range_bits / 2; }
  /// Throws std::invalid_argument naming the bad field. max_bits is the
  /// tree's key width (32 for RapTree, 64 for RapTree64, docs/rap2d.md).
  void validate(unsigned max_bits = kRapMaxRangeBits) const;
  /// round(f * 65536) for 0 <= f < 1 (the CLI's --eps); throws otherwise.
  static uint32_t q16(double fraction);
};

/// SplitThreshold(n) = floor(eps_q16 * n / (65536 * range_bits/2)), exact.
uint64_t rap_split_threshold(uint32_t eps_q16, unsigned range_bits, uint64_t n);
/// floor(frac_q16 * n / 65536), exact: the hot-range cut (carry must exceed it).
uint64_t rap_hot_threshold(uint32_t frac_q16, uint64_t n);

/// What one add() did (the cycle model derives its stalls from this).
template <class V>
struct RapUpdateT {
  V leaf_prefix = 0;    ///< the matched node (a leaf), before any split
  unsigned leaf_depth = 0;
  uint64_t threshold = 0;      ///< SplitThreshold(n) with n after the update
  bool split = false;          ///< the leaf split
  bool split_skipped = false;  ///< a split was due but did not fit
  bool capacity_pass = false;  ///< a capacity merge pass ran (before the split)
  bool scheduled_pass = false; ///< a scheduled merge pass ran (after the split check)
  unsigned merged = 0;         ///< child groups (of four) merged by this update's passes
  /// Node count when the capacity / scheduled pass started (0 when that pass
  /// did not run): the engine's pass length (docs/rap_engine.md, "Merge pass").
  uint64_t capacity_pass_nodes = 0;
  uint64_t scheduled_pass_nodes = 0;
};
using RapUpdate = RapUpdateT<uint32_t>;

/// Counters since init().
struct RapStats {
  uint64_t updates = 0;           ///< add() calls
  uint64_t splits = 0;            ///< splits done
  uint64_t splits_skipped = 0;    ///< splits due that did not fit
  uint64_t scheduled_passes = 0;  ///< merge passes from the schedule
  uint64_t capacity_passes = 0;   ///< merge passes run by a split that did not fit
  uint64_t final_passes = 0;      ///< merge passes run by finalize()
  uint64_t merges = 0;            ///< child groups merged (each frees four nodes)
  uint64_t peak_nodes = 1;        ///< largest node count ever (after a split)
  uint64_t last_pass_n = 0;       ///< n at the last merge pass of any kind (0: none yet)
};

/// One node in the read-out (pre-order list, see the header comment).
template <class V>
struct RapNodeT {
  V prefix = 0;            ///< first value of the range (prefix bits left-aligned, low bits 0)
  V last = 0;              ///< last value of the range
  unsigned depth = 0;      ///< 0..W/2; prefix length = 2 * depth bits
  uint64_t count = 0;      ///< the node's own counter
  uint64_t subtree = 0;    ///< count + all descendants' counts: a lower bound of the range's true count
  uint64_t ancestors = 0;  ///< sum of the proper ancestors' counts: true - subtree is at most this
  int parent = -1;         ///< index in the list, -1 for the root
  std::array<int, kRapBranching> children{{-1, -1, -1, -1}};  ///< indices in the list, -1 for a leaf
  bool leaf() const { return children[0] < 0; }
};
using RapNode = RapNodeT<uint32_t>;

/// Bounds of the true weight of [lo, hi]: lower <= true <= upper.
struct RapEstimate {
  uint64_t lower = 0;  ///< counts of the nodes whose range lies inside [lo, hi]
  uint64_t upper = 0;  ///< lower + counts of the nodes whose range straddles lo or hi
};

/// One hot range (spec 4.1).
template <class V>
struct RapHotRangeT {
  int node = 0;             ///< index in nodes()
  V prefix = 0;
  V last = 0;
  unsigned depth = 0;
  uint64_t count = 0;       ///< the node's own counter
  uint64_t carry = 0;       ///< count + non-hot descendants (the weight shown, paper Fig. 7)
  uint64_t subtree = 0;     ///< count + all descendants (the hot sub-ranges included)
  unsigned hot_level = 0;   ///< number of hot proper ancestors (indentation)
};
using RapHotRange = RapHotRangeT<uint32_t>;

/// The tree over V-bit keys: RapTree (uint32_t, W <= 32) is the 1-D profiler;
/// RapTree64 (uint64_t, W <= 64) is the same algorithm on wider keys, which
/// the 2-D tree uses on interleaved (code, data) pairs (docs/rap2d.md).
template <class V>
class RapTreeT {
 public:
  using Value = V;
  using RapUpdate = RapUpdateT<V>;
  using RapNode = RapNodeT<V>;
  using RapHotRange = RapHotRangeT<V>;
  static constexpr unsigned kMaxBits = 8 * sizeof(V);

  RapTreeT() : RapTreeT(RapParams{}) {}
  /// Throws std::invalid_argument on bad parameters.
  explicit RapTreeT(const RapParams& p) { init(p); }

  /// Root only, count 0, n = 0, next_merge = MergeFirst, full clear, stats 0.
  void init(const RapParams& p);
  void reset() { init(params_); }
  /// One event (spec 4.1 Update). Throws std::overflow_error if n would wrap.
  RapUpdate add(V value, uint64_t weight = 1);
  /// One final merge pass at the current n; returns the groups merged.
  unsigned finalize();

  const RapParams& params() const { return params_; }
  uint64_t n() const { return n_; }
  uint64_t threshold() const { return rap_split_threshold(params_.eps_q16, params_.range_bits, n_); }
  uint64_t next_merge() const { return next_merge_; }
  bool full() const { return full_; }
  uint64_t node_count() const { return node_count_; }
  const RapStats& stats() const { return stats_; }

  /// The node an event with this value would update: {prefix, depth}.
  std::pair<V, unsigned> lookup(V value) const;
  /// The counter of node (prefix, depth), if it exists. prefix must be aligned.
  std::optional<uint64_t> count_of(V prefix, unsigned depth) const;
  /// Every node in pre-order (ascending prefix, ancestors first).
  std::vector<RapNode> nodes() const;
  /// Lower and upper bounds of the weight in [lo, hi] (values modulo 2^W, lo <= hi).
  RapEstimate estimate(V lo, V hi) const;
  /// Hot ranges in pre-order (spec 4.1; paper 001 section 5.1).
  std::vector<RapHotRange> hot_ranges(uint32_t frac_q16 = kRapHotDefault) const;

  /// The whole tree, one node a line, indented two spaces per depth:
  ///   "<prefix>-<last> d<depth> count <c> (<c/n %>) total <subtree> (<%>)[ hot <carry %>]"
  /// With hot_only, only the hot ranges, indented two spaces per hot level:
  ///   "<prefix>-<last> d<depth> <carry %> (total <subtree %>)"
  /// Values in hex with ceil(W/4) digits; percentages of n with 2 decimals
  /// (0.00 when n = 0). Every line ends in '\n'.
  std::string dump_text(bool hot_only = false, uint32_t frac_q16 = kRapHotDefault) const;
  /// A value in hex, ceil(W/4) digits (as in the dumps).
  std::string hex(V v) const;
  /// Same (prefix, depth, count) nodes and the same n.
  bool same_tree(const RapTreeT& o) const;
  /// Rebuilds a tree from a read-out (e.g. the RTL engine's dump): every node
  /// as (prefix, depth, count), in any order, and the total weight n. The
  /// shape must be a valid RAP tree (root present, 0 or 4 children); throws
  /// std::invalid_argument otherwise. Statistics stay zero except peak_nodes.
  static RapTreeT from_nodes(const RapParams& p, uint64_t n,
                             const std::vector<std::tuple<V, unsigned, uint64_t>>& nodes);

 private:
  struct Slot {
    V prefix = 0;
    uint8_t depth = 0;
    uint64_t count = 0;
    int32_t kids = -1;  ///< first of four contiguous child slots, -1 for a leaf
  };

  V mask() const;
  unsigned shift(unsigned depth) const { return params_.range_bits - 2 * depth; }  // low bits below a depth-d prefix
  V last_of(V prefix, unsigned depth) const;
  int32_t find_leaf(V value) const;
  bool fits() const { return params_.node_cap == 0 || node_count_ + kRapBranching <= params_.node_cap; }
  void split(int32_t i);
  unsigned merge_pass();
  void estimate_rec(int32_t i, V lo, V hi, RapEstimate& e) const;
  uint64_t subtree_sum(int32_t i) const;

  RapParams params_;
  std::vector<Slot> slots_;         // slot 0 = root; child blocks of four from slot 1
  std::vector<int32_t> free_blocks_;  // first slots of free child blocks (LIFO)
  uint64_t node_count_ = 1;
  uint64_t n_ = 0;
  uint64_t next_merge_ = 0;
  bool full_ = false;
  RapStats stats_;
};

extern template class RapTreeT<uint32_t>;
extern template class RapTreeT<uint64_t>;
using RapTree = RapTreeT<uint32_t>;
using RapTree64 = RapTreeT<uint64_t>;

}  // namespace hwprof::model
