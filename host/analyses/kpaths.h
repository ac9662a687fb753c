// k-iteration path profiling (paper 002; hwprof-spec.md section 6;
// docs/analyses.md, "k-iteration path profiling").
//
// Input: the stream of Ball-Larus paths the path stack emits (BL preset), cut
// into routine activations by the emitting depth (one k-SF cursor per active
// frame on a shadow stack), or a raw stream of integer ids and `*` markers.
// The k-slab forest (k-SF) is built online exactly as in 002 Fig. 11 and
// converted to the k-iteration path forest (k-IPF, Definition 2) by Fig. 12.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "path_profile.h"
#include "path_stack_algo.h"

namespace hwprof::analyses {

/// A node label: a dense path identifier.
using Label = uint32_t;
/// "No node" (the paper's null).
inline constexpr uint32_t kNil = 0xffffffffu;
/// Largest k accepted (the k-SF has 2k-2 levels; Fig. 12 recurses k deep).
inline constexpr unsigned kMaxK = 64;

/// Append-only node storage in fixed blocks: stable indices, no copy when it
/// grows (so its peak memory is its size), at most 2^32-2 nodes.
template <typename T>
class NodePool {
 public:
  uint32_t add(const T& v) {
    if (size_ == kNil - 1) throw std::length_error("k-iteration path profiler: more than 2^32-2 nodes");
    if ((size_ & kMask) == 0) blocks_.emplace_back(new T[kBlock]);
    blocks_.back()[size_ & kMask] = v;
    return size_++;
  }
  T& operator[](uint32_t i) { return blocks_[i >> kShift][i & kMask]; }
  const T& operator[](uint32_t i) const { return blocks_[i >> kShift][i & kMask]; }
  uint32_t size() const { return size_; }

 private:
  static constexpr unsigned kShift = 12;
  static constexpr uint32_t kBlock = 1u << kShift;
  static constexpr uint32_t kMask = kBlock - 1;
  std::vector<std::unique_ptr<T[]>> blocks_;
  uint32_t size_ = 0;
};

// ------------------------------------------------------------------ k-SF

/// A k-SF node in first-child, next-sibling form (002 section 5.3).
struct KsfNode {
  uint64_t count = 0;  ///< c(v)
  Label label = 0;     ///< l(v)
  uint32_t first_child = kNil;
  uint32_t next_sibling = kNil;
};

/// The per-stream state of Fig. 11: n, tau (upper slab) and beta (lower
/// slab). One per routine activation on the shadow stack.
struct KsfCursor {
  uint64_t n = 0;
  uint32_t tau = kNil;
  uint32_t beta = kNil;
};

struct KsfStats {
  uint64_t items = 0;          ///< ids processed (the sum of all counters)
  uint64_t markers = 0;        ///< `*` processed
  uint64_t root_lookups = 0;   ///< find(R, r): Fig. 11 line 8 (hash operations)
  uint64_t sibling_steps = 0;  ///< child-list nodes scanned at lines 13 and 21
};

/// The k-slab forest of 002 Definition 3, built by process_bl_path_id
/// (Fig. 11). Fig. 11 needs k >= 2 (it cuts chunks of k-1 items); for k = 1
/// the 2-SF is built (every 1-gram is counted exactly once in either), and
/// the conversion keeps one level.
class KSlabForest {
 public:
  /// 1 <= k <= kMaxK; throws std::invalid_argument otherwise.
  explicit KSlabForest(unsigned k);
  unsigned k() const { return k_; }
  /// Chunk length: k-1, or 1 for k = 1.
  unsigned chunk() const { return chunk_; }

  /// Fig. 11 with r = `*` (lines 1-4).
  void marker(KsfCursor& c) {
    ++stats_.markers;
    c.n = 0;
    c.tau = kNil;
  }
  /// Fig. 11 with a path id r (lines 6-31).
  void add(KsfCursor& c, Label r);

  uint32_t size() const { return nodes_.size(); }
  const KsfNode& node(uint32_t i) const { return nodes_[i]; }
  /// The root labelled r, or kNil.
  uint32_t root(Label r) const;
  /// Every root, by label.
  std::vector<uint32_t> roots() const;
  const KsfStats& stats() const { return stats_; }
  /// Every root-to-node label sequence with that node's counter, in
  /// depth-first order with roots and siblings by label: the forest as the
  /// list F(L) of Definition 1 describes it (for tests and dumps).
  std::vector<std::pair<std::vector<Label>, uint64_t>> node_paths() const;

 private:
  /// Child of `parent` labelled r, added with c = 0 if missing (lines 13-17
  /// and 21-25).
  uint32_t child(uint32_t parent, Label r);

  unsigned k_;
  unsigned chunk_;
  NodePool<KsfNode> nodes_;
  std::unordered_map<Label, uint32_t> roots_;  // R
  KsfStats stats_;
};

// ----------------------------------------------------------------- k-IPF

/// A k-IPF node. Children are contiguous (first_child .. first_child +
/// num_children - 1), sorted by count (descending), then label (ascending);
/// roots are nodes 0 .. num_roots() - 1 in the same order.
struct IpfNode {
  uint64_t count = 0;
  Label label = 0;
  uint32_t parent = kNil;
  uint32_t first_child = kNil;
  uint32_t num_children = 0;
  uint32_t level = 1;  ///< BL paths on the path from the root (1 = root)
};

/// The k-iteration path forest (002 Definition 2).
class KIpf {
 public:
  KIpf() = default;
  /// make_k_ipf (Fig. 12) with d = k. `relabel`, if given, maps every
  /// k-SF label to the label used in the k-IPF (a permutation).
  static KIpf from_ksf(const KSlabForest& f, const std::vector<Label>* relabel = nullptr);

  unsigned k() const { return k_; }
  uint32_t size() const { return static_cast<uint32_t>(nodes_.size()); }
  uint32_t num_roots() const { return num_roots_; }
  const IpfNode& node(uint32_t i) const { return nodes_[i]; }
  uint32_t root_of(uint32_t i) const;
  /// The labels from the root down to node i.
  std::vector<Label> path(uint32_t i) const;
  /// count / parent's count (1 for a root), count / root's count.
  double share_parent(uint32_t i) const;
  double share_root(uint32_t i) const;
  /// The node of a label sequence (length 1..k), or kNil.
  uint32_t find(const std::vector<Label>& seq) const;
  /// Nodes per level, [0] = level 1.
  std::vector<uint64_t> level_sizes() const;
  /// The n nodes of `level` with the highest counts (ties: forest order,
  /// which is the parents' order, then label); n = 0: all of them.
  std::vector<uint32_t> hottest(unsigned level, size_t n) const;
  /// Pruning as in 002 section 3.1: drops every node whose count is less
  /// than `fraction` of its parent's count or of its root's count, with its
  /// subtree. fraction 0 keeps everything.
  KIpf pruned(double fraction) const;

 private:
  struct Temp {  // build form: linked children
    uint64_t count;
    Label label;
    uint32_t first_child, next_sibling;
  };
  static KIpf layout(unsigned k, const NodePool<Temp>& t, const std::vector<uint32_t>& roots,
                     const std::vector<char>* keep);

  unsigned k_ = 0;
  uint32_t num_roots_ = 0;
  std::vector<IpfNode> nodes_;
};

// -------------------------------------------------- activations (spec 6)

/// Shadow stack of per-activation cursors, indexed by the emitting depth
/// (docs/path_stack.md, "Emitted descriptor"): a depth without a cursor that
/// emits opens an activation; a frame_end closes it; cursors deeper than an
/// emitting depth are discarded (their frames are gone).
template <typename Cursor>
class ShadowStack {
 public:
  /// The cursor of the activation at `depth` (>= 1). `opened` is set when
  /// the call opened a new activation (the caller then feeds it a `*`).
  Cursor& enter(unsigned depth, bool& opened) {
    if (slots_.size() > depth) {
      for (size_t i = depth; i < slots_.size(); ++i) discarded_ += slots_[i].active;
      slots_.resize(depth);
    }
    if (slots_.size() < depth) slots_.resize(depth);
    Slot& s = slots_[depth - 1];
    opened = !s.active;
    if (opened) {
      s.active = true;
      s.cursor = Cursor{};
    }
    return s.cursor;
  }
  void close(unsigned depth) {
    if (depth >= 1 && depth <= slots_.size()) slots_[depth - 1].active = false;
  }
  /// Open cursors dropped because a shallower depth emitted.
  uint64_t discarded() const { return discarded_; }

 private:
  struct Slot {
    bool active = false;
    Cursor cursor{};
  };
  std::vector<Slot> slots_;
  uint64_t discarded_ = 0;
};

/// The activation rule for one emitted descriptor, shared by every consumer
/// (KpathsProfiler, the benchmark): finds the cursor of the emitting depth
/// (opening an activation with `marker(cursor)` if there is none), feeds
/// a completed path with `item(cursor)` or, for an incomplete path, ends the
/// current sequence with `marker(cursor)` (not twice when just opened), and
/// closes the activation at a frame_end. Returns true if it opened one.
template <typename Cursor, typename Marker, typename Item>
bool activation_step(ShadowStack<Cursor>& shadow, unsigned depth, bool incomplete, bool frame_end,
                     Marker&& marker, Item&& item) {
  if (depth == 0) depth = 1;  // every emission has depth >= 1
  bool opened = false;
  Cursor& c = shadow.enter(depth, opened);
  if (opened || incomplete) marker(c);
  if (!incomplete) item(c);
  if (frame_end) shadow.close(depth);
  return opened;
}

/// Dense identifiers of completed paths, in order of first appearance.
class PathIds {
 public:
  Label id(const model::PathKey& key);
  const std::vector<model::PathKey>& keys() const { return keys_; }
  size_t size() const { return keys_.size(); }

 private:
  std::unordered_map<model::PathKey, Label, model::PathKeyHash> map_;
  std::vector<model::PathKey> keys_;
};

struct ActivationStats {
  uint64_t descriptors = 0;  ///< emitted descriptors seen
  uint64_t paths = 0;        ///< completed paths fed to the k-SF
  uint64_t incomplete = 0;   ///< incomplete paths (skipped; they break the sequence)
  uint64_t activations = 0;  ///< activations opened
  uint64_t discarded = 0;    ///< open cursors discarded by a shallower emission
  unsigned max_depth = 0;    ///< deepest emitting depth
};

/// The profile a trace's path stream yields: ids, the k-SF and the k-IPF.
class KpathsProfiler {
 public:
  explicit KpathsProfiler(unsigned k) : ksf_(k) {}
  /// One emitted descriptor (BL preset), in emission order. Completed
  /// paths (split ones included) get an id and are added to the cursor of
  /// their activation; an incomplete path (its start is unknown) is not an
  /// identifier: it ends the activation's current sequence (a `*` on its
  /// cursor) and is counted.
  void add(const model::Emission& e);

  const KSlabForest& forest() const { return ksf_; }
  ActivationStats stats() const {
    ActivationStats s = stats_;
    s.discarded = shadow_.discarded();
    return s;
  }
  /// Keys by first-appearance id (the k-SF's labels).
  const std::vector<model::PathKey>& first_seen_keys() const { return ids_.keys(); }

  struct Result {
    KIpf ipf;
    /// keys[id]: ids are ranks in the BL profile (count descending, then
    /// key ascending), so id i is row i+1 of `hwprof paths`.
    std::vector<model::PathKey> keys;
  };
  /// Converts the k-SF (Fig. 12) and renumbers the ids by rank.
  Result result() const;

 private:
  KSlabForest ksf_;
  ShadowStack<KsfCursor> shadow_;
  PathIds ids_;
  ActivationStats stats_;
};

// ------------------------------------------------------------ raw stream

/// Bad `--ids` input; what() names the file, line and token.
class IdStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One item of a raw stream: `*` or an id.
struct RawItem {
  bool marker = false;
  uint64_t value = 0;
};

/// Parses whitespace-separated non-negative decimal integers and `*`
/// markers. `name` is used in errors ("NAME:LINE: ...").
std::vector<RawItem> read_id_stream(std::istream& in, const std::string& name);
/// Opens and parses a file (IdStreamError if it cannot be read).
std::vector<RawItem> read_id_stream_file(const std::string& path);

/// k-iteration paths of a raw stream: one cursor, `*` = routine entry
/// (the stream is one sequence of activations, as in 002 Fig. 3).
class RawKpaths {
 public:
  explicit RawKpaths(unsigned k) : ksf_(k) {}
  void marker() { ksf_.marker(cursor_); }
  void add(uint64_t value);
  void add(const RawItem& it) { it.marker ? marker() : add(it.value); }

  const KSlabForest& forest() const { return ksf_; }
  /// The original value of a k-SF label.
  uint64_t value_of_ksf_label(Label l) const { return values_[l]; }

  struct Result {
    KIpf ipf;
    /// values[label]: labels are ranks of the values (ascending), so the
    /// k-IPF's order ties break by value.
    std::vector<uint64_t> values;
  };
  Result result() const;

 private:
  KSlabForest ksf_;
  KsfCursor cursor_;
  std::unordered_map<uint64_t, Label> map_;
  std::vector<uint64_t> values_;
};

}  // namespace hwprof::analyses
