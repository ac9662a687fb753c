// Two-dimensional RAP (paper 001 section 5.5, Fig. 13; docs/rap2d.md): a
// tree of code x data rectangles. It is the 1-D RAP tree (RapTreeT, written
// once) on the 2K-bit bit-interleaved key of each (code, data) pair:
//   key bit 2i+1 = code bit i, key bit 2i = data bit i (i < K),
// so a depth-d node (a 2d-bit key prefix) is the rectangle of the pairs
// whose code and data addresses both have the node's d-bit prefixes, and a
// split halves both ranges into four children (child index 2 * code bit +
// data bit). Every rule and bound of docs/rap.md carries over with H = K.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rap_tree.h"

namespace hwprof::model {

inline constexpr unsigned kRap2dMaxDimBits = 32;  ///< K at most 32 (keys of 64 bits)

/// Parameters of a 2-D tree.
struct Rap2dParams {
  unsigned dim_bits = 32;             ///< K: bits of each address, 1..32 (keys of 2K bits)
  uint32_t eps_q16 = kRapEpsDefault;  ///< E: eps = E / 65536
  uint32_t node_cap = 512;            ///< NodeCap, root included; 0 = unlimited
  uint64_t merge_first = 1024;        ///< MergeFirst

  /// The parameters of the underlying key tree (range_bits = 2K).
  RapParams key_params() const { return RapParams{2 * dim_bits, eps_q16, node_cap, merge_first}; }
  /// Throws std::invalid_argument naming the bad field.
  void validate() const;
};

/// The interleaved key of (code, data), both taken modulo 2^K.
uint64_t rap2d_key(uint64_t code, uint64_t data, unsigned dim_bits);
/// The inverse: {code, data} of a key.
std::pair<uint32_t, uint32_t> rap2d_split_key(uint64_t key, unsigned dim_bits);

/// One node as a rectangle (pre-order of the key tree, see rap2d.md).
struct Rap2dRect {
  uint64_t key = 0;        ///< the key tree's prefix (first key of the node)
  uint32_t code_lo = 0, code_hi = 0;  ///< code range [code_lo, code_hi]
  uint32_t data_lo = 0, data_hi = 0;  ///< data range [data_lo, data_hi]
  unsigned depth = 0;      ///< 0..K: both ranges are 2^(K - depth) wide
  uint64_t count = 0;      ///< the node's own counter
  uint64_t subtree = 0;    ///< count + descendants: a lower bound of the rectangle's true weight
  uint64_t ancestors = 0;  ///< proper ancestors' counts: true - subtree is at most this
  int parent = -1;
  std::array<int, kRapBranching> children{{-1, -1, -1, -1}};
  bool leaf() const { return children[0] < 0; }
  /// Does the rectangle hold the pair (code, data) (both already modulo 2^K)?
  bool contains(uint32_t code, uint32_t data) const {
    return code_lo <= code && code <= code_hi && data_lo <= data && data <= data_hi;
  }
};

/// One hot rectangle (docs/rap2d.md, "Hot rectangle").
struct Rap2dHot {
  int node = 0;            ///< index in rects()
  Rap2dRect rect;
  uint64_t carry = 0;      ///< count + non-hot descendants (shown and shaded)
  uint64_t subtree = 0;    ///< count + all descendants
  unsigned hot_level = 0;  ///< hot proper ancestors
};

class Rap2dTree {
 public:
  Rap2dTree() : Rap2dTree(Rap2dParams{}) {}
  /// Throws std::invalid_argument on bad parameters.
  explicit Rap2dTree(const Rap2dParams& p);

  /// One pair (both addresses taken modulo 2^K).
  RapUpdateT<uint64_t> add(uint64_t code, uint64_t data, uint64_t weight = 1) {
    return tree_.add(rap2d_key(code, data, p_.dim_bits), weight);
  }
  unsigned finalize() { return tree_.finalize(); }

  const Rap2dParams& params() const { return p_; }
  uint64_t n() const { return tree_.n(); }
  uint64_t node_count() const { return tree_.node_count(); }
  const RapStats& stats() const { return tree_.stats(); }
  /// The key tree (the 1-D algorithm on interleaved keys).
  const RapTree64& key_tree() const { return tree_; }

  /// Every node as a rectangle, in the key tree's pre-order.
  std::vector<Rap2dRect> rects() const;
  /// The hot rectangles in pre-order (the key tree's hot ranges).
  std::vector<Rap2dHot> hot_rects(uint32_t frac_q16 = kRapHotDefault) const;
  /// A K-bit address in hex, ceil(K/4) digits.
  std::string hex(uint32_t v) const;
  /// One line per node (hot_only: per hot rectangle), two spaces per depth
  /// (hot level):
  ///   "code <lo>-<hi> data <lo>-<hi> d<depth> count <c> (<%>) total <s> (<%>)[ hot <carry %>]"
  ///   hot_only: "code <lo>-<hi> data <lo>-<hi> d<depth> <carry %> (total <subtree %>)"
  std::string dump_text(bool hot_only = false, uint32_t frac_q16 = kRapHotDefault) const;
  bool same_tree(const Rap2dTree& o) const { return tree_.same_tree(o.tree_); }
  /// Rebuilds a tree from (key prefix, depth, count) nodes and n (an engine's dump).
  static Rap2dTree from_nodes(const Rap2dParams& p, uint64_t n,
                              const std::vector<std::tuple<uint64_t, unsigned, uint64_t>>& nodes);

 private:
  Rap2dRect rect_of(const RapNodeT<uint64_t>& nd) const;

  Rap2dParams p_;
  RapTree64 tree_;
};

}  // namespace hwprof::model
