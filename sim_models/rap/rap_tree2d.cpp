#include "rap_tree2d.h"

#include <fmt/core.h>

#include <stdexcept>

#include "prim.h"

namespace hwprof::model {

namespace {

/// Bit i of x moves to bit 2i (x < 2^32).
uint64_t spread(uint64_t x) {
  x &= 0xffffffffu;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
  x = (x | x << 2) & 0x3333333333333333ull;
  x = (x | x << 1) & 0x5555555555555555ull;
  return x;
}

/// The inverse of spread: bit 2i of x moves to bit i.
uint32_t gather(uint64_t x) {
  x &= 0x5555555555555555ull;
  x = (x | x >> 1) & 0x3333333333333333ull;
  x = (x | x >> 2) & 0x0f0f0f0f0f0f0f0full;
  x = (x | x >> 4) & 0x00ff00ff00ff00ffull;
  x = (x | x >> 8) & 0x0000ffff0000ffffull;
  x = (x | x >> 16) & 0x00000000ffffffffull;
  return static_cast<uint32_t>(x);
}

}  // namespace

void Rap2dParams::validate() const {
  if (dim_bits < 1 || dim_bits > kRap2dMaxDimBits)
    throw std::invalid_argument(fmt::format("RAP 2-D dim_bits (K) must be 1..32, got {}", dim_bits));
  key_params().validate(RapTree64::kMaxBits);
}

uint64_t rap2d_key(uint64_t code, uint64_t data, unsigned dim_bits) {
  const uint64_t m = mask_of(dim_bits);
  return spread(code & m) << 1 | spread(data & m);
}

std::pair<uint32_t, uint32_t> rap2d_split_key(uint64_t key, unsigned dim_bits) {
  const uint32_t m = static_cast<uint32_t>(mask_of(dim_bits));
  return {gather(key >> 1) & m, gather(key) & m};
}

Rap2dTree::Rap2dTree(const Rap2dParams& p) : p_(p), tree_((p.validate(), p.key_params())) {}

Rap2dRect Rap2dTree::rect_of(const RapNodeT<uint64_t>& nd) const {
  Rap2dRect r;
  r.key = nd.prefix;
  const auto [c, d] = rap2d_split_key(nd.prefix, p_.dim_bits);
  const uint32_t low = static_cast<uint32_t>(mask_of(p_.dim_bits - nd.depth));
  r.code_lo = c;
  r.code_hi = c | low;
  r.data_lo = d;
  r.data_hi = d | low;
  r.depth = nd.depth;
  r.count = nd.count;
  r.subtree = nd.subtree;
  r.ancestors = nd.ancestors;
  r.parent = nd.parent;
  r.children = nd.children;
  return r;
}

std::vector<Rap2dRect> Rap2dTree::rects() const {
  std::vector<Rap2dRect> out;
  for (const auto& nd : tree_.nodes()) out.push_back(rect_of(nd));
  return out;
}

std::vector<Rap2dHot> Rap2dTree::hot_rects(uint32_t frac_q16) const {
  const auto nd = tree_.nodes();
  std::vector<Rap2dHot> out;
  for (const auto& h : tree_.hot_ranges(frac_q16)) {
    Rap2dHot x;
    x.node = h.node;
    x.rect = rect_of(nd[static_cast<size_t>(h.node)]);
    x.carry = h.carry;
    x.subtree = h.subtree;
    x.hot_level = h.hot_level;
    out.push_back(x);
  }
  return out;
}

std::string Rap2dTree::hex(uint32_t v) const { return fmt::format("{:0{}x}", v, (p_.dim_bits + 3) / 4); }

std::string Rap2dTree::dump_text(bool hot_only, uint32_t frac_q16) const {
  const uint64_t n = tree_.n();
  auto pct = [n](uint64_t x) { return n == 0 ? 0.0 : 100.0 * static_cast<double>(x) / static_cast<double>(n); };
  auto rect = [this](const Rap2dRect& r) {
    return fmt::format("code {}-{} data {}-{} d{}", hex(r.code_lo), hex(r.code_hi), hex(r.data_lo), hex(r.data_hi),
                       r.depth);
  };
  const std::vector<Rap2dHot> hot = hot_rects(frac_q16);
  std::string s;
  if (hot_only) {
    for (const Rap2dHot& h : hot)
      s += fmt::format("{:{}}{} {:.2f}% (total {:.2f}%)\n", "", 2 * h.hot_level, rect(h.rect), pct(h.carry),
                       pct(h.subtree));
    return s;
  }
  const std::vector<Rap2dRect> rs = rects();
  size_t k = 0;
  for (size_t j = 0; j < rs.size(); ++j) {
    const Rap2dRect& r = rs[j];
    s += fmt::format("{:{}}{} count {} ({:.2f}%) total {} ({:.2f}%)", "", 2 * r.depth, rect(r), r.count,
                     pct(r.count), r.subtree, pct(r.subtree));
    if (k < hot.size() && hot[k].node == static_cast<int>(j)) s += fmt::format(" hot {:.2f}%", pct(hot[k++].carry));
    s += '\n';
  }
  return s;
}

Rap2dTree Rap2dTree::from_nodes(const Rap2dParams& p, uint64_t n,
                                const std::vector<std::tuple<uint64_t, unsigned, uint64_t>>& nodes) {
  Rap2dTree t(p);
  t.tree_ = RapTree64::from_nodes(p.key_params(), n, nodes);
  return t;
}

}  // namespace hwprof::model
