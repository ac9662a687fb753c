// Directed tests of the hot path table: the functional model (HptAlgo,
// HptCtrl, the overlap metrics of spec section 8) and the cycle model
// (model::Hpt) against docs/hpt.md.
//
// Every expected value is written out by hand from docs/hpt.md; the index
// values are derived bit by bit in the comments (nothing is computed by a
// helper that mirrors the model).
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "hpt.h"
#include "hpt_algo.h"
#include "path_profile.h"

using namespace hwprof::model;

namespace {

PathEntry D(uint32_t start, unsigned len, uint32_t dirs, uint32_t insns = 1, uint16_t events = 0,
            bool incomplete = false) {
  PathEntry e;
  e.start = start;
  e.length = static_cast<uint8_t>(len);
  e.dirs = dirs;
  e.insns = insns;
  e.events = events;
  e.incomplete = incomplete;
  return e;
}
Emission Em(const PathEntry& p) {
  Emission e;
  e.path = p;
  return e;
}
PathKey K(uint32_t start, unsigned len, uint32_t dirs) { return PathKey{start, static_cast<uint8_t>(len), dirs}; }

HptCtrl ctrl(HptPolicy p, HptMetric m = HptMetric::Freq, HptIndex ix = HptIndex::Plb, bool skew = true) {
  HptCtrl c;
  c.policy = p;
  c.metric = m;
  c.index = ix;
  c.skew = skew;
  return c;
}

// Four distinct paths; with Sets = 1 every key maps to set 0 of every way.
const PathEntry kA = D(0x1000, 3, 0x5);
const PathEntry kB = D(0x2000, 1, 0x1);
const PathEntry kC = D(0x3000, 2, 0x2);
const PathEntry kE = D(0x4000, 4, 0xf);

PathKey key_of(const PathEntry& p) { return K(p.start, p.length, p.dirs); }

void check_entry(const HptAlgo& h, unsigned set, unsigned way, const PathEntry& p, uint32_t acc) {
  const HptEntry& x = h.entry(set, way);
  BOOST_CHECK_MESSAGE(x.valid && x.key == key_of(p) && x.acc == acc,
                      "entry (" << set << "," << way << "): valid " << x.valid << " start " << std::hex
                                << x.key.start << " len " << std::dec << unsigned(x.key.length) << " dirs "
                                << std::hex << x.key.dirs << " acc " << std::dec << x.acc << "; expected start "
                                << std::hex << p.start << " acc " << std::dec << acc);
}

void check_result(const HptResult& r, HptOutcome o, unsigned set, unsigned way) {
  BOOST_CHECK_EQUAL(unsigned(r.outcome), unsigned(o));
  BOOST_CHECK_EQUAL(r.set, set);
  BOOST_CHECK_EQUAL(r.way, way);
}

void check_stats(const HptAlgo& h, uint64_t descs, uint64_t hits, uint64_t fills, uint64_t repl, uint64_t rej,
                 uint64_t sat, uint64_t ign) {
  const HptStats& s = h.stats();
  BOOST_CHECK_EQUAL(s.descs, descs);
  BOOST_CHECK_EQUAL(s.hits, hits);
  BOOST_CHECK_EQUAL(s.fills, fills);
  BOOST_CHECK_EQUAL(s.replacements, repl);
  BOOST_CHECK_EQUAL(s.rejects, rej);
  BOOST_CHECK_EQUAL(s.saturations, sat);
  BOOST_CHECK_EQUAL(s.ignored, ign);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hpt_algo)

// ------------------------------------------------------------------ index

// Key P = {start 0x1000, length 3, dirs 0x5}. The folded vector v has
//   start[31:2] = 0x400 -> bit 10;  length 3 -> bits 30, 31;  dirs 0b101 -> bits 36, 38.
// Sets = 128 (b = 7): chunks are bits 0-6, 7-13, ..., 63-69:
//   c1 = bit 10 at position 3 = 0x08; c4 (28-34) = bits 30,31 at 2,3 = 0x0c;
//   c5 (35-41) = bits 36,38 at 1,3 = 0x0a.
//   plb, plain fold: 0x08 ^ 0x0c ^ 0x0a = 0x0e = 14.   pb (no length): 0x08 ^ 0x0a = 0x02.
//   skew, way w rotates chunk c by w*c mod 7:
//     way 1: c1 r1 -> pos 4 = 0x10; c4 r4 -> pos 6,0 = 0x41; c5 r5 -> pos 6,1 = 0x42 -> 0x13 = 19
//     way 2: c1 r2 -> pos 5 = 0x20; c4 r8=1 -> pos 3,4 = 0x18; c5 r10=3 -> pos 4,6 = 0x50 -> 0x68 = 104
//     way 3: c1 r3 -> pos 6 = 0x40; c4 r12=5 -> pos 0,1 = 0x03; c5 r15=1 -> pos 2,4 = 0x14 -> 0x57 = 87
//     pb, way 1: 0x10 ^ 0x42 = 0x52 = 82; way 2: 0x20 ^ 0x50 = 0x70 = 112; way 3: 0x40 ^ 0x14 = 0x54 = 84
// Sets = 2048 (b = 11): chunks 0-10, 11-21, 22-32, 33-43, ...:
//   c0 = bit 10 at 10 = 0x400; c2 = bits 30,31 at 8,9 = 0x300; c3 = bits 36,38 at 3,5 = 0x028.
//   plain: 0x400 ^ 0x300 ^ 0x028 = 0x728 = 1832; pb: 0x428 = 1064.
//   way 1: c2 r2 -> pos 10,0 = 0x401; c3 r3 -> pos 6,8 = 0x140 -> 0x400^0x401^0x140 = 0x141 = 321
//   way 2: c2 r4 -> pos 1,2 = 0x006; c3 r6 -> pos 9,0 = 0x201 -> 0x607 = 1543
//   way 3: c2 r6 -> pos 3,4 = 0x018; c3 r9 -> pos 1,3 = 0x00a -> 0x412 = 1042
BOOST_AUTO_TEST_CASE(IndexFoldsAsDocumentedForAShortPath) {
  const PathKey p = K(0x1000, 3, 0x5);
  for (unsigned w = 0; w < 4; ++w) {
    for (HptIndex ix : {HptIndex::Plb, HptIndex::Pb})
      for (bool skew : {false, true}) BOOST_CHECK_EQUAL(HptAlgo::index(p, ix, skew, 0, w), 0u);  // Sets = 1
    BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Plb, false, 7, w), 14u);
    BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Pb, false, 7, w), 2u);
    BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Plb, false, 11, w), 1832u);
    BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Pb, false, 11, w), 1064u);
  }
  const unsigned plb128[4] = {14, 19, 104, 87}, pb128[4] = {2, 82, 112, 84};
  const unsigned plb2048[4] = {1832, 321, 1543, 1042};
  for (unsigned w = 0; w < 4; ++w) {
    BOOST_TEST_CONTEXT("way " << w) {
      BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Plb, true, 7, w), plb128[w]);
      BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Pb, true, 7, w), pb128[w]);
      BOOST_CHECK_EQUAL(HptAlgo::index(p, HptIndex::Plb, true, 11, w), plb2048[w]);
    }
  }
  // start[1:0] is not part of v.
  BOOST_CHECK_EQUAL(HptAlgo::index(K(0x1003, 3, 0x5), HptIndex::Plb, true, 7, 2), 104u);
}

// Key Q = {start 0, length 32, dirs 0x80000001}: length 32 = 0b100000 -> bit 35;
// dirs bit 0 -> bit 36, dirs bit 31 -> bit 67 (the top bit of v).
// Sets = 128: c5 (35-41) = bits 35,36 at 0,1 = 0x03; c9 (63-69, zero-extended) = bit 67 at 4 = 0x10.
//   plain 0x13 = 19; pb: c5 = 0x02 -> 0x12 = 18.
//   way 1: c5 r5 -> pos 5,6 = 0x60; c9 r9=2 -> pos 6 = 0x40 -> 0x20 = 32
//   way 2: c5 r10=3 -> pos 3,4 = 0x18; c9 r18=4 -> pos 8=1 = 0x02 -> 0x1a = 26
//   way 3: c5 r15=1 -> pos 1,2 = 0x06; c9 r27=6 -> pos 10=3 = 0x08 -> 0x0e = 14
// Sets = 2048: c3 (33-43) = bits 35,36 at 2,3 = 0x00c; c6 (66-76) = bit 67 at 1 = 0x002.
//   plain 0x00e = 14; pb: 0x008 ^ 0x002 = 10.
//   way 1: c3 r3 -> pos 5,6 = 0x060; c6 r6 -> pos 7 = 0x080 -> 0x0e0 = 224
//   way 2: c3 r6 -> pos 8,9 = 0x300; c6 r12=1 -> pos 2 = 0x004 -> 0x304 = 772
//   way 3: c3 r9 -> pos 11=0,12=1 = 0x003; c6 r18=7 -> pos 8 = 0x100 -> 0x103 = 259
BOOST_AUTO_TEST_CASE(IndexFoldsTheTopBitsOfALongPath) {
  const PathKey q = K(0, 32, 0x80000001u);
  const unsigned plb128[4] = {19, 32, 26, 14}, plb2048[4] = {14, 224, 772, 259};
  for (unsigned w = 0; w < 4; ++w) {
    BOOST_TEST_CONTEXT("way " << w) {
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Plb, false, 7, w), 19u);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Pb, false, 7, w), 18u);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Plb, false, 11, w), 14u);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Pb, false, 11, w), 10u);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Plb, true, 7, w), plb128[w]);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Plb, true, 11, w), plb2048[w]);
      BOOST_CHECK_EQUAL(HptAlgo::index(q, HptIndex::Plb, true, 0, w), 0u);
    }
  }
}

// The definition of docs/hpt.md bit by bit (68 bits of v, chunk c, rotate by
// w*c mod b, XOR) on random keys for every Sets and many ways: checks the
// model's grouped evaluation (fold_groups, index_of_groups) against it.
unsigned index_by_definition(const PathKey& k, bool pb, bool skew, unsigned b, unsigned way) {
  if (b == 0) return 0;
  bool v[68] = {};
  for (unsigned i = 0; i < 30; ++i) v[i] = k.start >> (i + 2) & 1;
  for (unsigned i = 0; i < 6; ++i) v[30 + i] = !pb && (k.length >> i & 1);
  for (unsigned i = 0; i < 32; ++i) v[36 + i] = k.dirs >> i & 1;
  unsigned idx = 0;
  for (unsigned c = 0; c * b < 68; ++c) {
    unsigned chunk = 0;
    for (unsigned i = 0; i < b && c * b + i < 68; ++i) chunk |= unsigned(v[c * b + i]) << i;
    const unsigned r = (skew ? way * c : 0) % b;
    unsigned rot = 0;
    for (unsigned i = 0; i < b; ++i) rot |= (chunk >> i & 1u) << ((i + r) % b);
    idx ^= rot;
  }
  return idx;
}

BOOST_AUTO_TEST_CASE(IndexMatchesTheChunkDefinitionOnRandomKeys) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  auto rnd = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int n = 0; n < 300; ++n) {
    const PathKey k = K(static_cast<uint32_t>(rnd()), unsigned(rnd() % 33), static_cast<uint32_t>(rnd()));
    for (unsigned b = 0; b <= 16; ++b)
      for (unsigned w : {0u, 1u, 2u, 3u, 5u, 7u, 16u, 31u, 33u, 4095u})
        for (bool pb : {false, true})
          for (bool skew : {false, true}) {
            const unsigned got = HptAlgo::index(k, pb ? HptIndex::Pb : HptIndex::Plb, skew, b, w);
            const unsigned want = index_by_definition(k, pb, skew, b, w);
            if (got != want)
              BOOST_FAIL("key " << std::hex << k.start << "/" << std::dec << unsigned(k.length) << "/" << std::hex
                                << k.dirs << std::dec << " b " << b << " way " << w << " pb " << pb << " skew "
                                << skew << ": " << got << " != " << want);
          }
  }
  // insert() folds once for all ways: every entry it writes or hits is at
  // index() of its way, with and without skew.
  for (bool skew : {false, true}) {
    HptAlgo h(16, 8);
    const HptCtrl c = ctrl(HptPolicy::Lfu, HptMetric::Freq, HptIndex::Plb, skew);
    for (int n = 0; n < 400; ++n) {
      const PathEntry p = D(static_cast<uint32_t>(rnd() % 64) * 4, unsigned(rnd() % 4), 0);
      const HptResult r = h.insert(Em(p), c);
      BOOST_REQUIRE_EQUAL(r.set, HptAlgo::index(key_of(p), HptIndex::Plb, skew, 4, r.way));
      BOOST_REQUIRE(h.entry(r.set, r.way).key == key_of(p));
    }
  }
}

BOOST_AUTO_TEST_CASE(InsertUsesEachWaysOwnIndex) {
  // 128 x 4, skewed: P = {0x1000, 3, 0x5} fills way 0 at set 14 (plb, way 0
  // = plain fold); after it, an identical key hits there.
  HptAlgo h(128, 4);
  const HptCtrl c = ctrl(HptPolicy::Lfu);
  check_result(h.insert(Em(kA), c), HptOutcome::Fill, 14, 0);
  check_result(h.insert(Em(kA), c), HptOutcome::Hit, 14, 0);
  check_entry(h, 14, 0, kA, 2);
  BOOST_CHECK_EQUAL(h.contents().size(), 1u);
}

BOOST_AUTO_TEST_CASE(RejectsIllegalGeometry) {
  BOOST_CHECK_THROW(HptAlgo(0, 4), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(96, 4), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(1u << 17, 4), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(128, 0), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(128, 4097), std::invalid_argument);
  BOOST_CHECK_EQUAL(HptAlgo(2048, 1).set_bits(), 11u);
  BOOST_CHECK_EQUAL(HptAlgo(1, 32).set_bits(), 0u);
}

// ------------------------------------------------------- insert, replace

BOOST_AUTO_TEST_CASE(FillsTheLowestInvalidWayThenHits) {
  HptAlgo h(1, 4);
  const HptCtrl c = ctrl(HptPolicy::Lfu);
  check_result(h.insert(Em(kA), c), HptOutcome::Fill, 0, 0);
  check_result(h.insert(Em(kB), c), HptOutcome::Fill, 0, 1);
  check_result(h.insert(Em(kA), c), HptOutcome::Hit, 0, 0);
  check_result(h.insert(Em(kC), c), HptOutcome::Fill, 0, 2);
  check_result(h.insert(Em(kB), c), HptOutcome::Hit, 0, 1);
  check_result(h.insert(Em(kB), c), HptOutcome::Hit, 0, 1);
  check_entry(h, 0, 0, kA, 2);
  check_entry(h, 0, 1, kB, 3);
  check_entry(h, 0, 2, kC, 1);
  BOOST_CHECK(!h.entry(0, 3).valid);
  check_stats(h, 6, 3, 3, 0, 0, 0, 0);
  // The dump order is set-major, then way.
  const auto v = h.contents();
  BOOST_REQUIRE_EQUAL(v.size(), 3u);
  BOOST_CHECK(v[0].key == key_of(kA) && v[1].key == key_of(kB) && v[2].key == key_of(kC));
}

BOOST_AUTO_TEST_CASE(LfuEvictsTheMinimumWithTiesToTheLowestWay) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Lfu);
  h.insert(Em(kA), c);  // way 0 {A,1}
  h.insert(Em(kB), c);  // way 1 {B,1}
  // Full, tie 1 = 1 -> lowest way; lfu: the newcomer starts at its metric.
  check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 0);
  check_entry(h, 0, 0, kC, 1);
  h.insert(Em(kC), c);  // {C,2}
  // Minimum is way 1 {B,1}.
  check_result(h.insert(Em(kE), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 0, kC, 2);
  check_entry(h, 0, 1, kE, 1);
  check_stats(h, 5, 1, 2, 2, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(LfuCountsTheMetricOfTheReplacingDescriptor) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Lfu, HptMetric::Insns);
  h.insert(Em(D(0x1000, 3, 0x5, 10)), c);  // {A,10}
  h.insert(Em(D(0x2000, 1, 0x1, 4)), c);   // {B,4}
  check_result(h.insert(Em(D(0x3000, 2, 0x2, 7)), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kC, 7);
  const HptCtrl ce = ctrl(HptPolicy::Lfu, HptMetric::Events);
  check_result(h.insert(Em(D(0x3000, 2, 0x2, 99, 5)), ce), HptOutcome::Hit, 0, 1);
  check_entry(h, 0, 1, kC, 12);
}

BOOST_AUTO_TEST_CASE(SpaceSavingInheritsTheVictimsCount) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Ss);
  h.insert(Em(kA), c);
  h.insert(Em(kA), c);  // {A,2}
  h.insert(Em(kB), c);  // {B,1}
  check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 1);  // victim B (1): C = 1 + 1
  check_entry(h, 0, 1, kC, 2);
  check_result(h.insert(Em(kE), c), HptOutcome::Replace, 0, 0);  // tie 2 = 2 -> way 0: E = 2 + 1
  check_entry(h, 0, 0, kE, 3);
  check_entry(h, 0, 1, kC, 2);
  check_stats(h, 5, 1, 2, 2, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(ErodeWearsTheVictimDownThenReplacesIt) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Erode);
  for (int i = 0; i < 3; ++i) h.insert(Em(kA), c);  // {A,3}
  h.insert(Em(kB), c);
  h.insert(Em(kB), c);  // {B,2}
  // Victim B (2 > 1): B loses 1, C is not entered.
  check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 1);
  check_entry(h, 0, 1, kB, 1);
  // Victim B (1, not > 1): replaced by {C, 1} (not 1 + 1: erode does not inherit).
  check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kC, 1);
  check_entry(h, 0, 0, kA, 3);
  // Victim C (1): replaced by E at once.
  check_result(h.insert(Em(kE), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kE, 1);
  check_stats(h, 8, 3, 2, 2, 1, 0, 0);
  BOOST_CHECK_EQUAL(h.stats().hits + h.stats().fills + h.stats().replacements + h.stats().rejects,
                    h.stats().descs);
}

BOOST_AUTO_TEST_CASE(ErodeWithTheInstructionMetric) {
  HptAlgo h(1, 1);
  const HptCtrl c = ctrl(HptPolicy::Erode, HptMetric::Insns);
  h.insert(Em(D(0x1000, 3, 0x5, 12)), c);                                         // {A,12}
  check_result(h.insert(Em(D(0x2000, 1, 0x1, 5)), c), HptOutcome::Reject, 0, 0);  // 12 > 5: A = 7
  check_entry(h, 0, 0, kA, 7);
  check_result(h.insert(Em(D(0x2000, 1, 0x1, 5)), c), HptOutcome::Reject, 0, 0);  // 7 > 5: A = 2
  check_entry(h, 0, 0, kA, 2);
  check_result(h.insert(Em(D(0x2000, 1, 0x1, 5)), c), HptOutcome::Replace, 0, 0);  // 2 <= 5: {B,5}
  check_entry(h, 0, 0, kB, 5);
  // Equal: 5 is not > 5, so the newcomer enters.
  check_result(h.insert(Em(D(0x3000, 2, 0x2, 5)), c), HptOutcome::Replace, 0, 0);
  check_entry(h, 0, 0, kC, 5);
}

BOOST_AUTO_TEST_CASE(SaturatesTheAccumulatorAndCountsIt) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Lfu, HptMetric::Insns);
  const uint32_t big = 0xffffff;  // the largest 24-bit instruction count
  // 256 * 0xffffff = 0xffffff00 fits; the 257th add clips at 0xffffffff.
  for (int i = 0; i < 256; ++i) BOOST_REQUIRE(!h.insert(Em(D(0x1000, 3, 0x5, big)), c).saturated);
  check_entry(h, 0, 0, kA, 0xffffff00u);
  BOOST_CHECK(h.insert(Em(D(0x1000, 3, 0x5, big)), c).saturated);
  check_entry(h, 0, 0, kA, 0xffffffffu);
  BOOST_CHECK(h.insert(Em(D(0x1000, 3, 0x5, 1)), c).saturated);
  check_entry(h, 0, 0, kA, 0xffffffffu);
  // Space-Saving's inherited add clips too: way 1 {B,1}, then C inherits
  // B's 1 (the minimum), not A's count.
  const HptCtrl s = ctrl(HptPolicy::Ss, HptMetric::Insns);
  h.insert(Em(D(0x2000, 1, 0x1, 1)), s);
  check_result(h.insert(Em(D(0x3000, 2, 0x2, 3)), s), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kC, 4);
  check_stats(h, 260, 257, 2, 1, 0, 2, 0);
  // Saturated inheritance: a one-way table holding 0xffffffff.
  HptAlgo one(1, 1);
  one.insert(Em(D(0x1000, 3, 0x5, big)), s);
  for (int i = 0; i < 256; ++i) one.insert(Em(D(0x1000, 3, 0x5, big)), s);
  BOOST_CHECK(one.insert(Em(D(0x2000, 1, 0x1, 2)), s).saturated);
  check_entry(one, 0, 0, kB, 0xffffffffu);
}

BOOST_AUTO_TEST_CASE(IgnoresIncompleteDescriptors) {
  HptAlgo h(1, 1);
  const HptCtrl c = ctrl(HptPolicy::Lfu);
  const HptResult r = h.insert(Em(D(0x1000, 3, 0x5, 1, 0, true)), c);
  BOOST_CHECK_EQUAL(unsigned(r.outcome), unsigned(HptOutcome::Ignored));
  BOOST_CHECK(!h.entry(0, 0).valid);
  check_stats(h, 0, 0, 0, 0, 0, 0, 1);
  h.insert(Em(kA), c);
  h.insert(Em(D(0x1000, 3, 0x5, 1, 0, true)), c);  // same key, still ignored
  check_entry(h, 0, 0, kA, 1);
  check_stats(h, 1, 0, 1, 0, 0, 0, 2);
}

BOOST_AUTO_TEST_CASE(ClearKeepsStatisticsClearStatsKeepsEntries) {
  HptAlgo h(1, 2);
  const HptCtrl c = ctrl(HptPolicy::Lfu);
  h.insert(Em(kA), c);
  h.insert(Em(kA), c);
  h.clear();
  BOOST_CHECK(h.contents().empty());
  check_stats(h, 2, 1, 1, 0, 0, 0, 0);
  check_result(h.insert(Em(kB), c), HptOutcome::Fill, 0, 0);  // way 0 is invalid again
  h.clear_stats();
  check_stats(h, 0, 0, 0, 0, 0, 0, 0);
  check_entry(h, 0, 0, kB, 1);
  h.reset();
  BOOST_CHECK(h.contents().empty());
}

// ------------------------------------------------------------------- CTRL

BOOST_AUTO_TEST_CASE(CtrlPacksAsTheRegister) {
  BOOST_CHECK_EQUAL(HptCtrl::reset_value(), 0x22u);  // plb, skew, freq, erode
  const HptCtrl d = HptCtrl::unpack(0x22);
  BOOST_CHECK(d.index == HptIndex::Plb && d.skew && d.metric == HptMetric::Freq && d.policy == HptPolicy::Erode);
  // bit 0 index, bit 1 skew, bits 3:2 metric, bits 5:4 policy.
  BOOST_CHECK_EQUAL(ctrl(HptPolicy::Ss, HptMetric::Insns, HptIndex::Pb, false).pack(), 0x19u);
  BOOST_CHECK_EQUAL(ctrl(HptPolicy::Lfu, HptMetric::Events, HptIndex::Plb, true).pack(), 0x06u);
  for (unsigned ix = 0; ix < 2; ++ix)
    for (unsigned sk = 0; sk < 2; ++sk)
      for (unsigned m = 0; m < 3; ++m)
        for (unsigned p = 0; p < 3; ++p) {
          const uint32_t v = ix | sk << 1 | m << 2 | p << 4;
          BOOST_CHECK(HptCtrl::legal(v));
          BOOST_CHECK_EQUAL(HptCtrl::unpack(v).pack(), v);
        }
  BOOST_CHECK(!HptCtrl::legal(0x0c));  // metric 3
  BOOST_CHECK(!HptCtrl::legal(0x30));  // policy 3
  BOOST_CHECK(!HptCtrl::legal(0x3f));
  BOOST_CHECK(HptCtrl::legal(0x2a));  // metric 2, policy 2
  BOOST_CHECK(HptCtrl::parse_policy("ss") == HptPolicy::Ss);
  BOOST_CHECK(HptCtrl::parse_metric("insns") == HptMetric::Insns);
  BOOST_CHECK(HptCtrl::parse_index("pb") == HptIndex::Pb);
  BOOST_CHECK_THROW(HptCtrl::parse_policy("lru"), std::invalid_argument);
}

// ---------------------------------------------------------------- overlap

BOOST_AUTO_TEST_CASE(OverlapOfAHandExample) {
  const PathKey a = K(0x100, 1, 1), b = K(0x200, 2, 0), c = K(0x300, 0, 0), d = K(0x400, 3, 7);
  // exact: A 6, B 3, C 1 (coverage 0.6, 0.3, 0.1); measured: A 4, C 4, D 2
  // (0.4, 0.4, 0.2). Overlap = min(0.6,0.4) + 0 (B missing) + min(0.1,0.4) = 0.5;
  // D is not in the exact profile and adds nothing.
  const std::vector<WeightedPath> exact = {{a, 6}, {b, 3}, {c, 1}};
  const std::vector<WeightedPath> hw = {{a, 4}, {c, 4}, {d, 2}};
  BOOST_CHECK_CLOSE(path_overlap(exact, hw), 50.0, 1e-9);
  BOOST_CHECK_CLOSE(path_overlap(exact, exact), 100.0, 1e-9);
  BOOST_CHECK_CLOSE(path_overlap(exact, {{a, 18}, {b, 9}, {c, 3}}), 100.0, 1e-9);  // coverage, not counts
  BOOST_CHECK_EQUAL(path_overlap(exact, {{d, 5}}), 0.0);
  BOOST_CHECK_EQUAL(path_overlap(exact, {}), 0.0);
  BOOST_CHECK_EQUAL(path_overlap({}, hw), 0.0);
}

BOOST_AUTO_TEST_CASE(OracleIsTheTopNShare) {
  const PathKey a = K(0x100, 1, 1), b = K(0x200, 2, 0), c = K(0x300, 0, 0), d = K(0x400, 3, 7);
  const std::vector<WeightedPath> exact = {{c, 1}, {a, 5}, {d, 1}, {b, 3}};  // total 10
  BOOST_CHECK_CLOSE(oracle_overlap(exact, 1), 50.0, 1e-9);
  BOOST_CHECK_CLOSE(oracle_overlap(exact, 2), 80.0, 1e-9);
  BOOST_CHECK_CLOSE(oracle_overlap(exact, 4), 100.0, 1e-9);
  BOOST_CHECK_CLOSE(oracle_overlap(exact, 512), 100.0, 1e-9);
  BOOST_CHECK_EQUAL(oracle_overlap(exact, 0), 0.0);
  // The same number as the overlap of a table holding A and B exactly.
  BOOST_CHECK_CLOSE(path_overlap(exact, {{a, 5}, {b, 3}}), 80.0, 1e-9);
}

BOOST_AUTO_TEST_CASE(ExactWeightsFollowTheMetric) {
  PathProfile p;
  p.add(Em(D(0x100, 1, 1, 10, 2)));
  p.add(Em(D(0x100, 1, 1, 6, 1)));
  p.add(Em(D(0x200, 2, 0, 50, 0)));
  p.add(Em(D(0x300, 2, 0, 50, 0, true)));  // incomplete: not a path
  const auto f = exact_weights(p, HptMetric::Freq);
  BOOST_REQUIRE_EQUAL(f.size(), 2u);
  BOOST_CHECK(f[0].key == K(0x100, 1, 1) && f[0].weight == 2);
  BOOST_CHECK(f[1].key == K(0x200, 2, 0) && f[1].weight == 1);
  const auto i = exact_weights(p, HptMetric::Insns);
  BOOST_CHECK(i[0].weight == 16 && i[1].weight == 50);
  const auto e = exact_weights(p, HptMetric::Events);
  BOOST_CHECK(e[0].weight == 3 && e[1].weight == 0);
  // hpt_weights lists the valid entries with their accumulators.
  HptAlgo h(1, 4);
  h.insert(Em(D(0x100, 1, 1)), ctrl(HptPolicy::Lfu));
  h.insert(Em(D(0x100, 1, 1)), ctrl(HptPolicy::Lfu));
  const auto w = hpt_weights(h);
  BOOST_REQUIRE_EQUAL(w.size(), 1u);
  BOOST_CHECK(w[0].key == K(0x100, 1, 1) && w[0].weight == 2);
  BOOST_CHECK_CLOSE(path_overlap(f, w), 100.0 * 2.0 / 3.0, 1e-9);
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------ candidate policies
// The model-only admission options of docs/hpt.md ("Candidate policies"):
// victim-count inheritance, the TinyLFU sketch and the probation area.
// Counts are worked out by hand; the hash functions are pinned on one key
// (worked out bit by bit like the index above) and elsewhere only used to
// check that the keys of an example do not collide.

BOOST_AUTO_TEST_SUITE(hpt_candidates)

HptCtrl with(HptPolicy p, HptAdmit a, bool inherit = false) {
  HptCtrl c = ctrl(p);
  c.admit = a;
  c.inherit = inherit;
  return c;
}

BOOST_AUTO_TEST_CASE(PolicyNamesParseAndTheRegisterIgnoresTheOptions) {
  HptCtrl c;
  HptCtrl::parse_policy_name("erode+tlfu", c);
  BOOST_CHECK(c.policy == HptPolicy::Erode && c.admit == HptAdmit::Sketch && !c.inherit);
  HptCtrl::parse_policy_name("lfu+prob", c);
  BOOST_CHECK(c.policy == HptPolicy::Lfu && c.admit == HptAdmit::Probation && !c.inherit);
  HptCtrl::parse_policy_name("erode+inherit", c);
  BOOST_CHECK(c.policy == HptPolicy::Erode && c.admit == HptAdmit::None && c.inherit);
  HptCtrl::parse_policy_name("ss", c);
  BOOST_CHECK(c.policy == HptPolicy::Ss && c.admit == HptAdmit::None && !c.inherit);
  for (const char* n : {"lfu", "erode+inherit", "lfu+tlfu", "erode+inherit+prob"}) {
    HptCtrl::parse_policy_name(n, c);
    BOOST_CHECK_EQUAL(c.policy_name(), n);
  }
  BOOST_CHECK_THROW(HptCtrl::parse_policy_name("erode+lru", c), std::invalid_argument);
  BOOST_CHECK_THROW(HptCtrl::parse_policy_name("mru+tlfu", c), std::invalid_argument);
  // The options are not in CTRL: the reset value and pack() do not see them.
  const HptCtrl d;
  BOOST_CHECK(d.admit == HptAdmit::None && !d.inherit);
  BOOST_CHECK_EQUAL(with(HptPolicy::Erode, HptAdmit::Probation, true).pack(), d.pack());
  const HptCtrl u = HptCtrl::unpack(0x22);
  BOOST_CHECK(u.admit == HptAdmit::None && !u.inherit);
  // Except lfu+prob (no inherit): CTRL.policy code 3, legal only in a build
  // with a probation area (hwprof_hpt ProbSets > 0).
  HptCtrl lp;
  HptCtrl::parse_policy_name("lfu+prob", lp);
  BOOST_CHECK_EQUAL(lp.pack(), 0x32u);
  const HptCtrl u3 = HptCtrl::unpack(0x32);
  BOOST_CHECK(u3.is_lfu_prob() && u3.policy == HptPolicy::Lfu && u3.admit == HptAdmit::Probation);
  BOOST_CHECK(!HptCtrl::legal(0x32));
  BOOST_CHECK(HptCtrl::legal(0x32, true));
  BOOST_CHECK(!HptCtrl::legal(0x3e, true));  // metric 3 stays illegal
}

BOOST_AUTO_TEST_CASE(StorageIsCountedInBits) {
  // 512 x 4: 512 entries of 1 + 70 + 32 bits.
  BOOST_CHECK_EQUAL(HptAlgo::storage_bits(128, 4), 52736u);
  // Sketch: 4 x 1024 counters of 4 bits and a 13-bit period counter (5120 < 2^13).
  const HptSketch sk{4, 1024, 4, 5120};
  BOOST_CHECK_EQUAL(sk.storage_bits(), 16384u + 13u);
  BOOST_CHECK_EQUAL(HptSketch{}.storage_bits(), 0u);
  // Probation: 128 x 4 entries of a 12-bit fingerprint and a 14-bit count.
  const HptProbation pr{128, 4, 12, 14};
  BOOST_CHECK_EQUAL(pr.storage_bits(), 13312u);
  BOOST_CHECK_EQUAL(HptProbation{}.storage_bits(), 0u);
  BOOST_CHECK_EQUAL(HptAlgo::storage_bits(128, 4, {}, pr), 66048u);
  BOOST_CHECK_EQUAL(HptAlgo::storage_bits(128, 4, sk, pr), 66048u + 16397u);
}

BOOST_AUTO_TEST_CASE(RejectsIllegalFilterGeometry) {
  BOOST_CHECK_THROW(HptAlgo(1, 2, HptSketch{2, 3, 4, 0}), std::invalid_argument);   // cols not a power of two
  BOOST_CHECK_THROW(HptAlgo(1, 2, HptSketch{2, 1, 4, 0}), std::invalid_argument);   // fewer than 2 cols
  BOOST_CHECK_THROW(HptAlgo(1, 2, HptSketch{2, 8, 0, 0}), std::invalid_argument);   // 0-bit counters
  BOOST_CHECK_THROW(HptAlgo(1, 2, HptSketch{17, 8, 4, 0}), std::invalid_argument);  // too many rows
  BOOST_CHECK_THROW(HptAlgo(1, 2, {}, HptProbation{3, 4, 12, 14}), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(1, 2, {}, HptProbation{4, 0, 12, 14}), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(1, 2, {}, HptProbation{4, 4, 0, 14}), std::invalid_argument);
  BOOST_CHECK_THROW(HptAlgo(1, 2, {}, HptProbation{4, 4, 12, 33}), std::invalid_argument);
  BOOST_CHECK_NO_THROW(HptAlgo(1, 2, HptSketch{1, 2, 1, 1}, HptProbation{1, 1, 1, 1}));
}

// Key P = {0x1000, 3, 0x5} (the index example above): v has bits 10, 30,
// 31, 36, 38.
// Sketch columns, 128 columns (b = 7): row r is the skewed fold of way r + 1
// (19, 104, 87 above) XOR the top 7 bits of 0x9e3779b9 * (r + 1) mod 2^32:
//   row 0: 0x9e3779b9 >> 25 = 0x4f -> 19 ^ 79 = 0b0010011 ^ 0b1001111 = 92
//   row 1: 0x3c6ef372 >> 25 = 0x1e -> 104 ^ 30 = 0b1101000 ^ 0b0011110 = 118
//   row 2: 0xdaa66d2b >> 25 = 0x6d -> 87 ^ 109 = 0b1010111 ^ 0b1101101 = 58
// Probation set, 128 sets: the skewed fold of way 5 (chunk c rotates by 5c mod 7):
//   c1 = 0x08 (bit 3) r5 -> bit 1 = 0x02; c4 = 0x0c (bits 2,3) r20=6 -> bits 1,2 = 0x06;
//   c5 = 0x0a (bits 1,3) r25=4 -> bits 5,0 = 0x21;  0x02 ^ 0x06 ^ 0x21 = 0x25 = 37
// Fingerprint, 12 bits: chunks of 12 bits, way 3 (chunk c rotates by 3c mod 12):
//   c0 = bit 10 = 0x400 r0; c2 (bits 24-35) = bits 30,31 at 6,7 = 0x0c0 r6 -> bits 0,1 = 0x003;
//   c3 (bits 36-47) = bits 36,38 at 0,2 = 0x005 r9 -> bits 9,11 = 0xa00;  0x400 ^ 0x003 ^ 0xa00 = 0xe03
BOOST_AUTO_TEST_CASE(FilterHashesAsDocumented) {
  const PathKey p = K(0x1000, 3, 0x5);
  BOOST_CHECK_EQUAL(HptAlgo::sketch_col(p, 7, 0), 92u);
  BOOST_CHECK_EQUAL(HptAlgo::sketch_col(p, 7, 1), 118u);
  BOOST_CHECK_EQUAL(HptAlgo::sketch_col(p, 7, 2), 58u);
  BOOST_CHECK_EQUAL(HptAlgo::probation_set(p, 7), 37u);
  BOOST_CHECK_EQUAL(HptAlgo::probation_set(p, 0), 0u);
  BOOST_CHECK_EQUAL(HptAlgo::fingerprint(p, 12), 0xe03u);
}

// erode + inherit: a newcomer that wears the victim out starts at the
// victim's count plus its metric.
BOOST_AUTO_TEST_CASE(ErodeInheritStartsTheNewcomerAtTheVictimsCount) {
  HptAlgo h(1, 2);
  const HptCtrl c = with(HptPolicy::Erode, HptAdmit::None, true);
  h.insert(Em(kA), c);
  h.insert(Em(kA), c);  // {A,2}
  h.insert(Em(kB), c);  // {B,1}
  // Victim B (1, not > 1): replaced, C = 1 + 1 (plain erode: 1).
  check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kC, 2);
  // Tie A 2 = C 2 -> way 0; 2 > 1: A wears to 1, E refused.
  check_result(h.insert(Em(kE), c), HptOutcome::Reject, 0, 0);
  check_entry(h, 0, 0, kA, 1);
  // Victim A (1): replaced, E = 1 + 1.
  check_result(h.insert(Em(kE), c), HptOutcome::Replace, 0, 0);
  check_entry(h, 0, 0, kE, 2);
  check_entry(h, 0, 1, kC, 2);
  check_stats(h, 6, 1, 2, 2, 1, 0, 0);
  // lfu + inherit is ss.
  HptAlgo l(1, 2), s(1, 2);
  for (const PathEntry& p : {kA, kA, kB, kC, kE, kC, kB, kA}) {
    l.insert(Em(p), with(HptPolicy::Lfu, HptAdmit::None, true));
    s.insert(Em(p), ctrl(HptPolicy::Ss));
  }
  BOOST_CHECK(l.contents() == s.contents());
}

// The keys of the examples must not share a column of a sketch with
// 2^col_bits columns.
void require_distinct_columns(const std::vector<PathEntry>& keys, unsigned rows, unsigned col_bits) {
  for (unsigned r = 0; r < rows; ++r)
    for (size_t i = 0; i < keys.size(); ++i)
      for (size_t j = i + 1; j < keys.size(); ++j)
        BOOST_REQUIRE_NE(HptAlgo::sketch_col(key_of(keys[i]), col_bits, r),
                         HptAlgo::sketch_col(key_of(keys[j]), col_bits, r));
}

BOOST_AUTO_TEST_CASE(SketchCountsConservativelySaturatesAndHalves) {
  require_distinct_columns({kA, kB, kC, kE}, 2, 10);
  // 2-bit counters (saturate at 3), halved after every 5 increments.
  HptAlgo h(1, 4, HptSketch{2, 1024, 2, 5});
  const HptCtrl c = with(HptPolicy::Lfu, HptAdmit::Sketch);
  h.insert(Em(kA), c);
  h.insert(Em(kA), c);
  h.insert(Em(kB), c);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kA)), 2u);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kB)), 1u);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kC)), 0u);
  BOOST_CHECK_EQUAL(h.sketch_increments(), 3u);
  h.insert(Em(kA), c);  // A at 3, the maximum
  BOOST_CHECK_EQUAL(h.estimate(key_of(kA)), 3u);
  h.insert(Em(kA), c);  // stays 3; the 5th increment halves every counter: A 1, B 0
  BOOST_CHECK_EQUAL(h.sketch_increments(), 0u);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kA)), 1u);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kB)), 0u);
  // Incomplete descriptors are not counted.
  h.insert(Em(D(0x3000, 2, 0x2, 1, 0, true)), c);
  BOOST_CHECK_EQUAL(h.estimate(key_of(kC)), 0u);
  BOOST_CHECK_EQUAL(h.sketch_increments(), 0u);
  // clear() empties the sketch.
  h.insert(Em(kA), c);
  h.clear();
  BOOST_CHECK_EQUAL(h.estimate(key_of(kA)), 0u);
  BOOST_CHECK_EQUAL(h.sketch_increments(), 0u);
}

BOOST_AUTO_TEST_CASE(SketchConservativeUpdateLeavesTheHigherCounter) {
  // Find a key Y sharing A's row-0 column but not its row-1 column.
  const PathKey a = key_of(kA);
  PathEntry y{};
  bool found = false;
  for (uint32_t i = 1; i < 4096 && !found; ++i) {
    y = D(0x8000 + 4 * i, 1, 0);
    found = HptAlgo::sketch_col(key_of(y), 7, 0) == HptAlgo::sketch_col(a, 7, 0) &&
            HptAlgo::sketch_col(key_of(y), 7, 1) != HptAlgo::sketch_col(a, 7, 1);
  }
  BOOST_REQUIRE(found);
  HptAlgo h(1, 4, HptSketch{2, 128, 4, 0});
  const HptCtrl c = with(HptPolicy::Lfu, HptAdmit::Sketch);
  for (int i = 0; i < 3; ++i) h.insert(Em(kA), c);  // A's counters: 3, 3
  h.insert(Em(y), c);  // Y's counters 3 (shared), 0: only the minimum goes up -> 3, 1
  BOOST_CHECK_EQUAL(h.estimate(key_of(y)), 1u);
  BOOST_CHECK_EQUAL(h.estimate(a), 3u);
  BOOST_CHECK_EQUAL(h.sketch_counter(0, HptAlgo::sketch_col(a, 7, 0)), 3u);
  BOOST_CHECK_EQUAL(h.sketch_counter(1, HptAlgo::sketch_col(key_of(y), 7, 1)), 1u);
}

BOOST_AUTO_TEST_CASE(TinyLfuAdmitsOnlyANewcomerWhoseEstimateBeatsTheVictims) {
  require_distinct_columns({kA, kB, kC, kE}, 2, 10);
  {
    // lfu + tlfu, never halved.
    HptAlgo h(1, 2, HptSketch{2, 1024, 4, 0});
    const HptCtrl c = with(HptPolicy::Lfu, HptAdmit::Sketch);
    h.insert(Em(kA), c);
    h.insert(Em(kA), c);  // {A,2}, estimate 2
    h.insert(Em(kB), c);  // {B,1}, estimate 1
    // C: estimate 1 (this one counted), victim B estimate 1: not above -> refused, B untouched.
    check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 1);
    check_entry(h, 0, 1, kB, 1);
    // C again: estimate 2 > 1 -> lfu replaces B with {C, 1}.
    check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 1);
    check_entry(h, 0, 1, kC, 1);
    check_entry(h, 0, 0, kA, 2);
    check_stats(h, 5, 1, 2, 1, 1, 0, 0);
  }
  {
    // erode + tlfu: the filter first (a refused newcomer does not wear the
    // victim), then erode's own rule.
    HptAlgo h(1, 2, HptSketch{2, 1024, 4, 0});
    const HptCtrl c = with(HptPolicy::Erode, HptAdmit::Sketch);
    h.insert(Em(kA), c);
    h.insert(Em(kA), c);  // {A,2}, estimate 2
    for (int i = 0; i < 3; ++i) h.insert(Em(kB), c);  // {B,3}, estimate 3
    check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 0);  // 1 vs A's 2: refused
    check_entry(h, 0, 0, kA, 2);
    check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 0);  // 2 vs 2: refused
    check_entry(h, 0, 0, kA, 2);
    check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 0);  // 3 > 2: admitted, A (2 > 1) wears to 1
    check_entry(h, 0, 0, kA, 1);
    check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 0);  // 4 > 2, A (1) worn out: {C,1}
    check_entry(h, 0, 0, kC, 1);
    check_entry(h, 0, 1, kB, 3);
    check_stats(h, 9, 3, 2, 1, 3, 0, 0);
  }
}

BOOST_AUTO_TEST_CASE(AdmissionOptionsWithoutTheirStorageAreThePlainPolicy) {
  HptAlgo plain(1, 2), t(1, 2), p(1, 2);
  for (HptPolicy pol : {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode}) {
    plain.reset();
    t.reset();
    p.reset();
    for (const PathEntry& e : {kA, kA, kB, kC, kE, kC, kB, kA, kE, kE, kC}) {
      const HptResult a = plain.insert(Em(e), ctrl(pol));
      const HptResult b = t.insert(Em(e), with(pol, HptAdmit::Sketch));
      const HptResult d = p.insert(Em(e), with(pol, HptAdmit::Probation));
      BOOST_CHECK(a.outcome == b.outcome && a.outcome == d.outcome);
    }
    BOOST_CHECK(plain.contents() == t.contents());
    BOOST_CHECK(plain.contents() == p.contents());
  }
}

// One probation set: the keys of the examples must have distinct fingerprints.
void require_distinct_fingerprints(const std::vector<PathEntry>& keys, unsigned bits) {
  for (size_t i = 0; i < keys.size(); ++i)
    for (size_t j = i + 1; j < keys.size(); ++j)
      BOOST_REQUIRE_NE(HptAlgo::fingerprint(key_of(keys[i]), bits), HptAlgo::fingerprint(key_of(keys[j]), bits));
}

const PathEntry kG = D(0x5000, 5, 0x11);
const PathEntry kH = D(0x6000, 6, 0x21);

BOOST_AUTO_TEST_CASE(ProbationCountsNewcomersAndAdmitsOnceTheyBeatTheVictim) {
  require_distinct_fingerprints({kA, kB, kC, kE, kG, kH}, 12);
  HptAlgo h(1, 2, {}, HptProbation{1, 2, 12, 4});
  const HptCtrl c = with(HptPolicy::Lfu, HptAdmit::Probation);
  for (int i = 0; i < 3; ++i) h.insert(Em(kA), c);  // {A,3}
  h.insert(Em(kB), c);
  h.insert(Em(kB), c);  // {B,2}: the victim of every newcomer below
  // C: no probation entry; the lowest empty way 0 takes it at 1; 1 > 2? no.
  check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 1);
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 1u);
  BOOST_CHECK_EQUAL(h.probation_fp(0, 0), HptAlgo::fingerprint(key_of(kC), 12));
  check_entry(h, 0, 1, kB, 2);  // lfu: the refused newcomer leaves the victim alone
  // E: way 1 (empty, count 0) is the minimum: {E,1}.
  check_result(h.insert(Em(kE), c), HptOutcome::Reject, 0, 1);
  BOOST_CHECK_EQUAL(h.probation_count(0, 1), 1u);
  // C again: 2, not above B's 2.
  check_result(h.insert(Em(kC), c), HptOutcome::Reject, 0, 1);
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 2u);
  // C a third time: 3 > 2: replaces B starting at 3; its probation entry empties.
  check_result(h.insert(Em(kC), c), HptOutcome::Replace, 0, 1);
  check_entry(h, 0, 1, kC, 3);
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 0u);
  BOOST_CHECK_EQUAL(h.probation_count(0, 1), 1u);
  // A hit does not touch the probation area.
  check_result(h.insert(Em(kC), c), HptOutcome::Hit, 0, 1);
  check_entry(h, 0, 1, kC, 4);
  // G takes the empty way 0 at 1; victim A (3 < C's 4).
  check_result(h.insert(Em(kG), c), HptOutcome::Reject, 0, 0);
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 1u);
  // H: no entry, minimum tie G 1 = E 1 -> way 0; Space-Saving: H = 1 + 1.
  check_result(h.insert(Em(kH), c), HptOutcome::Reject, 0, 0);
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 2u);
  BOOST_CHECK_EQUAL(h.probation_fp(0, 0), HptAlgo::fingerprint(key_of(kH), 12));
  check_entry(h, 0, 0, kA, 3);
  check_stats(h, 12, 4, 2, 1, 5, 0, 0);
  // clear() empties the probation area.
  h.clear();
  BOOST_CHECK_EQUAL(h.probation_count(0, 0), 0u);
  BOOST_CHECK_EQUAL(h.probation_count(0, 1), 0u);
}

BOOST_AUTO_TEST_CASE(ProbationUnderErodeAndSsAndItsCountSaturates) {
  require_distinct_fingerprints({kA, kB}, 12);
  {
    // erode + prob: a refused newcomer still wears the victim.
    HptAlgo h(1, 1, {}, HptProbation{1, 1, 12, 8});
    const HptCtrl c = with(HptPolicy::Erode, HptAdmit::Probation);
    for (int i = 0; i < 3; ++i) h.insert(Em(kA), c);  // {A,3}
    check_result(h.insert(Em(kB), c), HptOutcome::Reject, 0, 0);  // 1 vs 3: A wears to 2
    check_entry(h, 0, 0, kA, 2);
    check_result(h.insert(Em(kB), c), HptOutcome::Reject, 0, 0);  // 2 vs 2: A wears to 1
    check_entry(h, 0, 0, kA, 1);
    check_result(h.insert(Em(kB), c), HptOutcome::Replace, 0, 0);  // 3 > 1: {B,3}
    check_entry(h, 0, 0, kB, 3);
    BOOST_CHECK_EQUAL(h.probation_count(0, 0), 0u);
  }
  {
    // ss + prob: the admitted newcomer starts at its count plus the victim's.
    HptAlgo h(1, 1, {}, HptProbation{1, 1, 12, 8});
    const HptCtrl c = with(HptPolicy::Ss, HptAdmit::Probation);
    for (int i = 0; i < 3; ++i) h.insert(Em(kA), c);  // {A,3}
    for (int i = 0; i < 3; ++i) check_result(h.insert(Em(kB), c), HptOutcome::Reject, 0, 0);  // 1, 2, 3
    check_entry(h, 0, 0, kA, 3);
    check_result(h.insert(Em(kB), c), HptOutcome::Replace, 0, 0);  // 4 > 3: 4 + 3
    check_entry(h, 0, 0, kB, 7);
  }
  {
    // A 2-bit count stops at 3 and never beats a victim of 5.
    HptAlgo h(1, 1, {}, HptProbation{1, 1, 12, 2});
    const HptCtrl c = with(HptPolicy::Lfu, HptAdmit::Probation);
    for (int i = 0; i < 5; ++i) h.insert(Em(kA), c);  // {A,5}
    for (int i = 0; i < 6; ++i) check_result(h.insert(Em(kB), c), HptOutcome::Reject, 0, 0);
    BOOST_CHECK_EQUAL(h.probation_count(0, 0), 3u);
    check_entry(h, 0, 0, kA, 5);
  }
  {
    // Instruction metric: the count adds the metric; the newcomer starts at it.
    HptAlgo h(1, 1, {}, HptProbation{1, 1, 12, 16});
    const HptCtrl c = [] {
      HptCtrl x = with(HptPolicy::Lfu, HptAdmit::Probation);
      x.metric = HptMetric::Insns;
      return x;
    }();
    h.insert(Em(D(0x1000, 3, 0x5, 10)), c);                                         // {A,10}
    check_result(h.insert(Em(D(0x2000, 1, 0x1, 6)), c), HptOutcome::Reject, 0, 0);   // 6 vs 10
    check_result(h.insert(Em(D(0x2000, 1, 0x1, 6)), c), HptOutcome::Replace, 0, 0);  // 12 > 10
    check_entry(h, 0, 0, kB, 12);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// ===================================================== cycle model (Hpt)

namespace {

struct HptRig {
  Hpt h;
  uint64_t cycle = 0;
  explicit HptRig(unsigned sets, unsigned ways) : h(sets, ways) { h.reset(); }
  Hpt::Out step(const Hpt::In& in = {}) {
    ++cycle;
    return h.step(in);
  }
  Hpt::Out desc(const PathEntry& d) {
    Hpt::In in;
    in.in_valid = true;
    in.in_desc = d;
    return step(in);
  }
  Hpt::Out write(HptCsr a, uint32_t v) {
    Hpt::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    return step(in);
  }
  uint32_t read(HptCsr a) {
    Hpt::In in;
    in.csr_addr = unsigned(a);
    return step(in).csr_rdata;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(hpt_cycle_model)

BOOST_AUTO_TEST_CASE(ResetsToTheDocumentedRegisters) {
  HptRig r(128, 4);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ctrl), 0x22u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 0u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Cmd), 0u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Params), 7u | 4u << 16);
  for (unsigned a = unsigned(HptCsr::Descs); a <= unsigned(HptCsr::StallCycles); ++a)
    BOOST_CHECK_EQUAL(r.read(static_cast<HptCsr>(a)), 0u);
  HptRig f(2048, 1);
  BOOST_CHECK_EQUAL(f.read(HptCsr::Params), 11u | 1u << 16);
}

BOOST_AUTO_TEST_CASE(TakesOneDescriptorPerClockIncludingTheSameEntry) {
  HptRig r(1, 2);
  r.write(HptCsr::Ctrl, ctrl(HptPolicy::Lfu).pack());
  // 10 back-to-back descriptors: A x6 (same entry every clock), B x4.
  for (int i = 0; i < 10; ++i) {
    const Hpt::Out o = r.desc(i < 6 ? kA : kB);
    BOOST_CHECK(o.in_ready);
    BOOST_CHECK(!o.dump_busy);
  }
  // The last one commits from S3, its outcome is counted one edge later.
  for (unsigned i = 0; i < Hpt::kStatsLatency; ++i) r.step();
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 10u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Hits), 8u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Fills), 2u);
  check_entry(r.h.algo(), 0, 0, kA, 6);
  check_entry(r.h.algo(), 0, 1, kB, 4);
}

BOOST_AUTO_TEST_CASE(StatisticsShowADescriptorOneEdgeAfterItsCommit) {
  static_assert(Hpt::kCommitLatency == 3, "S1, S2, S3");
  static_assert(Hpt::kStatsLatency == 4, "the outcome register after the commit");
  HptRig r(128, 4);
  Hpt::In in;
  in.in_valid = true;
  in.in_desc = kA;
  in.csr_addr = unsigned(HptCsr::Descs);
  BOOST_CHECK_EQUAL(r.step(in).csr_rdata, 0u);  // cycle 0: accepted, enters S1 at the edge
  BOOST_CHECK(r.h.s1_busy());
  BOOST_CHECK(r.h.algo().contents().empty());
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);  // cycle 1: in S1
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);  // cycle 2: in S2
  BOOST_CHECK(r.h.s1_busy());
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);  // cycle 3: in S3, commits at this edge
  BOOST_CHECK(!r.h.s1_busy());
  BOOST_CHECK_EQUAL(r.h.algo().contents().size(), 1u);  // in the table
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);         // cycle 4: outcome registered, counted at this edge
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 1u);         // cycle 5: visible
  BOOST_CHECK_EQUAL(r.read(HptCsr::Fills), 1u);
  // An incomplete descriptor counts in IGNORED with the same latency.
  r.desc(D(0x1000, 3, 0x5, 1, 0, true));
  for (unsigned i = 0; i < Hpt::kStatsLatency; ++i) BOOST_CHECK_EQUAL(r.read(HptCsr::Ignored), 0u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ignored), 1u);
}

BOOST_AUTO_TEST_CASE(DescriptorUsesTheCtrlBeforeTheEdge) {
  HptRig r(1, 1);
  // A CTRL write in the same cycle as a descriptor applies from the next one:
  // the descriptor goes in under the reset value (freq).
  Hpt::In in;
  in.in_valid = true;
  in.in_desc = D(0x1000, 3, 0x5, 40);
  in.csr_we = true;
  in.csr_addr = unsigned(HptCsr::Ctrl);
  in.csr_wdata = ctrl(HptPolicy::Lfu, HptMetric::Insns).pack();
  r.step(in);
  r.desc(D(0x1000, 3, 0x5, 40));  // under insns
  for (unsigned i = 0; i < Hpt::kCommitLatency; ++i) r.step();
  check_entry(r.h.algo(), 0, 0, kA, 41);
}

// Dump of a 2 x 2 table holding three entries, consumer always ready.
BOOST_AUTO_TEST_CASE(DumpWalksSetMajorInOnePlusSetsTimesOnePlusWaysCycles) {
  HptRig r(2, 2);
  r.write(HptCsr::Ctrl, ctrl(HptPolicy::Lfu, HptMetric::Freq, HptIndex::Plb, false).pack());
  // Plain fold with Sets = 2 (b = 1): the index is the parity of v.
  //   X = {0x4, 0, 0}: v = bit 0 -> set 1.  Y = {0x8, 0, 0}: bit 1 -> set 1.
  //   Z = {0xc, 0, 0}: bits 0,1 -> set 0.
  const PathEntry x = D(0x4, 0, 0), y = D(0x8, 0, 0), z = D(0xc, 0, 0);
  r.desc(x);
  r.desc(y);
  r.desc(y);
  r.desc(z);  // in S1 when the dump is written: the Drain cycles commit it
  Hpt::In in;
  in.csr_we = true;
  in.csr_addr = unsigned(HptCsr::Cmd);
  in.csr_wdata = kHptCmdDump;
  in.in_valid = true;
  in.in_desc = z;  // accepted in the same cycle (intake is still open)
  BOOST_CHECK(r.step(in).in_ready);
  BOOST_CHECK(r.h.dump_busy());
  std::vector<Hpt::DumpEntry> got;
  unsigned busy = 0, stalls = 0;
  Hpt::In w;
  w.dump_ready = true;
  w.in_valid = true;  // a descriptor waits during the whole dump
  w.in_desc = x;
  for (int i = 0; i < 50; ++i) {
    w.csr_addr = unsigned(HptCsr::Status);
    const Hpt::Out o = r.step(w);
    if (!o.dump_busy) {
      BOOST_CHECK(o.in_ready);
      break;
    }
    ++busy;
    BOOST_CHECK(!o.in_ready);
    BOOST_CHECK_EQUAL(o.csr_rdata, 2u);  // STATUS.dump_busy
    ++stalls;
    if (o.dump_valid) got.push_back(o.dump);
  }
  BOOST_CHECK_EQUAL(busy, Hpt::dump_cycles(2, 2));  // kDrainCycles + 2 * (1 + 2)
  // Set 0: way 0 Z (two: one before the dump, one accepted with it); set 1: way 0 X, way 1 Y.
  BOOST_REQUIRE_EQUAL(got.size(), 3u);
  BOOST_CHECK(got[0] == (Hpt::DumpEntry{0, 0, key_of(z), 2}));
  BOOST_CHECK(got[1] == (Hpt::DumpEntry{1, 0, key_of(x), 1}));
  BOOST_CHECK(got[2] == (Hpt::DumpEntry{1, 1, key_of(y), 2}));
  // The cycle in which intake reopened accepted the waiting descriptor (x).
  for (unsigned i = 0; i < Hpt::kCommitLatency; ++i) r.step();
  BOOST_CHECK_EQUAL(r.read(HptCsr::StallCycles), stalls);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 6u);
  check_entry(r.h.algo(), 1, 0, x, 2);
}

BOOST_AUTO_TEST_CASE(DumpOfTheDefaultTableTakesDrainPlus768Cycles) {
  HptRig r(128, 4);
  r.write(HptCsr::Cmd, kHptCmdDump);
  unsigned busy = 0;
  Hpt::In w;
  w.dump_ready = true;
  while (r.step(w).dump_busy) ++busy;
  BOOST_CHECK_EQUAL(busy, Hpt::dump_cycles(128, 4));
  BOOST_CHECK_EQUAL(busy, Hpt::kDrainCycles + 128u * (2 + 4));
  BOOST_CHECK_EQUAL(r.read(HptCsr::StallCycles), 0u);  // nothing was waiting
}

BOOST_AUTO_TEST_CASE(DumpHoldsAnEntryUnderBackpressure) {
  HptRig r(1, 4);
  r.write(HptCsr::Ctrl, ctrl(HptPolicy::Lfu).pack());
  r.desc(kA);
  r.desc(kB);  // ways 0, 1 valid; 2, 3 invalid
  r.write(HptCsr::Cmd, kHptCmdDump);
  // Drain, Read, then Emit way 0.
  Hpt::In w;
  w.dump_ready = false;
  Hpt::Out o;
  for (unsigned i = 0; i < Hpt::kDrainCycles; ++i) {
    o = r.step(w);  // Drain
    BOOST_CHECK(o.dump_busy && !o.dump_valid);
  }
  o = r.step(w);  // Read
  BOOST_CHECK(!o.dump_valid);
  o = r.step(w);  // Load
  BOOST_CHECK(o.dump_busy && !o.dump_valid);
  // Way 0 is held for 3 refused cycles, then taken.
  for (int i = 0; i < 3; ++i) {
    o = r.step(w);
    BOOST_CHECK(o.dump_valid && o.dump == (Hpt::DumpEntry{0, 0, key_of(kA), 1}));
  }
  w.dump_ready = true;
  o = r.step(w);
  BOOST_CHECK(o.dump_valid && o.dump == (Hpt::DumpEntry{0, 0, key_of(kA), 1}));
  w.dump_ready = false;
  o = r.step(w);  // way 1, refused once
  BOOST_CHECK(o.dump_valid && o.dump == (Hpt::DumpEntry{0, 1, key_of(kB), 1}));
  w.dump_ready = true;
  o = r.step(w);
  BOOST_CHECK(o.dump_valid && o.dump.way == 1);
  // Invalid ways 2 and 3 take one cycle each, ready or not.
  w.dump_ready = false;
  o = r.step(w);
  BOOST_CHECK(o.dump_busy && !o.dump_valid);
  o = r.step(w);
  BOOST_CHECK(o.dump_busy && !o.dump_valid);
  o = r.step(w);
  BOOST_CHECK(!o.dump_busy && o.in_ready);
  // kDrainCycles + 1*(2 + 4) cycles plus 4 refused cycles on valid entries.
}

BOOST_AUTO_TEST_CASE(CommandDuringADumpIsIgnoredAndSetsErr) {
  HptRig r(1, 2);
  r.desc(kA);
  for (unsigned i = 0; i < Hpt::kCommitLatency; ++i) r.step();  // kA commits
  r.write(HptCsr::Cmd, kHptCmdDump);  // the dump starts
  BOOST_CHECK(r.write(HptCsr::Cmd, kHptCmdClear | kHptCmdClearStats).dump_busy);
  BOOST_CHECK(r.h.err());
  BOOST_CHECK_EQUAL(r.h.algo().contents().size(), 1u);  // not cleared
  BOOST_CHECK_EQUAL(r.h.algo().stats().descs, 1u);      // not zeroed
  Hpt::In w;
  w.dump_ready = true;
  while (r.step(w).dump_busy) {
  }
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 1u);  // err, no longer busy
  r.write(HptCsr::Status, 1);                     // W1C
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 0u);
  // When idle, clear and clear_stats act.
  r.write(HptCsr::Cmd, kHptCmdClear | kHptCmdClearStats);
  BOOST_CHECK(r.h.algo().contents().empty());
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);
  BOOST_CHECK(!r.h.err());
}

BOOST_AUTO_TEST_CASE(ClearInTheSameCycleAsTheCommitCommitsThenClears) {
  HptRig r(1, 2);
  r.desc(kA);
  for (unsigned i = 1; i < Hpt::kCommitLatency; ++i) r.step();  // kA in S3
  r.write(HptCsr::Cmd, kHptCmdClear | kHptCmdClearStats);   // S3 commits kA, then both clear
  BOOST_CHECK(r.h.algo().contents().empty());
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 0u);
  // A descriptor still in S1 or S2 at the clear commits after it.
  r.desc(kA);
  r.write(HptCsr::Cmd, kHptCmdClear | kHptCmdClearStats);  // kA in S1
  for (unsigned i = 0; i < Hpt::kCommitLatency; ++i) r.step();
  BOOST_CHECK_EQUAL(r.h.algo().contents().size(), 1u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Descs), 1u);
}

BOOST_AUTO_TEST_CASE(IllegalCtrlIsRejectedAndSetsErr) {
  HptRig r(128, 4);
  r.write(HptCsr::Ctrl, 0x19);  // pb, no skew, insns, ss: legal
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ctrl), 0x19u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 0u);
  r.write(HptCsr::Ctrl, 0x0c);  // metric 3
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ctrl), 0x19u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 1u);
  r.write(HptCsr::Status, 1);
  r.write(HptCsr::Ctrl, 0x31);  // policy 3
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ctrl), 0x19u);
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 1u);
  r.write(HptCsr::Status, 0);  // writing 0 leaves err
  BOOST_CHECK_EQUAL(r.read(HptCsr::Status), 1u);
  r.write(HptCsr::Ctrl, 0xffffff12);  // upper bits are dropped
  BOOST_CHECK_EQUAL(r.read(HptCsr::Ctrl), 0x12u);
}

BOOST_AUTO_TEST_SUITE_END()
