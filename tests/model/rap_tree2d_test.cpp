// Two-dimensional RAP (docs/rap2d.md): the interleaved key, trees traced by
// hand on small widths, and every bound of rap2d.md against brute-force
// rectangle counts on random, adversarial and the shipped real (gzip code x
// data) streams; the 2-D tree is checked against the key tree fed
// independently and, for K <= 16, against the 32-bit RapTree on the same keys.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rap_tree.h"
#include "rap_tree2d.h"
#include "trace.h"

using namespace hwprof::model;

namespace {

struct Pair {
  uint32_t code, data;
  uint64_t w;
};

Rap2dParams P2(unsigned k, uint32_t e, uint32_t cap, uint64_t mf) { return Rap2dParams{k, e, cap, mf}; }

/// Exact weights of the distinct pairs. rect() sums them by brute force over
/// the pairs inside the rectangle (Rap2dRect::contains, coordinates only);
/// fast() uses the sorted interleaved keys (a rectangle is a key interval)
/// and is cross-checked against rect() on a sample.
struct Exact {
  unsigned k = 32;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> m;
  std::vector<uint64_t> keys, cum;  // sorted keys, cum[i] = weight of keys[0..i)
  uint64_t rect(const Rap2dRect& r) const {
    uint64_t s = 0;
    for (const auto& [p, w] : m)
      if (r.contains(p.first, p.second)) s += w;
    return s;
  }
  void index() {
    std::map<uint64_t, uint64_t> byk;
    for (const auto& [p, w] : m) byk[rap2d_key(p.first, p.second, k)] += w;
    keys.clear();
    cum.assign(1, 0);
    for (const auto& [key, w] : byk) {
      keys.push_back(key);
      cum.push_back(cum.back() + w);
    }
  }
  uint64_t fast(const Rap2dRect& r) const {
    const unsigned low = 2 * (k - r.depth);
    const uint64_t last = r.key | (low >= 64 ? ~uint64_t{0} : (uint64_t{1} << low) - 1);
    const size_t a = static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), r.key) - keys.begin());
    const size_t b = static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), last) - keys.begin());
    return cum[b] - cum[a];
  }
};

/// Runs a stream and checks rap2d.md's bounds on every node and hot rectangle.
void check_stream(const Rap2dParams& p, const std::vector<Pair>& evs, const std::string& what) {
  BOOST_TEST_CONTEXT(what << " K=" << p.dim_bits << " E=" << p.eps_q16 << " cap=" << p.node_cap
                          << " mf=" << p.merge_first) {
    Rap2dTree t(p);
    RapTree64 ref(p.key_params());
    Exact ex;
    ex.k = p.dim_bits;
    uint64_t wmax = 0;
    const uint32_t m = static_cast<uint32_t>(p.dim_bits >= 32 ? 0xffffffffu : (1u << p.dim_bits) - 1);
    const bool narrow = 2 * p.dim_bits <= 32;
    RapTree narrow_ref(narrow ? p.key_params() : RapParams{});
    for (const Pair& e : evs) {
      t.add(e.code, e.data, e.w);
      ref.add(rap2d_key(e.code, e.data, p.dim_bits), e.w);
      if (narrow) narrow_ref.add(static_cast<uint32_t>(rap2d_key(e.code, e.data, p.dim_bits)), e.w);
      ex.m[{e.code & m, e.data & m}] += e.w;
      wmax = std::max(wmax, e.w);
    }
    BOOST_TEST_REQUIRE(t.key_tree().same_tree(ref));
    const auto rs = t.rects();
    BOOST_TEST_REQUIRE(rs.size() == t.node_count());
    if (narrow) {
      const auto a = narrow_ref.nodes();
      BOOST_TEST_REQUIRE(a.size() == rs.size());
      for (size_t i = 0; i < a.size(); ++i) {
        BOOST_TEST_REQUIRE(uint64_t{a[i].prefix} == rs[i].key);
        BOOST_TEST_REQUIRE(a[i].depth == rs[i].depth);
        BOOST_TEST_REQUIRE(a[i].count == rs[i].count);
      }
    }
    const uint64_t n = t.n();
    const uint64_t thr = rap_split_threshold(p.eps_q16, 2 * p.dim_bits, n);
    const bool skipped = t.stats().splits_skipped > 0;
    uint64_t sum = 0, leaf_exact = 0;
    ex.index();
    std::vector<uint64_t> exact(rs.size());
    for (size_t i = 0; i < rs.size(); ++i) {
      const Rap2dRect& r = rs[i];
      sum += r.count;
      // Geometry: square in bits, aligned, children are the four quadrants.
      BOOST_TEST_REQUIRE(r.code_hi - r.code_lo == r.data_hi - r.data_lo);
      BOOST_TEST_REQUIRE(uint64_t{r.code_hi} - r.code_lo + 1 == uint64_t{1} << (p.dim_bits - r.depth));
      if (!r.leaf()) {
        const uint32_t half = static_cast<uint32_t>((uint64_t{r.code_hi} - r.code_lo + 1) / 2);
        for (unsigned c = 0; c < 4; ++c) {
          const Rap2dRect& k = rs[static_cast<size_t>(r.children[c])];
          BOOST_TEST_REQUIRE(k.code_lo == r.code_lo + ((c >> 1) ? half : 0));
          BOOST_TEST_REQUIRE(k.data_lo == r.data_lo + ((c & 1) ? half : 0));
          BOOST_TEST_REQUIRE(k.depth == r.depth + 1);
        }
      }
      exact[i] = ex.fast(r);
      if (rs.size() < 400 || i % 97 == 0) BOOST_TEST_REQUIRE(exact[i] == ex.rect(r));  // brute force
      if (r.leaf()) leaf_exact += exact[i];
      BOOST_TEST_INFO("node " << i << " code " << t.hex(r.code_lo) << "-" << t.hex(r.code_hi) << " data "
                              << t.hex(r.data_lo) << "-" << t.hex(r.data_hi) << " d" << r.depth);
      // Bound 1.
      BOOST_TEST_REQUIRE(r.subtree <= exact[i]);
      BOOST_TEST_REQUIRE(exact[i] <= r.subtree + r.ancestors);
      // Bound 2 (no skipped split).
      if (!skipped) BOOST_TEST_REQUIRE(exact[i] - r.subtree <= r.depth * (thr + wmax));
    }
    BOOST_TEST_REQUIRE(sum == n);
    BOOST_TEST_REQUIRE(rs[0].subtree == n);
    // The leaves partition the pairs.
    BOOST_TEST_REQUIRE(leaf_exact == n);
    // Bound 3 on the hot rectangles at 10% and 1%, recomputed here.
    for (const uint32_t frac : {6554u, 655u}) {
      const auto hot = t.hot_rects(frac);
      const uint64_t cut = rap_hot_threshold(frac, n);
      std::vector<char> is_hot(rs.size(), 0);
      for (const auto& h : hot) is_hot[static_cast<size_t>(h.node)] = 1;
      // Recompute carry and hotness bottom-up.
      std::vector<uint64_t> carry(rs.size(), 0);
      for (size_t j = rs.size(); j-- > 0;) {
        carry[j] += rs[j].count;
        BOOST_TEST_REQUIRE(bool(is_hot[j]) == (carry[j] > cut));
        if (!is_hot[j] && rs[j].parent >= 0) carry[static_cast<size_t>(rs[j].parent)] += carry[j];
      }
      for (const auto& h : hot) {
        const size_t v = static_cast<size_t>(h.node);
        BOOST_TEST_REQUIRE(h.carry == carry[v]);
        BOOST_TEST_REQUIRE(h.subtree == rs[v].subtree);
        // Maximal hot proper descendants.
        uint64_t ex_hot = 0, anc_hot = 0;
        std::vector<size_t> st;
        for (int c : rs[v].children)
          if (c >= 0) st.push_back(static_cast<size_t>(c));
        while (!st.empty()) {
          const size_t j = st.back();
          st.pop_back();
          if (is_hot[j]) {
            ex_hot += exact[j];
            anc_hot += rs[j].ancestors;
            continue;
          }
          for (int c : rs[j].children)
            if (c >= 0) st.push_back(static_cast<size_t>(c));
        }
        const uint64_t truth = exact[v] - ex_hot;
        BOOST_TEST_REQUIRE(h.carry <= truth + anc_hot);
        BOOST_TEST_REQUIRE(truth <= h.carry + rs[v].ancestors);
      }
    }
  }
}

std::vector<Pair> random_pairs(uint64_t seed, unsigned k, size_t len, int kind) {
  std::mt19937_64 r(seed);
  const uint32_t m = static_cast<uint32_t>(k >= 32 ? 0xffffffffu : (1u << k) - 1);
  std::vector<Pair> v;
  std::vector<uint32_t> fns(32), regions(16);
  for (auto& f : fns) f = static_cast<uint32_t>(r());
  for (auto& g : regions) g = static_cast<uint32_t>(r());
  for (size_t i = 0; i < len; ++i) {
    Pair p{};
    switch (kind) {
      case 0:  // uniform
        p = {static_cast<uint32_t>(r()) & m, static_cast<uint32_t>(r()) & m, 1};
        break;
      case 1: {  // code-like: hot functions touching their own data regions, weights 1..4
        const size_t f = r() % 8 ? r() % 4 : r() % fns.size();
        p = {(fns[f] + static_cast<uint32_t>(r() % 64)) & m,
             (regions[f % regions.size()] + static_cast<uint32_t>(r() % 4096)) & m, 1 + r() % 4};
        break;
      }
      case 2:  // one hot pair at 90%, and the corners
        p = r() % 10 ? Pair{0xdeadbeefu & m, 0x12345678u & m, 1}
                     : Pair{(r() & 1) ? m : 0, (r() & 1) ? m : 0, 1};
        break;
      default:  // phases: the hot pairs change every 2,000 events; heavy weights
        p = {(fns[(i / 2000) % fns.size()] + static_cast<uint32_t>(r() % 16)) & m,
             (regions[(i / 2000) % regions.size()]) & m, r() % 50 ? 1 : 1 + r() % 4096};
        break;
    }
    v.push_back(p);
  }
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rap_tree2d)

BOOST_AUTO_TEST_CASE(InterleavedKeyPutsCodeOnTheOddBits) {
  BOOST_TEST(rap2d_key(0xffffffffu, 0, 32) == 0xaaaaaaaaaaaaaaaaull);
  BOOST_TEST(rap2d_key(0, 0xffffffffu, 32) == 0x5555555555555555ull);
  BOOST_TEST(rap2d_key(0x80000000u, 0, 32) == 0x8000000000000000ull);
  BOOST_TEST(rap2d_key(0, 1, 32) == 1u);
  BOOST_TEST(rap2d_key(2, 1, 2) == 9u);           // c = 10, a = 01 -> 1 0 0 1
  BOOST_TEST(rap2d_key(0x1f, 0x1f, 2) == 15u);    // taken modulo 2^K
  BOOST_TEST(rap2d_key(0x1234567890ull, 0, 32) == rap2d_key(0x34567890u, 0, 32));
  std::mt19937_64 r(5);
  for (unsigned k = 1; k <= 32; ++k)
    for (int i = 0; i < 200; ++i) {
      const uint32_t m = static_cast<uint32_t>(k >= 32 ? 0xffffffffu : (1u << k) - 1);
      const uint32_t c = static_cast<uint32_t>(r()) & m, d = static_cast<uint32_t>(r()) & m;
      const uint64_t key = rap2d_key(c, d, k);
      if (k < 32) BOOST_TEST_REQUIRE(key >> (2 * k) == 0u);
      BOOST_TEST_REQUIRE((rap2d_split_key(key, k) == std::pair<uint32_t, uint32_t>{c, d}));
    }
}

BOOST_AUTO_TEST_CASE(ParamsAreValidated) {
  for (unsigned k : {0u, 33u}) BOOST_CHECK_THROW(Rap2dTree(P2(k, 6554, 0, 1)), std::invalid_argument);
  BOOST_CHECK_THROW(Rap2dTree(P2(32, 65536, 0, 1)), std::invalid_argument);
  BOOST_CHECK_THROW(Rap2dTree(P2(32, 6554, 0, 0)), std::invalid_argument);
  BOOST_CHECK_NO_THROW(Rap2dTree(P2(1, 0, 0, 1)));
  BOOST_CHECK_NO_THROW(Rap2dTree(P2(32, 6554, 512, 1024)));
  // The 32-bit tree keeps its limit; the 64-bit one takes W = 64.
  BOOST_CHECK_THROW(RapTree(RapParams{64, 6554, 0, 1}), std::invalid_argument);
  BOOST_CHECK_NO_THROW(RapTree64(RapParams{64, 6554, 0, 1}));
  BOOST_CHECK_THROW(RapTree64(RapParams{66, 6554, 0, 1}), std::invalid_argument);
}

// K = 1: the root and four one-pair rectangles.
BOOST_AUTO_TEST_CASE(OneBitSplitsIntoTheFourPairs) {
  Rap2dTree t(P2(1, 0, 0, 1000));  // eps 0: T = 0
  auto u = t.add(1, 0);            // root = 1 > 0: split
  BOOST_TEST(u.split);
  u = t.add(1, 0);                 // leaf (c1, d0), depth 1 = K: never splits
  BOOST_TEST(!u.split);
  BOOST_TEST(u.leaf_prefix == 2u);
  t.add(0, 1, 5);
  BOOST_TEST(t.dump_text() ==
             "code 0-1 data 0-1 d0 count 1 (14.29%) total 7 (100.00%) hot 14.29%\n"
             "  code 0-0 data 0-0 d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 0-0 data 1-1 d1 count 5 (71.43%) total 5 (71.43%) hot 71.43%\n"
             "  code 1-1 data 0-0 d1 count 1 (14.29%) total 1 (14.29%) hot 14.29%\n"
             "  code 1-1 data 1-1 d1 count 0 (0.00%) total 0 (0.00%)\n");
}

// K = 2: one pair (code 2, data 1) drills down one level per event.
BOOST_AUTO_TEST_CASE(TwoBitsDrillDownToOnePair) {
  Rap2dTree t(P2(2, 0, 0, 1000));
  for (int i = 0; i < 3; ++i) t.add(2, 1);
  BOOST_TEST(t.dump_text() ==
             "code 0-3 data 0-3 d0 count 1 (33.33%) total 3 (100.00%) hot 33.33%\n"
             "  code 0-1 data 0-1 d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 0-1 data 2-3 d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 2-3 data 0-1 d1 count 1 (33.33%) total 2 (66.67%) hot 33.33%\n"
             "    code 2-2 data 0-0 d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    code 2-2 data 1-1 d2 count 1 (33.33%) total 1 (33.33%) hot 33.33%\n"
             "    code 3-3 data 0-0 d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    code 3-3 data 1-1 d2 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 2-3 data 2-3 d1 count 0 (0.00%) total 0 (0.00%)\n");
  BOOST_TEST(t.dump_text(true) ==
             "code 0-3 data 0-3 d0 33.33% (total 100.00%)\n"
             "  code 2-3 data 0-1 d1 33.33% (total 66.67%)\n"
             "    code 2-2 data 1-1 d2 33.33% (total 33.33%)\n");
  // The exact weight of [2,3] x [0,1] is 3; the tree says 2 + 1 on the root.
  const auto rs = t.rects();
  BOOST_TEST(rs[3].subtree == 2u);
  BOOST_TEST(rs[3].ancestors == 1u);
}

// K = 2, eps 1/2 (T(n) = floor(n / 4)): a split, then a scheduled merge of a
// cold quadrant at n = 8 (MergeFirst), the merge rule of rap.md unchanged.
BOOST_AUTO_TEST_CASE(TwoBitsMergeColdQuadrant) {
  Rap2dTree t(P2(2, 32768, 0, 8));
  t.add(0, 0);  // n 1, T 0: root 1 > 0 split
  t.add(0, 0);  // n 2, T 0: [0,1]x[0,1] = 1 > 0 split
  t.add(3, 3, 2);  // n 4, T 1: [2,3]x[2,3] = 2 > 1 split
  t.add(0, 0);  // n 5, T 1: (0,0) = 1
  // n 8, T 2: [2,3]x[2,3] d1 has 2 + 0: 2 <= 2 merges; [0,1]x[0,1] has 1 + 1 + 3 (pair (1,1) x3) = 5 > 2 stays.
  auto u = t.add(1, 1, 3);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 1u);
  BOOST_TEST(t.dump_text() ==
             "code 0-3 data 0-3 d0 count 1 (12.50%) total 8 (100.00%) hot 12.50%\n"
             "  code 0-1 data 0-1 d1 count 1 (12.50%) total 5 (62.50%) hot 12.50%\n"
             "    code 0-0 data 0-0 d2 count 1 (12.50%) total 1 (12.50%) hot 12.50%\n"
             "    code 0-0 data 1-1 d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    code 1-1 data 0-0 d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    code 1-1 data 1-1 d2 count 3 (37.50%) total 3 (37.50%) hot 37.50%\n"
             "  code 0-1 data 2-3 d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 2-3 data 0-1 d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  code 2-3 data 2-3 d1 count 2 (25.00%) total 2 (25.00%) hot 25.00%\n");
}

BOOST_AUTO_TEST_CASE(FromNodesRebuildsTheSameTree) {
  Rap2dTree t(P2(32, 655, 0, 64));
  for (const Pair& e : random_pairs(3, 32, 3000, 1)) t.add(e.code, e.data, e.w);
  std::vector<std::tuple<uint64_t, unsigned, uint64_t>> v;
  for (const auto& r : t.rects()) v.emplace_back(r.key, r.depth, r.count);
  const Rap2dTree b = Rap2dTree::from_nodes(t.params(), t.n(), v);
  BOOST_TEST(b.same_tree(t));
  BOOST_TEST(b.dump_text() == t.dump_text());
}

BOOST_AUTO_TEST_CASE(SmallWidthStreamsKeepEveryBound) {
  // K = 1, 2, 3 under several parameter sets; checked after each prefix.
  for (unsigned k : {1u, 2u, 3u})
    for (const uint32_t e : {0u, 6554u, 32768u})
      for (const uint32_t cap : {0u, 5u, 21u})
        for (const uint64_t mf : {1u, 8u}) {
          const auto evs = random_pairs(k * 100 + e + cap + mf, k, 60, static_cast<int>((k + cap) % 4));
          for (size_t len = 1; len <= evs.size(); len += 7)
            check_stream(P2(k, e, cap, mf), std::vector<Pair>(evs.begin(), evs.begin() + static_cast<long>(len)),
                         "small len " + std::to_string(len));
        }
}

BOOST_AUTO_TEST_CASE(RandomStreamsKeepEveryBoundAt32Bits) {
  const Rap2dParams ps[] = {P2(32, 6554, 0, 1024), P2(32, 655, 0, 1024), P2(32, 6554, 512, 1024),
                            P2(32, 3277, 64, 64), P2(16, 3277, 0, 1)};
  for (int kind = 0; kind < 4; ++kind)
    for (const Rap2dParams& p : ps)
      check_stream(p, random_pairs(77 + static_cast<uint64_t>(kind), p.dim_bits, 6000, kind),
                   "kind " + std::to_string(kind));
}

BOOST_AUTO_TEST_CASE(ShippedGzipCodeDataStreamKeepsEveryBound) {
  // The first 40,000 (pc, address) pairs of the shipped gzip trace.
  std::vector<Pair> evs;
  hwprof::trace::for_each(std::string(HWPROF_TRACE_DIR) + "/val/gzip_pcmem.hwpt.zst",
                          [&](const hwprof::trace::Record& r) {
                            if (r.kind == hwprof::trace::Kind::Val && r.has_pc && evs.size() < 40000)
                              evs.push_back({static_cast<uint32_t>(r.pc), static_cast<uint32_t>(r.value), r.weight});
                          });
  BOOST_TEST_REQUIRE(evs.size() == 40000u);
  for (const Rap2dParams& p : {P2(32, 6554, 512, 1024), P2(32, 655, 0, 1024), P2(32, 3277, 128, 256)})
    check_stream(p, evs, "gzip_pcmem");
}

BOOST_AUTO_TEST_SUITE_END()
