#include "rap_tree.h"

#include "prim.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hwprof::model {

namespace {

/// floor(a * n / c) without overflow for a < 2^16 and 2^16 <= c <= 2^21:
/// n = q * c + r, so a * n / c = a * q + a * r / c with a * q < 2^64 and
/// a * r < 2^37.
uint64_t mul_div_floor(uint64_t a, uint64_t n, uint64_t c) {
  const uint64_t q = n / c;
  const uint64_t r = n % c;
  return a * q + a * r / c;
}

}  // namespace

void RapParams::validate(unsigned max_bits) const {
  if (range_bits < 2 || range_bits > max_bits || range_bits % 2 != 0)
    throw std::invalid_argument(fmt::format("RAP range_bits (W) must be even and 2..{}, got {}", max_bits, range_bits));
  if (eps_q16 >= kRapQ16One)
    throw std::invalid_argument(fmt::format("RAP eps_q16 must be 0..65535 (eps < 1), got {}", eps_q16));
  if (merge_first == 0) throw std::invalid_argument("RAP merge_first must be >= 1");
}

uint32_t RapParams::q16(double fraction) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw std::invalid_argument(fmt::format("RAP fraction must be in [0, 1), got {}", fraction));
  const double q = std::round(fraction * kRapQ16One);
  if (q >= kRapQ16One) throw std::invalid_argument(fmt::format("RAP fraction {} rounds to 1.0 in Q0.16", fraction));
  return static_cast<uint32_t>(q);
}

uint64_t rap_split_threshold(uint32_t eps_q16, unsigned range_bits, uint64_t n) {
  return mul_div_floor(eps_q16, n, uint64_t{kRapQ16One} * (range_bits / 2));
}

uint64_t rap_hot_threshold(uint32_t frac_q16, uint64_t n) { return mul_div_floor(frac_q16, n, kRapQ16One); }

// ---------------------------------------------------------------- update

template <class V>
void RapTreeT<V>::init(const RapParams& p) {
  p.validate(kMaxBits);
  params_ = p;
  slots_.assign(1, Slot{});
  free_blocks_.clear();
  node_count_ = 1;
  n_ = 0;
  next_merge_ = p.merge_first;
  full_ = false;
  stats_ = RapStats{};
}

template <class V>
V RapTreeT<V>::mask() const { return static_cast<V>(mask_of(params_.range_bits)); }

template <class V>
V RapTreeT<V>::last_of(V prefix, unsigned depth) const {
  const unsigned s = shift(depth);
  return prefix | static_cast<V>(mask_of(s));
}

template <class V>
int32_t RapTreeT<V>::find_leaf(V value) const {
  int32_t i = 0;
  while (slots_[i].kids >= 0) {
    const unsigned d = slots_[i].depth;
    i = slots_[i].kids + static_cast<int32_t>(value >> shift(d + 1) & 3u);
  }
  return i;
}

template <class V>
void RapTreeT<V>::split(int32_t i) {
  int32_t k;
  if (!free_blocks_.empty()) {
    k = free_blocks_.back();
    free_blocks_.pop_back();
  } else {
    k = static_cast<int32_t>(slots_.size());
    slots_.resize(slots_.size() + kRapBranching);
  }
  const unsigned d = slots_[i].depth + 1u;
  for (unsigned c = 0; c < kRapBranching; ++c) {
    Slot& s = slots_[k + c];
    s.prefix = slots_[i].prefix | static_cast<V>(V{c} << shift(d));
    s.depth = static_cast<uint8_t>(d);
    s.count = 0;
    s.kids = -1;
  }
  slots_[i].kids = k;
  node_count_ += kRapBranching;
  ++stats_.splits;
  if (node_count_ > stats_.peak_nodes) stats_.peak_nodes = node_count_;
}

template <class V>
unsigned RapTreeT<V>::merge_pass() {
  const uint64_t t = threshold();
  const unsigned h = params_.max_depth();
  // Internal nodes by depth, each depth in ascending prefix order (pre-order).
  std::vector<std::vector<int32_t>> by_depth(h);
  std::vector<int32_t> stack{0};
  while (!stack.empty()) {
    const int32_t i = stack.back();
    stack.pop_back();
    if (slots_[i].kids < 0) continue;
    by_depth[slots_[i].depth].push_back(i);
    for (int c = kRapBranching - 1; c >= 0; --c) stack.push_back(slots_[i].kids + c);
  }
  unsigned merged = 0;
  for (unsigned d = h; d-- > 0;) {
    for (const int32_t i : by_depth[d]) {
      const int32_t k = slots_[i].kids;
      uint64_t sum = slots_[i].count;
      bool leaves = true;
      for (unsigned c = 0; c < kRapBranching; ++c) {
        leaves = leaves && slots_[k + c].kids < 0;
        sum += slots_[k + c].count;  // <= n: no overflow
      }
      if (!leaves || sum > t) continue;
      slots_[i].count = sum;
      slots_[i].kids = -1;
      free_blocks_.push_back(k);
      node_count_ -= kRapBranching;
      ++merged;
    }
  }
  stats_.merges += merged;
  stats_.last_pass_n = n_;
  return merged;
}

template <class V>
typename RapTreeT<V>::RapUpdate RapTreeT<V>::add(V value, uint64_t weight) {
  if (weight > std::numeric_limits<uint64_t>::max() - n_)
    throw std::overflow_error("RAP total weight n would exceed 2^64 - 1");
  value &= mask();
  RapUpdate u;
  ++stats_.updates;

  // 1. Counter update.
  const int32_t i = find_leaf(value);
  u.leaf_prefix = slots_[i].prefix;
  u.leaf_depth = slots_[i].depth;
  slots_[i].count += weight;  // <= n
  n_ += weight;
  u.threshold = threshold();

  // 2. Split check (a capacity merge pass cannot remove leaf i: its parent's
  // group sum includes count(i) > threshold).
  if (slots_[i].count > u.threshold && slots_[i].depth < params_.max_depth()) {
    if (!fits() && !full_) {
      u.capacity_pass = true;
      u.capacity_pass_nodes = node_count_;
      ++stats_.capacity_passes;
      u.merged += merge_pass();
      if (!fits()) full_ = true;
    }
    if (fits()) {
      split(i);
      u.split = true;
    } else {
      u.split_skipped = true;
      ++stats_.splits_skipped;
    }
  }

  // 3. Merge check.
  if (n_ >= next_merge_) {
    u.scheduled_pass = true;
    u.scheduled_pass_nodes = node_count_;
    ++stats_.scheduled_passes;
    u.merged += merge_pass();
    full_ = false;
    while (next_merge_ <= n_) {
      if (next_merge_ > std::numeric_limits<uint64_t>::max() / kRapMergeRatio) {
        next_merge_ = std::numeric_limits<uint64_t>::max();  // saturates: n cannot pass it
        break;
      }
      next_merge_ *= kRapMergeRatio;
    }
  }
  return u;
}

template <class V>
unsigned RapTreeT<V>::finalize() {
  ++stats_.final_passes;
  return merge_pass();
}

// ---------------------------------------------------------------- read-out

template <class V>
std::pair<V, unsigned> RapTreeT<V>::lookup(V value) const {
  const int32_t i = find_leaf(value & mask());
  return {slots_[i].prefix, slots_[i].depth};
}

template <class V>
std::optional<uint64_t> RapTreeT<V>::count_of(V prefix, unsigned depth) const {
  if (depth > params_.max_depth()) return std::nullopt;
  int32_t i = 0;
  while (slots_[i].depth < depth) {
    if (slots_[i].kids < 0) return std::nullopt;
    i = slots_[i].kids + static_cast<int32_t>(prefix >> shift(slots_[i].depth + 1u) & 3u);
  }
  if (slots_[i].prefix != prefix) return std::nullopt;  // prefix had bits below the depth
  return slots_[i].count;
}

template <class V>
std::vector<typename RapTreeT<V>::RapNode> RapTreeT<V>::nodes() const {
  std::vector<RapNode> out;
  out.reserve(node_count_);
  // Pre-order: (slot, parent index in out).
  std::vector<std::pair<int32_t, int>> stack{{0, -1}};
  while (!stack.empty()) {
    const auto [i, parent] = stack.back();
    stack.pop_back();
    const Slot& s = slots_[i];
    RapNode nd;
    nd.prefix = s.prefix;
    nd.depth = s.depth;
    nd.last = last_of(s.prefix, s.depth);
    nd.count = s.count;
    nd.parent = parent;
    const int me = static_cast<int>(out.size());
    if (parent >= 0) {
      const RapNode& p = out[parent];
      nd.ancestors = p.ancestors + p.count;
      out[parent].children[(s.prefix >> shift(s.depth)) & 3u] = me;
    }
    out.push_back(nd);
    if (s.kids >= 0)
      for (int c = kRapBranching - 1; c >= 0; --c) stack.push_back({s.kids + c, me});
  }
  // Subtree sums: children come after their parent in pre-order.
  for (size_t j = out.size(); j-- > 0;) {
    out[j].subtree += out[j].count;
    if (out[j].parent >= 0) out[out[j].parent].subtree += out[j].subtree;
  }
  return out;
}

template <class V>
uint64_t RapTreeT<V>::subtree_sum(int32_t i) const {
  uint64_t s = slots_[i].count;
  if (slots_[i].kids >= 0)
    for (unsigned c = 0; c < kRapBranching; ++c) s += subtree_sum(slots_[i].kids + static_cast<int32_t>(c));
  return s;
}

template <class V>
void RapTreeT<V>::estimate_rec(int32_t i, V lo, V hi, RapEstimate& e) const {
  const V a = slots_[i].prefix;
  const V b = last_of(a, slots_[i].depth);
  if (b < lo || a > hi) return;  // disjoint
  if (lo <= a && b <= hi) {      // inside
    e.lower += subtree_sum(i);
    return;
  }
  e.upper += slots_[i].count;  // straddles lo or hi: some of its weight may lie in [lo, hi]
  if (slots_[i].kids >= 0)
    for (unsigned c = 0; c < kRapBranching; ++c) estimate_rec(slots_[i].kids + static_cast<int32_t>(c), lo, hi, e);
}

template <class V>
RapEstimate RapTreeT<V>::estimate(V lo, V hi) const {
  lo &= mask();
  hi &= mask();
  if (lo > hi) throw std::invalid_argument(fmt::format("RAP estimate: lo {:x} > hi {:x}", lo, hi));
  RapEstimate e;
  estimate_rec(0, lo, hi, e);
  e.upper += e.lower;
  return e;
}

template <class V>
std::vector<typename RapTreeT<V>::RapHotRange> RapTreeT<V>::hot_ranges(uint32_t frac_q16) const {
  if (frac_q16 >= kRapQ16One) throw std::invalid_argument("RAP hot fraction must be < 1 (Q0.16 0..65535)");
  const std::vector<RapNode> nd = nodes();
  const uint64_t cut = rap_hot_threshold(frac_q16, n_);
  std::vector<uint64_t> carry(nd.size(), 0);
  std::vector<char> hot(nd.size(), 0);
  for (size_t j = nd.size(); j-- > 0;) {  // children before parents
    carry[j] += nd[j].count;
    hot[j] = carry[j] > cut;
    if (!hot[j] && nd[j].parent >= 0) carry[nd[j].parent] += carry[j];
  }
  std::vector<RapHotRange> out;
  std::vector<unsigned> level(nd.size(), 0);  // hot proper ancestors
  for (size_t j = 0; j < nd.size(); ++j) {
    if (nd[j].parent >= 0) level[j] = level[nd[j].parent] + (hot[nd[j].parent] ? 1u : 0u);
    if (!hot[j]) continue;
    RapHotRange h;
    h.node = static_cast<int>(j);
    h.prefix = nd[j].prefix;
    h.last = nd[j].last;
    h.depth = nd[j].depth;
    h.count = nd[j].count;
    h.carry = carry[j];
    h.subtree = nd[j].subtree;
    h.hot_level = level[j];
    out.push_back(h);
  }
  return out;
}

template <class V>
std::string RapTreeT<V>::hex(V v) const {
  return fmt::format("{:0{}x}", v, (params_.range_bits + 3) / 4);
}

template <class V>
std::string RapTreeT<V>::dump_text(bool hot_only, uint32_t frac_q16) const {
  auto pct = [this](uint64_t x) { return n_ == 0 ? 0.0 : 100.0 * static_cast<double>(x) / static_cast<double>(n_); };
  std::string s;
  const std::vector<RapHotRange> hot = hot_ranges(frac_q16);
  if (hot_only) {
    for (const RapHotRange& h : hot)
      s += fmt::format("{:{}}{}-{} d{} {:.2f}% (total {:.2f}%)\n", "", 2 * h.hot_level, hex(h.prefix), hex(h.last),
                       h.depth, pct(h.carry), pct(h.subtree));
    return s;
  }
  const std::vector<RapNode> nd = nodes();
  size_t k = 0;  // next hot range (both lists are in pre-order)
  for (size_t j = 0; j < nd.size(); ++j) {
    const RapNode& v = nd[j];
    s += fmt::format("{:{}}{}-{} d{} count {} ({:.2f}%) total {} ({:.2f}%)", "", 2 * v.depth, hex(v.prefix),
                     hex(v.last), v.depth, v.count, pct(v.count), v.subtree, pct(v.subtree));
    if (k < hot.size() && hot[k].node == static_cast<int>(j)) s += fmt::format(" hot {:.2f}%", pct(hot[k++].carry));
    s += '\n';
  }
  return s;
}

template <class V>
bool RapTreeT<V>::same_tree(const RapTreeT& o) const {
  if (n_ != o.n_ || node_count_ != o.node_count_) return false;
  const std::vector<RapNode> a = nodes(), b = o.nodes();
  for (size_t j = 0; j < a.size(); ++j)
    if (a[j].prefix != b[j].prefix || a[j].depth != b[j].depth || a[j].count != b[j].count) return false;
  return true;
}

template <class V>
RapTreeT<V> RapTreeT<V>::from_nodes(const RapParams& p, uint64_t n,
                            const std::vector<std::tuple<V, unsigned, uint64_t>>& nodes) {
  RapTreeT t(p);
  auto v = nodes;
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  // Pre-order: every node's parent comes first; create children as needed.
  for (const auto& [prefix, depth, count] : v) {
    if (depth > p.max_depth() || (prefix & ~t.mask()) != 0)
      throw std::invalid_argument("RAP from_nodes: node out of range");
    int32_t i = 0;
    while (t.slots_[i].depth < depth) {
      if (t.slots_[i].kids < 0) {
        if (t.slots_[i].depth + 1u != depth) throw std::invalid_argument("RAP from_nodes: missing parent");
        t.split(i);
      }
      i = t.slots_[i].kids + static_cast<int32_t>(prefix >> t.shift(t.slots_[i].depth + 1u) & 3u);
    }
    if (t.slots_[i].prefix != prefix) throw std::invalid_argument("RAP from_nodes: unaligned prefix");
    t.slots_[i].count = count;
  }
  if (t.node_count_ != v.size()) throw std::invalid_argument("RAP from_nodes: not a tree of 0 or 4 children");
  t.n_ = n;
  const uint64_t peak = t.node_count_;
  t.stats_ = RapStats{};
  t.stats_.peak_nodes = peak;
  return t;
}

template class RapTreeT<uint32_t>;
template class RapTreeT<uint64_t>;

}  // namespace hwprof::model
