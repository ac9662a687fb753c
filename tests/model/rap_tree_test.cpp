// Tests of the RAP tree functional model (RapTree) against hwprof-spec.md
// section 4.1, paper 001 sections 2-3 and docs/rap.md.
//
// Directed tests first: small value spaces (W = 4 or 8) where the whole tree
// is written out by hand after each step. Every expected tree below was traced
// by hand from the rules in docs/rap.md (the comments give the trace); none is
// computed by the model. Tree strings list the nodes in pre-order as
// "<prefix hex>/<depth>=<count>".
//
// Then property tests on random and adversarial streams (fixed seeds, printed):
// exact brute-force counts bound every node from both sides, the eps error
// bound, the node-count bound of docs/rap.md ("Bounds"), capacity, and an
// independent naive re-implementation of spec 4.1 (a map of (depth, prefix))
// that must produce the same tree after every event.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "rap_tree.h"

using namespace hwprof::model;

namespace {

__extension__ typedef unsigned __int128 u128;

RapParams P(unsigned w, uint32_t e, uint32_t cap, uint64_t mf) {
  RapParams p;
  p.range_bits = w;
  p.eps_q16 = e;
  p.node_cap = cap;
  p.merge_first = mf;
  return p;
}

std::string hexw(uint64_t v, unsigned digits) {
  std::ostringstream o;
  o << std::hex << std::setfill('0') << std::setw(static_cast<int>(digits)) << v;
  return o.str();
}

/// "<prefix>/<depth>=<count>" for every node in pre-order.
std::string tree_str(const RapTree& t) {
  const unsigned digits = (t.params().range_bits + 3) / 4;
  std::string s;
  for (const RapNode& n : t.nodes()) {
    if (!s.empty()) s += ' ';
    s += hexw(n.prefix, digits) + "/" + std::to_string(n.depth) + "=" + std::to_string(n.count);
  }
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rap_tree)

// ---------------------------------------------------------------- parameters

BOOST_AUTO_TEST_CASE(ParamsAreValidated) {
  for (unsigned w : {0u, 1u, 3u, 31u, 33u, 34u}) BOOST_CHECK_THROW(RapTree(P(w, 6554, 0, 1024)), std::invalid_argument);
  BOOST_CHECK_NO_THROW(RapTree(P(2, 6554, 0, 1024)));
  BOOST_CHECK_NO_THROW(RapTree(P(32, 65535, 0, 1)));
  BOOST_CHECK_THROW(RapTree(P(32, 65536, 0, 1024)), std::invalid_argument);
  BOOST_CHECK_THROW(RapTree(P(32, 6554, 0, 0)), std::invalid_argument);
  const RapTree d;  // defaults: W 32, eps 10%, 512 nodes, first merge at 1024
  BOOST_TEST(d.params().range_bits == 32u);
  BOOST_TEST(d.params().eps_q16 == 6554u);
  BOOST_TEST(d.params().node_cap == 512u);
  BOOST_TEST(d.params().merge_first == 1024u);
  BOOST_TEST(d.next_merge() == 1024u);
  BOOST_TEST(d.node_count() == 1u);
  BOOST_TEST(tree_str(d) == "00000000/0=0");
}

BOOST_AUTO_TEST_CASE(EpsAndHotFractionAreRoundedToQ16) {
  BOOST_TEST(RapParams::q16(0.01) == 655u);   // 655.36
  BOOST_TEST(RapParams::q16(0.05) == 3277u);  // 3276.8
  BOOST_TEST(RapParams::q16(0.10) == 6554u);  // 6553.6
  BOOST_TEST(RapParams::q16(0.0) == 0u);
  BOOST_TEST(RapParams::q16(0.99999) == 65535u);                       // 65535.34
  BOOST_CHECK_THROW(RapParams::q16(0.999999), std::invalid_argument);  // 65535.93 rounds to 1.0
  BOOST_CHECK_THROW(RapParams::q16(1.0), std::invalid_argument);
  BOOST_CHECK_THROW(RapParams::q16(-0.01), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(SplitThresholdIsTheExactIntegerFloor) {
  // floor(E * n / (65536 * W/2)), values worked out by hand.
  BOOST_TEST(rap_split_threshold(6554, 32, 159) == 0u);    // 1042086 / 1048576
  BOOST_TEST(rap_split_threshold(6554, 32, 160) == 1u);    // 1048640 / 1048576
  BOOST_TEST(rap_split_threshold(6554, 32, 1024) == 6u);   // 6711296 / 1048576 = 6.40
  BOOST_TEST(rap_split_threshold(655, 32, 1600) == 0u);    // 1048000 / 1048576
  BOOST_TEST(rap_split_threshold(655, 32, 1601) == 1u);    // 1048655 / 1048576
  BOOST_TEST(rap_split_threshold(32768, 8, 7) == 0u);      // n / 8
  BOOST_TEST(rap_split_threshold(32768, 8, 8) == 1u);
  BOOST_TEST(rap_split_threshold(32768, 4, 4) == 1u);      // n / 4
  BOOST_TEST(rap_split_threshold(0, 32, 1000000) == 0u);
  // No 64-bit overflow: 6554 * 2^60 / 2^20 = 6554 * 2^40.
  BOOST_TEST(rap_split_threshold(6554, 32, uint64_t{1} << 60) == 7206199208443904ull);
  BOOST_TEST(rap_split_threshold(65535, 2, std::numeric_limits<uint64_t>::max()) == 18446462598732840959ull);
  // Hot cut: floor(F * n / 65536).
  BOOST_TEST(rap_hot_threshold(6554, 100) == 10u);     // 10.0006
  BOOST_TEST(rap_hot_threshold(6554, 108) == 10u);     // 10.80
  BOOST_TEST(rap_hot_threshold(6554, 655360) == 65540u);
}

// ---------------------------------------------------------------- splits

// W = 8 (H = 4), eps = 1/2: T(n) = floor(n / 8), so T = 0 for n < 8 and every
// hit on a leaf above depth 4 splits it: one value drills down one level per
// event.
BOOST_AUTO_TEST_CASE(SingleValueDrillsDownOneLevelPerEvent) {
  RapTree t(P(8, 32768, 0, 1000));
  RapUpdate u = t.add(0x5a);  // root 1 > T(1) = 0: split
  BOOST_TEST(u.split);
  BOOST_TEST(u.leaf_depth == 0u);
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=0 40/1=0 80/1=0 c0/1=0");
  u = t.add(0x5a);  // 0x5a = 01 01 10 10: leaf 40/1 -> 1 > 0: split
  BOOST_TEST(u.split);
  BOOST_TEST(u.leaf_prefix == 0x40u);
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=0 40/1=1 40/2=0 50/2=0 60/2=0 70/2=0 80/1=0 c0/1=0");
  t.add(0x5a);  // leaf 50/2: split
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=0 40/1=1 40/2=0 50/2=1 50/3=0 54/3=0 58/3=0 5c/3=0 60/2=0 70/2=0 80/1=0 c0/1=0");
  u = t.add(0x5a);  // leaf 58/3: split into singletons
  BOOST_TEST(u.split);
  BOOST_TEST(u.leaf_prefix == 0x58u);
  BOOST_TEST(u.leaf_depth == 3u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=0 40/1=1 40/2=0 50/2=1 50/3=0 54/3=0 58/3=1 58/4=0 59/4=0 5a/4=0 5b/4=0 5c/3=0 60/2=0 "
             "70/2=0 80/1=0 c0/1=0");
  for (int k = 0; k < 4; ++k) {  // depth 4 = W/2: counted, never split
    u = t.add(0x5a);
    BOOST_TEST(!u.split);
    BOOST_TEST(u.leaf_depth == 4u);
  }
  BOOST_TEST(t.n() == 8u);
  BOOST_TEST(t.threshold() == 1u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=0 40/1=1 40/2=0 50/2=1 50/3=0 54/3=0 58/3=1 58/4=0 59/4=0 5a/4=4 5b/4=0 5c/3=0 60/2=0 "
             "70/2=0 80/1=0 c0/1=0");
  BOOST_TEST(t.node_count() == 17u);
  BOOST_TEST(t.stats().splits == 4u);
  BOOST_TEST(t.stats().peak_nodes == 17u);
}

// T(n) = floor(n / 8) again; weights make the threshold non-zero.
BOOST_AUTO_TEST_CASE(SplitsWhenCounterPassesThresholdNotWhenEqual) {
  RapTree t(P(8, 32768, 0, 1000));
  t.add(0x00, 8);  // n 8, T 1: root 8 > 1: split
  BOOST_TEST(tree_str(t) == "00/0=8 00/1=0 40/1=0 80/1=0 c0/1=0");
  RapUpdate u = t.add(0x40, 1);  // n 9, T 1: 40/1 = 1, equal: no split
  BOOST_TEST(!u.split);
  BOOST_TEST(u.threshold == 1u);
  BOOST_TEST(tree_str(t) == "00/0=8 00/1=0 40/1=1 80/1=0 c0/1=0");
  u = t.add(0x41, 1);  // n 10, T 1: 40/1 = 2 > 1: split, keeps its count
  BOOST_TEST(u.split);
  BOOST_TEST(tree_str(t) == "00/0=8 00/1=0 40/1=2 40/2=0 50/2=0 60/2=0 70/2=0 80/1=0 c0/1=0");
  u = t.add(0x80, 0);  // weight 0: a full update that changes nothing here
  BOOST_TEST(!u.split);
  BOOST_TEST(t.n() == 10u);
  BOOST_TEST(t.stats().updates == 4u);
  t.add(0x1c0, 2);  // value taken modulo 2^8 = 0xc0; n 12, T 1: c0/1 = 2 > 1: split
  BOOST_TEST(tree_str(t) ==
             "00/0=8 00/1=0 40/1=2 40/2=0 50/2=0 60/2=0 70/2=0 80/1=0 c0/1=2 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  BOOST_TEST(t.stats().splits == 3u);
}

// ---------------------------------------------------------------- merges

// W = 4 (H = 2), eps = 1/2: T(n) = floor(n / 4). One pass at n = 16 (T = 4)
// merges a group whose sum equals T and keeps a group one above it; the root
// keeps its children because one of them is internal.
BOOST_AUTO_TEST_CASE(MergeNeedsFourLeafChildrenAndSumAtMostThreshold) {
  RapTree t(P(4, 32768, 0, 16));
  t.add(0x1, 1);  // n 1, T 0: root split
  t.add(0x1, 1);  // n 2, T 0: 0/1 = 1: split
  t.add(0x1, 3);  // n 5, T 1: 1/2 = 3 (depth 2 = H: no split)
  t.add(0x9, 1);  // n 6, T 1: 8/1 = 1 = T
  t.add(0x9, 1);  // n 7, T 1: 8/1 = 2 > 1: split
  t.add(0x9, 3);  // n 10, T 2: 9/2 = 3
  BOOST_TEST(tree_str(t) == "0/0=1 0/1=1 0/2=0 1/2=3 2/2=0 3/2=0 4/1=0 8/1=2 8/2=0 9/2=3 a/2=0 b/2=0 c/1=0");
  BOOST_TEST(t.stats().scheduled_passes == 0u);
  // n 16, T 4: c/1 = 6 > 4: split (17 nodes); then the pass:
  //   depth 1: 0/1: 1 + 3 = 4 <= 4: merge -> 0/1 = 4.  8/1: 2 + 3 = 5 > 4: kept.
  //            c/1: 6 > 4: kept.  depth 0: root has internal children: kept.
  const RapUpdate u = t.add(0xc, 6);
  BOOST_TEST(u.split);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 1u);
  BOOST_TEST(tree_str(t) == "0/0=1 0/1=4 4/1=0 8/1=2 8/2=0 9/2=3 a/2=0 b/2=0 c/1=6 c/2=0 d/2=0 e/2=0 f/2=0");
  BOOST_TEST(t.node_count() == 13u);
  BOOST_TEST(t.stats().peak_nodes == 17u);
  BOOST_TEST(t.stats().merges == 1u);
  BOOST_TEST(t.next_merge() == 32u);
}

// W = 8, T(n) = floor(n / 8), first merge at n = 40 (T = 5): a chain built by
// one value collapses three levels in one pass (depth 3, then 2, then 1).
BOOST_AUTO_TEST_CASE(MergesCascadeUpwardWithinOnePass) {
  RapTree t(P(8, 32768, 0, 40));
  for (int k = 0; k < 5; ++k) t.add(0x00);  // n 1..4 split root, 00/1, 00/2, 00/3; n 5: 00/4 = 1
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=1 00/3=1 00/4=1 01/4=0 02/4=0 03/4=0 04/3=0 08/3=0 0c/3=0 10/2=0 20/2=0 30/2=0 "
             "40/1=0 80/1=0 c0/1=0");
  // n 40, T 5: c0/1 = 35 > 5: split (21 nodes). Pass with T 5:
  //   depth 3: 00/3: 1 + 1 = 2 <= 5 -> 00/3 = 2
  //   depth 2: 00/2: 1 + 2 = 3 <= 5 -> 00/2 = 3
  //   depth 1: 00/1: 1 + 3 = 4 <= 5 -> 00/1 = 4;  c0/1: 35 > 5: kept
  //   depth 0: root: c0/1 is internal: kept
  const RapUpdate u = t.add(0xff, 35);
  BOOST_TEST(u.split);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 3u);
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=4 40/1=0 80/1=0 c0/1=35 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  BOOST_TEST(t.node_count() == 9u);
  BOOST_TEST(t.stats().peak_nodes == 21u);
  BOOST_TEST(t.stats().merges == 3u);
  BOOST_TEST(t.stats().last_pass_n == 40u);
}

// W = 8, T(n) = floor(n / 8), MergeFirst = 4: passes at n >= 4, 8, 16, ...;
// after a pass next_merge doubles until it exceeds n.
BOOST_AUTO_TEST_CASE(FirstMergeAtMergeFirstThenPeriodsDouble) {
  RapTree t(P(8, 32768, 0, 4));
  for (int k = 0; k < 3; ++k) BOOST_TEST(!t.add(0x00).scheduled_pass);  // n 1..3: splits root, 00/1, 00/2
  RapUpdate u = t.add(0x00);  // n 4: 00/3 splits, then the first pass (T 0): nothing merges
  BOOST_TEST(u.split);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 0u);
  BOOST_TEST(t.next_merge() == 8u);
  for (int k = 0; k < 3; ++k) BOOST_TEST(!t.add(0x00).scheduled_pass);  // n 5..7: 00/4 = 1..3
  u = t.add(0x00);  // n 8, T 1: 00/4 = 4; pass: 00/3: 1 + 4 = 5 > 1: kept
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 0u);
  BOOST_TEST(t.next_merge() == 16u);
  u = t.add(0x80, 20);  // n 28, T 3: 80/1 = 20 > 3: split; pass (00/3: 5 > 3); next 16 -> 32
  BOOST_TEST(u.split);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 0u);
  BOOST_TEST(t.next_merge() == 32u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=1 00/3=1 00/4=4 01/4=0 02/4=0 03/4=0 04/3=0 08/3=0 0c/3=0 10/2=0 20/2=0 30/2=0 "
             "40/1=0 80/1=20 80/2=0 90/2=0 a0/2=0 b0/2=0 c0/1=0");
  // n 128, T 16: leaf 80/2 = 100 > 16: split. Pass with T 16:
  //   depth 3: 00/3: 1 + 4 = 5 -> merge;   depth 2: 00/2: 1 + 5 = 6 -> merge; 80/2: 100: kept
  //   depth 1: 00/1: 1 + 6 = 7 -> merge;   80/1: internal child: kept
  // next_merge 32 -> 64 -> 128 -> 256 (128 does not exceed n = 128).
  u = t.add(0x80, 100);
  BOOST_TEST(u.split);
  BOOST_TEST(u.merged == 3u);
  BOOST_TEST(t.next_merge() == 256u);
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=7 40/1=0 80/1=20 80/2=100 80/3=0 84/3=0 88/3=0 8c/3=0 90/2=0 a0/2=0 b0/2=0 c0/1=0");
  u = t.add(0x01, 127);  // n 255, T 31: 00/1 = 134 > 31: split; no pass (255 < 256)
  BOOST_TEST(u.split);
  BOOST_TEST(!u.scheduled_pass);
  u = t.add(0x01, 1);  // n 256 = next_merge: pass (nothing merges), next 512
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(t.next_merge() == 512u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=134 00/2=1 10/2=0 20/2=0 30/2=0 40/1=0 80/1=20 80/2=100 80/3=0 84/3=0 88/3=0 8c/3=0 90/2=0 "
             "a0/2=0 b0/2=0 c0/1=0");
  BOOST_TEST(t.stats().scheduled_passes == 5u);
  BOOST_TEST(t.stats().merges == 3u);
}

BOOST_AUTO_TEST_CASE(FinalizeRunsOneMergePassAndKeepsTheSchedule) {
  RapTree t(P(8, 32768, 0, 1000));
  t.add(0x00);      // n 1: root split
  t.add(0x00);      // n 2: 00/1 = 1: split
  t.add(0xff, 30);  // n 32, T 4: c0/1 = 30 > 4: split
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=0 10/2=0 20/2=0 30/2=0 40/1=0 80/1=0 c0/1=30 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  BOOST_TEST(t.finalize() == 1u);  // T 4: 00/1: 1 + 0 <= 4: merge; c0/1: 30 > 4: kept
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=1 40/1=0 80/1=0 c0/1=30 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  BOOST_TEST(t.next_merge() == 1000u);
  BOOST_TEST(t.stats().final_passes == 1u);
  BOOST_TEST(t.stats().scheduled_passes == 0u);
  BOOST_TEST(t.stats().last_pass_n == 32u);
  t.add(0x01);  // still usable: 00/1 = 2 <= T(33) = 4
  BOOST_TEST(t.count_of(0x00, 1).value() == 2u);
}

// ---------------------------------------------------------------- capacity

// W = 8, T(n) = floor(n / 8), NodeCap = 9 (root + two groups), MergeFirst 8.
BOOST_AUTO_TEST_CASE(CapacityExhaustionMergesOnceThenSkipsUntilTheNextPass) {
  RapTree t(P(8, 32768, 9, 8));
  t.add(0x00);  // n 1: root split (5 nodes)
  t.add(0x40);  // n 2: 40/1 split (9 nodes)
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=0 40/1=1 40/2=0 50/2=0 60/2=0 70/2=0 80/1=0 c0/1=0");
  // n 3: 80/1 = 1 > 0 but 13 > 9: capacity pass (T 0: nothing), still no room:
  // full set, split skipped.
  RapUpdate u = t.add(0x80);
  BOOST_TEST(u.capacity_pass);
  BOOST_TEST(u.split_skipped);
  BOOST_TEST(!u.split);
  BOOST_TEST(t.full());
  // n 4: c0/1 = 1 > 0, no room, full: skipped without a pass.
  u = t.add(0xc0);
  BOOST_TEST(!u.capacity_pass);
  BOOST_TEST(u.split_skipped);
  BOOST_TEST(t.stats().capacity_passes == 1u);
  // n 8, T 1: leaf 40/2 = 4 > 1, full: skipped; then the scheduled pass
  // (40/1: 1 + 4 = 5 > 1: kept) clears full.
  u = t.add(0x41, 4);
  BOOST_TEST(u.split_skipped);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(!t.full());
  BOOST_TEST(t.next_merge() == 16u);
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=0 40/1=1 40/2=4 50/2=0 60/2=0 70/2=0 80/1=1 c0/1=1");
  // n 9, T 1: 80/1 = 2 > 1, no room, full clear: capacity pass (nothing), full again.
  u = t.add(0x80);
  BOOST_TEST(u.capacity_pass);
  BOOST_TEST(u.split_skipped);
  BOOST_TEST(t.full());
  // n 29, T 3: 00/1 = 20 > 3: skipped (full); scheduled pass (40/1: 5 > 3), full clear, next 32.
  u = t.add(0x00, 20);
  BOOST_TEST(u.split_skipped);
  BOOST_TEST(!u.capacity_pass);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(!t.full());
  BOOST_TEST(t.next_merge() == 32u);
  // n 40, T 5: c0/1 = 12 > 5, no room: capacity pass merges 40/1 (1 + 4 = 5 <= 5),
  // the split now fits; then the scheduled pass (c0/1: 12 > 5: kept), next 64.
  u = t.add(0xc0, 11);
  BOOST_TEST(u.capacity_pass);
  BOOST_TEST(u.split);
  BOOST_TEST(!u.split_skipped);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 1u);
  BOOST_TEST(!t.full());
  BOOST_TEST(tree_str(t) == "00/0=1 00/1=20 40/1=5 80/1=2 c0/1=12 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  BOOST_TEST(t.next_merge() == 64u);
  const RapStats& s = t.stats();
  BOOST_TEST(s.splits == 3u);
  BOOST_TEST(s.splits_skipped == 5u);
  BOOST_TEST(s.capacity_passes == 3u);
  BOOST_TEST(s.scheduled_passes == 3u);
  BOOST_TEST(s.merges == 1u);
  BOOST_TEST(s.peak_nodes == 9u);
}

BOOST_AUTO_TEST_CASE(CapacityBelowFiveNeverSplits) {
  RapTree t(P(4, 32768, 4, 1000));
  const RapUpdate u = t.add(0x3);
  BOOST_TEST(u.capacity_pass);
  BOOST_TEST(u.split_skipped);
  t.add(0x3);
  BOOST_TEST(tree_str(t) == "0/0=2");
  BOOST_TEST(t.stats().splits_skipped == 2u);
  BOOST_TEST(t.stats().capacity_passes == 1u);
}

// ---------------------------------------------------------------- paper Fig. 1

// The b = 4 analogue of paper 001 Fig. 1 on W = 8 (T(n) = floor(n / 8)): the
// tree just before a merge pass with cutoff 13, the pass merging a cold range
// into [0c, 0f], then accesses to 0x0c pushing [0c, 0f] over the threshold so
// that it splits and 0x0c is counted on its own. docs/rap.md ("Worked example")
// walks through the same stream.
struct Fig1 {
  RapTree t{P(8, 32768, 0, 104)};
  Fig1() {
    for (int k = 0; k < 4; ++k) t.add(0x0c);  // n 1..4: splits root, 00/1, 00/2, 0c/3
    t.add(0x0d, 10);                           // n 14: 0d/4 = 10
    t.add(0x05, 2);                            // n 16, T 2: 04/3 = 2 = T
  }
};

BOOST_AUTO_TEST_CASE(PaperFig1AnalogueMergeThenSplit) {
  Fig1 f;
  RapTree& t = f.t;
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=1 00/3=0 04/3=2 08/3=0 0c/3=1 0c/4=0 0d/4=10 0e/4=0 0f/4=0 10/2=0 20/2=0 30/2=0 "
             "40/1=0 80/1=0 c0/1=0");
  // n 104, T 13: 80/1 = 88 > 13: split (21 nodes, the tree "just before the
  // merge"). Pass with cutoff 13:
  //   depth 3: 0c/3: 1 + 10 = 11 <= 13 -> 0c/3 = 11
  //   depth 2: 00/2: 1 + 0 + 2 + 0 + 11 = 14 > 13: kept
  //   depth 1: 00/1 has an internal child; 80/1: 88 > 13: kept
  RapUpdate u = t.add(0x90, 88);
  BOOST_TEST(u.split);
  BOOST_TEST(u.scheduled_pass);
  BOOST_TEST(u.merged == 1u);
  BOOST_TEST(t.stats().peak_nodes == 21u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=1 00/3=0 04/3=2 08/3=0 0c/3=11 10/2=0 20/2=0 30/2=0 40/1=0 80/1=88 80/2=0 90/2=0 "
             "a0/2=0 b0/2=0 c0/1=0");
  BOOST_TEST(t.next_merge() == 208u);
  u = t.add(0x0c, 3);  // n 107, T 13: 0c/3 = 14 > 13: split
  BOOST_TEST(u.split);
  BOOST_TEST(u.leaf_prefix == 0x0cu);
  BOOST_TEST(u.leaf_depth == 3u);
  u = t.add(0x0c, 1);  // n 108: counted on 0c/4 alone
  BOOST_TEST(u.leaf_depth == 4u);
  BOOST_TEST(tree_str(t) ==
             "00/0=1 00/1=1 00/2=1 00/3=0 04/3=2 08/3=0 0c/3=14 0c/4=1 0d/4=0 0e/4=0 0f/4=0 10/2=0 20/2=0 30/2=0 "
             "40/1=0 80/1=88 80/2=0 90/2=0 a0/2=0 b0/2=0 c0/1=0");
}

// The same final tree: read-out, estimates, hot ranges and the text dumps.
BOOST_AUTO_TEST_CASE(ReadOutEstimatesHotRangesAndDumpsOfTheFig1Tree) {
  Fig1 f;
  RapTree& t = f.t;
  t.add(0x90, 88);
  t.add(0x0c, 3);
  t.add(0x0c, 1);
  // True counts: 0x0c 4 + 3 + 1 = 8, 0x0d 10, 0x05 2, 0x90 88 (n = 108).
  BOOST_TEST(t.lookup(0x0d).first == 0x0du);
  BOOST_TEST(t.lookup(0x0d).second == 4u);
  BOOST_TEST(t.lookup(0x05).first == 0x04u);
  BOOST_TEST(t.lookup(0x05).second == 3u);
  BOOST_TEST(t.lookup(0x55).first == 0x40u);
  BOOST_TEST(t.lookup(0x155).first == 0x40u);  // modulo 2^8
  BOOST_TEST(t.count_of(0x0c, 3).value() == 14u);
  BOOST_TEST(t.count_of(0x00, 2).value() == 1u);
  BOOST_TEST(!t.count_of(0x0c, 2).has_value());  // not aligned to a depth-2 prefix
  BOOST_TEST(!t.count_of(0x40, 2).has_value());  // 40/1 is a leaf
  BOOST_TEST(!t.count_of(0x00, 5).has_value());

  const std::vector<RapNode> nd = t.nodes();
  BOOST_TEST_REQUIRE(nd.size() == 21u);
  // [0c, 0f]: node 6 in pre-order; subtree 15, ancestors root + 00/1 + 00/2 = 3.
  BOOST_TEST(nd[6].prefix == 0x0cu);
  BOOST_TEST(nd[6].last == 0x0fu);
  BOOST_TEST(nd[6].depth == 3u);
  BOOST_TEST(nd[6].count == 14u);
  BOOST_TEST(nd[6].subtree == 15u);
  BOOST_TEST(nd[6].ancestors == 3u);
  BOOST_TEST(nd[6].parent == 2);
  BOOST_TEST(nd[6].children[0] == 7);
  BOOST_TEST(nd[6].children[3] == 10);
  BOOST_TEST(nd[2].children[3] == 6);
  BOOST_TEST(nd[0].children[2] == 15);  // 80/1
  BOOST_TEST(nd[0].subtree == 108u);
  BOOST_TEST(nd[1].subtree == 19u);
  BOOST_TEST(nd[10].leaf());
  BOOST_TEST(!nd[6].leaf());

  // [0c, 0f]: 15 <= true 18 <= 15 + 3.
  RapEstimate e = t.estimate(0x0c, 0x0f);
  BOOST_TEST(e.lower == 15u);
  BOOST_TEST(e.upper == 18u);
  e = t.estimate(0x00, 0x3f);  // 00/1 inside (19), root straddles (1); true 20
  BOOST_TEST(e.lower == 19u);
  BOOST_TEST(e.upper == 20u);
  // [0d, 90]: inside 0d..0f/4, 10..30/2, 40/1, 80/2 (all 0); straddling root 1,
  // 00/1 1, 00/2 1, 0c/3 14, 80/1 88, 90/2 0. True 10 + 88 = 98.
  e = t.estimate(0x0d, 0x90);
  BOOST_TEST(e.lower == 0u);
  BOOST_TEST(e.upper == 105u);
  e = t.estimate(0x00, 0xff);
  BOOST_TEST(e.lower == 108u);
  BOOST_TEST(e.upper == 108u);
  BOOST_CHECK_THROW(t.estimate(0x10, 0x0f), std::invalid_argument);

  // Hot at 10%: cut floor(6554 * 108 / 65536) = 10.
  //   0c/3: carry 14 + 1 = 15 > 10: hot.   80/1: 88: hot.
  //   00/2: 1 + 2 = 3; 00/1: 1 + 3 = 4; root: 1 + 4 = 5: not hot.
  const std::vector<RapHotRange> hot = t.hot_ranges();
  BOOST_TEST_REQUIRE(hot.size() == 2u);
  BOOST_TEST(hot[0].node == 6);
  BOOST_TEST(hot[0].prefix == 0x0cu);
  BOOST_TEST(hot[0].count == 14u);
  BOOST_TEST(hot[0].carry == 15u);
  BOOST_TEST(hot[0].subtree == 15u);
  BOOST_TEST(hot[0].hot_level == 0u);
  BOOST_TEST(hot[1].prefix == 0x80u);
  BOOST_TEST(hot[1].carry == 88u);
  // At 1% (F 655, cut floor(655 * 108 / 65536) = 1): 0c/4 carries 1: not hot;
  // 0c/3 15 and 04/3 2: hot; 00/2 carries only its own 1 (both hot children
  // excluded): not hot; 00/1 carries 1 + 1 = 2: hot, with the two hot ranges
  // below it at hot level 1; 80/1 88: hot; the root carries 1: not hot.
  const std::vector<RapHotRange> hot1 = t.hot_ranges(655);
  BOOST_TEST_REQUIRE(hot1.size() == 4u);
  BOOST_TEST(hot1[0].prefix == 0x00u);
  BOOST_TEST(hot1[0].depth == 1u);
  BOOST_TEST(hot1[0].carry == 2u);
  BOOST_TEST(hot1[0].subtree == 19u);
  BOOST_TEST(hot1[1].prefix == 0x04u);
  BOOST_TEST(hot1[1].hot_level == 1u);
  BOOST_TEST(hot1[2].prefix == 0x0cu);
  BOOST_TEST(hot1[2].hot_level == 1u);
  BOOST_TEST(hot1[3].prefix == 0x80u);
  BOOST_TEST(hot1[3].hot_level == 0u);

  BOOST_TEST(t.dump_text(true) ==
             "0c-0f d3 13.89% (total 13.89%)\n"
             "80-bf d1 81.48% (total 81.48%)\n");
  BOOST_TEST(t.dump_text(true, 655) ==
             "00-3f d1 1.85% (total 17.59%)\n"
             "  04-07 d3 1.85% (total 1.85%)\n"
             "  0c-0f d3 13.89% (total 13.89%)\n"
             "80-bf d1 81.48% (total 81.48%)\n");
  BOOST_TEST(t.dump_text() ==
             "00-ff d0 count 1 (0.93%) total 108 (100.00%)\n"
             "  00-3f d1 count 1 (0.93%) total 19 (17.59%)\n"
             "    00-0f d2 count 1 (0.93%) total 18 (16.67%)\n"
             "      00-03 d3 count 0 (0.00%) total 0 (0.00%)\n"
             "      04-07 d3 count 2 (1.85%) total 2 (1.85%)\n"
             "      08-0b d3 count 0 (0.00%) total 0 (0.00%)\n"
             "      0c-0f d3 count 14 (12.96%) total 15 (13.89%) hot 13.89%\n"
             "        0c-0c d4 count 1 (0.93%) total 1 (0.93%)\n"
             "        0d-0d d4 count 0 (0.00%) total 0 (0.00%)\n"
             "        0e-0e d4 count 0 (0.00%) total 0 (0.00%)\n"
             "        0f-0f d4 count 0 (0.00%) total 0 (0.00%)\n"
             "    10-1f d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    20-2f d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    30-3f d2 count 0 (0.00%) total 0 (0.00%)\n"
             "  40-7f d1 count 0 (0.00%) total 0 (0.00%)\n"
             "  80-bf d1 count 88 (81.48%) total 88 (81.48%) hot 81.48%\n"
             "    80-8f d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    90-9f d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    a0-af d2 count 0 (0.00%) total 0 (0.00%)\n"
             "    b0-bf d2 count 0 (0.00%) total 0 (0.00%)\n"
             "  c0-ff d1 count 0 (0.00%) total 0 (0.00%)\n");
  BOOST_TEST(t.hex(0x0c) == "0c");
  BOOST_TEST(RapTree(P(32, 6554, 0, 1)).hex(0xabc) == "00000abc");
  BOOST_TEST(RapTree(P(6, 6554, 0, 1)).hex(0x3f) == "3f");
  BOOST_TEST(RapTree(P(2, 6554, 0, 1)).hex(0x3) == "3");
}

BOOST_AUTO_TEST_CASE(EmptyTreeDumpsTheRootAtZeroPercent) {
  const RapTree t(P(8, 6554, 0, 1024));
  BOOST_TEST(t.dump_text() == "00-ff d0 count 0 (0.00%) total 0 (0.00%)\n");
  BOOST_TEST(t.dump_text(true) == "");
  BOOST_TEST(t.hot_ranges().empty());
}

// The eps bound carries one event weight of slack per level: a node splits
// only once its counter exceeds the threshold, so each ancestor may hold up to
// T(n) + w (docs/rap.md, "Bounds"). W = 2, eps = 1/2: the first event stays on
// the root, so [0, 0] is off by 1 > eps * n = 0.5.
BOOST_AUTO_TEST_CASE(EpsBoundHasOneWeightOfSlackPerLevel) {
  RapTree t(P(2, 32768, 0, 1000));
  t.add(0x0);
  BOOST_TEST(tree_str(t) == "0/0=1 0/1=0 1/1=0 2/1=0 3/1=0");
  const RapEstimate e = t.estimate(0, 0);
  BOOST_TEST(e.lower == 0u);  // true 1: error 1 = depth 1 * (T(1) = 0 + w 1)
  BOOST_TEST(e.upper == 1u);
}

BOOST_AUTO_TEST_CASE(TotalWeightOverflowThrows) {
  RapTree t(P(8, 6554, 0, std::numeric_limits<uint64_t>::max()));
  t.add(1, std::numeric_limits<uint64_t>::max() - 1);
  t.add(2, 1);
  BOOST_CHECK_THROW(t.add(3, 1), std::overflow_error);
}

// The schedule saturates instead of wrapping when doubling passes 2^64.
BOOST_AUTO_TEST_CASE(MergeScheduleSaturates) {
  RapTree t(P(8, 6554, 0, uint64_t{1} << 62));
  t.add(1, (uint64_t{1} << 63) + 5);
  BOOST_TEST(t.stats().scheduled_passes == 1u);
  BOOST_TEST(t.next_merge() == std::numeric_limits<uint64_t>::max());
}

// ---------------------------------------------------------------- property tests

// BOOST_TEST_REQUIRE costs microseconds even when it passes; the property
// checks run millions of times, so Boost sees only a failing condition (and
// then reports it with its values as usual).
#define FAST_REQUIRE(...)                              \
  do {                                                 \
    if (!(__VA_ARGS__)) BOOST_TEST_REQUIRE(__VA_ARGS__); \
  } while (0)

struct Ev {
  uint32_t v;
  uint64_t w;
};

/// Exact weights by value over one stream (coordinate-compressed Fenwick tree).
class Exact {
 public:
  Exact(const std::vector<Ev>& evs, uint32_t mask) {
    for (const Ev& e : evs) keys_.push_back(e.v & mask);
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    fw_.assign(keys_.size() + 1, 0);
  }
  void add(uint32_t v, uint64_t w) {
    for (size_t i = std::lower_bound(keys_.begin(), keys_.end(), v) - keys_.begin() + 1; i < fw_.size(); i += i & -i)
      fw_[i] += w;
  }
  uint64_t range(uint32_t lo, uint32_t hi) const {
    const size_t a = std::lower_bound(keys_.begin(), keys_.end(), lo) - keys_.begin();
    const size_t b = std::upper_bound(keys_.begin(), keys_.end(), hi) - keys_.begin();
    return prefix(b) - prefix(a);
  }

 private:
  uint64_t prefix(size_t k) const {
    uint64_t s = 0;
    for (; k > 0; k -= k & -k) s += fw_[k];
    return s;
  }
  std::vector<uint32_t> keys_;
  std::vector<uint64_t> fw_;
};

/// Spec 4.1 written a second time, as plainly as possible: a map from
/// (depth, prefix) to counter. The tree must equal this one after every event.
class NaiveRap {
 public:
  explicit NaiveRap(const RapParams& p) : p_(p), h_(p.range_bits / 2), next_(p.merge_first) { m_[{0, 0}] = 0; }

  void add(uint32_t v, uint64_t w) {
    if (p_.range_bits < 32) v &= (uint32_t{1} << p_.range_bits) - 1;
    unsigned d = h_;
    while (m_.count({d, pre(v, d)}) == 0) --d;  // deepest existing prefix = longest match
    const uint32_t pr = pre(v, d);
    m_[{d, pr}] += w;
    n_ += w;
    if (m_[{d, pr}] > thr() && d < h_) {
      if (!room() && !full_) {
        pass();
        if (!room()) full_ = true;
      }
      if (room()) {
        for (uint32_t c = 0; c < 4; ++c) m_[{d + 1, pr | c << low(d + 1)}] = 0;
        ++splits;
      } else {
        ++skipped;
      }
    }
    if (n_ >= next_) {
      pass();
      full_ = false;
      while (next_ <= n_) next_ *= 2;
    }
  }
  void pass() {
    const uint64_t t = thr();
    for (unsigned d = h_; d-- > 0;) {
      std::vector<uint32_t> at;
      for (const auto& kv : m_)
        if (kv.first.first == d && internal(d, kv.first.second)) at.push_back(kv.first.second);
      for (const uint32_t pr : at) {
        uint64_t s = m_.at({d, pr});
        bool leaves = true;
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t cp = pr | c << low(d + 1);
          leaves = leaves && !internal(d + 1, cp);
          s += m_.at({d + 1, cp});
        }
        if (!leaves || s > t) continue;
        for (uint32_t c = 0; c < 4; ++c) m_.erase({d + 1, pr | c << low(d + 1)});
        m_[{d, pr}] = s;
        ++merges;
      }
    }
  }
  /// (prefix, depth, count) sorted by prefix then depth = RapTree pre-order.
  std::vector<std::tuple<uint32_t, unsigned, uint64_t>> tuples() const {
    std::vector<std::tuple<uint32_t, unsigned, uint64_t>> v;
    for (const auto& kv : m_) v.emplace_back(kv.first.second, kv.first.first, kv.second);
    std::sort(v.begin(), v.end());
    return v;
  }
  std::string str() const {
    std::string s;
    for (const auto& [pr, d, c] : tuples()) {
      if (!s.empty()) s += ' ';
      s += hexw(pr, (p_.range_bits + 3) / 4) + "/" + std::to_string(d) + "=" + std::to_string(c);
    }
    return s;
  }
  uint64_t splits = 0, skipped = 0, merges = 0;

 private:
  unsigned low(unsigned d) const { return p_.range_bits - 2 * d; }
  uint32_t pre(uint32_t v, unsigned d) const { return low(d) >= 32 ? 0 : v >> low(d) << low(d); }
  uint64_t thr() const { return static_cast<uint64_t>(u128{p_.eps_q16} * n_ / (u128{65536} * h_)); }
  bool internal(unsigned d, uint32_t pr) const { return d < h_ && m_.count({d + 1, pr}) != 0; }
  bool room() const { return p_.node_cap == 0 || m_.size() + 4 <= p_.node_cap; }

  RapParams p_;
  unsigned h_;
  std::map<std::pair<unsigned, uint32_t>, uint64_t> m_;
  uint64_t n_ = 0, next_;
  bool full_ = false;
};

uint64_t T_of(const RapParams& p, uint64_t n) {  // independent of the model's helper
  return static_cast<uint64_t>(u128{p.eps_q16} * n / (u128{65536} * (p.range_bits / 2)));
}

/// Every invariant of docs/rap.md ("Bounds") on one tree against exact counts.
/// wmax = largest weight so far.
void check_tree(const RapTree& t, const Exact& ex, uint64_t wmax, std::mt19937_64& rng, const std::string& where) {
  const RapParams& p = t.params();
  const unsigned h = p.max_depth();
  const uint64_t n = t.n();
  const uint64_t tn = T_of(p, n);
  const uint64_t tm = T_of(p, t.stats().last_pass_n);
  const bool exact_bounds = t.stats().splits_skipped == 0;
  const std::vector<RapNode> nd = t.nodes();
  BOOST_TEST_CONTEXT(where << " n=" << n << " nodes=" << nd.size()) {
    FAST_REQUIRE(nd.size() == t.node_count());
    if (p.node_cap) FAST_REQUIRE(t.node_count() <= p.node_cap);
    FAST_REQUIRE(t.stats().peak_nodes >= t.node_count());
    if (p.node_cap) FAST_REQUIRE(t.stats().peak_nodes <= p.node_cap);
    uint64_t sum = 0;
    std::vector<uint64_t> internal_at(h, 0);
    for (size_t j = 0; j < nd.size(); ++j) {
      const RapNode& v = nd[j];
      sum += v.count;
      // Structure.
      FAST_REQUIRE(v.depth <= h);
      const unsigned low = p.range_bits - 2 * v.depth;
      const uint32_t span = low >= 32 ? 0xffffffffu : (uint32_t{1} << low) - 1;
      FAST_REQUIRE((v.prefix & span) == 0u);
      FAST_REQUIRE(v.last == (v.prefix | span));
      FAST_REQUIRE((j == 0) == (v.parent < 0));
      if (!v.leaf()) {
        FAST_REQUIRE(v.depth < h);
        ++internal_at[v.depth];
        for (unsigned c = 0; c < 4; ++c) {
          const RapNode& k = nd.at(v.children[c]);
          FAST_REQUIRE(v.children[c] >= 0);
          FAST_REQUIRE(k.parent == static_cast<int>(j));
          FAST_REQUIRE(k.depth == v.depth + 1);
          FAST_REQUIRE(k.prefix == (v.prefix | c << (low - 2)));
        }
        // Every internal node's subtree outweighs T at the last pass.
        FAST_REQUIRE(v.subtree > tm);
      } else {
        for (unsigned c = 0; c < 4; ++c) FAST_REQUIRE(v.children[c] == -1);
      }
      // Two-sided bound, always: subtree <= true <= subtree + ancestors.
      const uint64_t tr = ex.range(v.prefix, v.last);
      FAST_REQUIRE(v.subtree <= tr);
      FAST_REQUIRE(tr <= v.subtree + v.ancestors);
      if (exact_bounds) {
        if (v.leaf() && v.depth < h) FAST_REQUIRE(v.count <= tn);
        if (!v.leaf()) FAST_REQUIRE(v.count <= tn + wmax);
        FAST_REQUIRE(bool(tr - v.subtree <= u128{v.depth} * (tn + wmax)));
        // eps * n + H * wmax, in Q0.16 to stay exact.
        FAST_REQUIRE(bool(u128{tr - v.subtree} * 65536 <= u128{p.eps_q16} * n + u128{65536} * h * wmax));
      }
    }
    FAST_REQUIRE(sum == n);
    // Node bound: per depth, disjoint subtrees each above T(n at last pass).
    uint64_t bound = 1;
    for (unsigned d = 0; d < h; ++d) {
      const uint64_t cap_d = std::min<uint64_t>(d < 32 ? uint64_t{1} << std::min(2 * d, 62u) : ~0ull, n / (tm + 1));
      FAST_REQUIRE(internal_at[d] <= cap_d);
      bound += 4 * cap_d;
    }
    FAST_REQUIRE(t.node_count() <= bound);
    // Range estimates.
    const uint32_t mask = p.range_bits == 32 ? 0xffffffffu : (uint32_t{1} << p.range_bits) - 1;
    for (int k = 0; k < 8; ++k) {
      uint32_t a = static_cast<uint32_t>(rng()) & mask, b = static_cast<uint32_t>(rng()) & mask;
      if (k == 0) a = b;  // a single value
      if (a > b) std::swap(a, b);
      const RapEstimate e = t.estimate(a, b);
      const uint64_t tr = ex.range(a, b);
      FAST_REQUIRE(e.lower <= tr);
      FAST_REQUIRE(tr <= e.upper);
      if (exact_bounds) FAST_REQUIRE(bool(e.upper - e.lower <= u128{2} * h * (tn + wmax)));
    }
    // Hot ranges: the definition recomputed recursively, and the carry's bounds.
    const uint32_t frac = static_cast<uint32_t>(rng() % 2) ? 6554u : 655u;
    const uint64_t cut = static_cast<uint64_t>(u128{frac} * n / 65536);
    std::vector<char> hot(nd.size(), 0);
    std::vector<uint64_t> carry(nd.size(), 0);
    std::function<uint64_t(int)> rec = [&](int j) -> uint64_t {
      uint64_t c = nd[j].count;
      if (!nd[j].leaf())
        for (int k : nd[j].children) {
          const uint64_t ck = rec(k);
          if (!hot[k]) c += ck;
        }
      carry[j] = c;
      hot[j] = c > cut;
      return c;
    };
    rec(0);
    const std::vector<RapHotRange> hr = t.hot_ranges(frac);
    size_t k = 0;
    for (size_t j = 0; j < nd.size(); ++j) {
      if (!hot[j]) continue;
      FAST_REQUIRE(k < hr.size());
      FAST_REQUIRE(hr[k].node == static_cast<int>(j));
      FAST_REQUIRE(hr[k].carry == carry[j]);
      // Exclusive region R = range minus the maximal hot descendants h:
      // carry - sum(anc(h)) <= true(R) <= carry + anc(v).
      uint64_t true_r = ex.range(nd[j].prefix, nd[j].last), slack_lo = 0;
      std::function<void(int)> sub = [&](int i) {
        for (int c : nd[i].children) {
          if (c < 0) continue;
          if (hot[c]) {
            true_r -= ex.range(nd[c].prefix, nd[c].last);
            slack_lo += nd[c].ancestors;
          } else {
            sub(c);
          }
        }
      };
      sub(static_cast<int>(j));
      FAST_REQUIRE(true_r + slack_lo >= carry[j]);
      FAST_REQUIRE(true_r <= carry[j] + nd[j].ancestors);
      ++k;
    }
    FAST_REQUIRE(k == hr.size());
  }
}

/// The tree equals the reference node for node (the strings only on a mismatch).
void require_same(const RapTree& t, const NaiveRap& ref, const std::string& where) {
  std::vector<std::tuple<uint32_t, unsigned, uint64_t>> a;
  for (const RapNode& v : t.nodes()) a.emplace_back(v.prefix, v.depth, v.count);
  if (a != ref.tuples()) BOOST_TEST_REQUIRE(tree_str(t) == ref.str(), where);
}

struct RunSummary {
  uint64_t peak = 0, splits = 0, skipped = 0, merges = 0, checks = 0;
};

/// Runs one stream through RapTree and NaiveRap, checking as it goes.
/// every = true: all invariants after every event; else at the first 300
/// events, every 250th, and around every merge pass.
RunSummary run_stream(const RapParams& p, const std::vector<Ev>& evs, const std::string& name, bool every,
                      uint64_t seed) {
  RapTree t(p);
  NaiveRap ref(p);
  const uint32_t mask = p.range_bits == 32 ? 0xffffffffu : (uint32_t{1} << p.range_bits) - 1;
  Exact ex(evs, mask);
  std::mt19937_64 rng(seed ^ 0x5eed);
  uint64_t wmax = 0;
  uint64_t base_splits = 0;  // splits at the last pass
  RunSummary s;
  const std::string where = name + " W=" + std::to_string(p.range_bits) + " E=" + std::to_string(p.eps_q16) +
                            " cap=" + std::to_string(p.node_cap) + " mf=" + std::to_string(p.merge_first) +
                            " seed=" + std::to_string(seed);
  for (size_t i = 0; i < evs.size(); ++i) {
    const Ev& e = evs[i];
    const bool pre_pass = !every && t.n() + e.w >= t.next_merge();
    if (pre_pass) {  // the largest tree of a period is the one before its pass
      check_tree(t, ex, wmax, rng, where + " before event " + std::to_string(i));
      ++s.checks;
    }
    const uint64_t splits_before = t.stats().splits;
    const uint64_t tm_before = T_of(p, t.stats().last_pass_n);
    const RapUpdate u = t.add(e.v, e.w);
    ref.add(e.v, e.w);
    ex.add(e.v & mask, e.w);
    wmax = std::max(wmax, e.w);
    // Splits since the last pass: distinct internal nodes, each holding more
    // than T(n at that pass), so at most n / (T + 1) of them.
    if (u.capacity_pass) base_splits = splits_before;
    else if (!u.scheduled_pass)
      FAST_REQUIRE(t.stats().splits - base_splits <= t.n() / (tm_before + 1));
    if (u.scheduled_pass) {
      FAST_REQUIRE(t.stats().splits - base_splits <= t.n() / (tm_before + 1));  // the period it closes
      base_splits = t.stats().splits;
    }
    const bool check = every || i < 300 || i % 250 == 0 || u.scheduled_pass || u.capacity_pass;
    if (every || i < 300 || i % 250 == 0 || u.scheduled_pass)
      require_same(t, ref, where + " event " + std::to_string(i));
    if (check) {
      check_tree(t, ex, wmax, rng, where + " after event " + std::to_string(i));
      ++s.checks;
    }
  }
  require_same(t, ref, where + " end");
  BOOST_TEST(t.stats().splits == ref.splits);
  BOOST_TEST(t.stats().splits_skipped == ref.skipped);
  t.finalize();
  ref.pass();
  require_same(t, ref, where + " after finalize");
  BOOST_TEST(t.stats().merges == ref.merges);
  check_tree(t, ex, wmax, rng, where + " after finalize");
  s.peak = t.stats().peak_nodes;
  s.splits = t.stats().splits;
  s.skipped = t.stats().splits_skipped;
  s.merges = t.stats().merges;
  return s;
}

// ---- streams (values are 32-bit; W < 32 takes them modulo 2^W)

double unit(std::mt19937_64& r) { return static_cast<double>(r() >> 11) * (1.0 / 9007199254740992.0); }

std::vector<Ev> uniform_stream(std::mt19937_64& r, size_t len) {
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) v.push_back({static_cast<uint32_t>(r()), 1});
  return v;
}
// Zipf-like: 2000 random values, index = 2000 * u^4 (the head dominates).
std::vector<Ev> skewed_stream(std::mt19937_64& r, size_t len) {
  std::vector<uint32_t> vals(2000);
  for (auto& x : vals) x = static_cast<uint32_t>(r());
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) {
    const double u = unit(r);
    v.push_back({vals[static_cast<size_t>(2000 * u * u * u * u)], 1 + r() % 8});
  }
  return v;
}
// Code-like: 16 functions, calls walk their basic blocks in order, loops
// repeat a run of blocks; weight = instructions per block.
std::vector<Ev> code_stream(std::mt19937_64& r, size_t len) {
  struct Fn {
    uint32_t base;
    unsigned blocks, stride;
  };
  std::vector<Fn> fns(16);
  for (auto& f : fns) f = {0x00400000u + static_cast<uint32_t>(r() % 0x100000) * 16, 8 + unsigned(r() % 32),
                           4 + 4 * unsigned(r() % 8)};
  std::vector<Ev> v;
  while (v.size() < len) {
    const Fn& f = fns[static_cast<size_t>(16 * unit(r) * unit(r))];  // skewed call mix
    const unsigned iters = 1 + unsigned(r() % 20);
    const unsigned lo = unsigned(r() % f.blocks), hi = lo + unsigned(r() % (f.blocks - lo));
    for (unsigned it = 0; it < iters && v.size() < len; ++it)
      for (unsigned b = lo; b <= hi && v.size() < len; ++b) v.push_back({f.base + b * f.stride, 1 + r() % 30});
  }
  return v;
}
std::vector<Ev> single_hot_stream(std::mt19937_64& r, size_t len) {
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) v.push_back({r() % 10 ? 0xdeadbeefu : static_cast<uint32_t>(r()), 1});
  return v;
}
std::vector<Ev> extremes_stream(std::mt19937_64&, size_t len) {
  const uint32_t x[4] = {0x00000000u, 0xffffffffu, 0x7fffffffu, 0x80000000u};
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) v.push_back({x[i % 4], 1});
  return v;
}
// Phases: each phase makes 3 new random values hot (80%), the rest uniform;
// old hot subtrees go cold and must merge back.
std::vector<Ev> phase_stream(std::mt19937_64& r, size_t len) {
  std::vector<Ev> v;
  uint32_t hot[3] = {};
  for (size_t i = 0; i < len; ++i) {
    if (i % 4000 == 0)
      for (auto& h : hot) h = static_cast<uint32_t>(r());
    v.push_back({r() % 5 ? hot[r() % 3] : static_cast<uint32_t>(r()), 1});
  }
  return v;
}
std::vector<Ev> heavy_weight_stream(std::mt19937_64& r, size_t len) {
  std::vector<uint32_t> spots(64);
  for (auto& x : spots) x = static_cast<uint32_t>(r());
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) v.push_back({spots[r() % 64] + static_cast<uint32_t>(r() % 256), 1 + r() % (1u << 20)});
  return v;
}
// Sequential scans: 0, 1, 2, ... then a scan with a high-bit stride.
std::vector<Ev> scan_stream(std::mt19937_64&, size_t len) {
  std::vector<Ev> v;
  for (size_t i = 0; i < len; ++i) v.push_back({i < len / 2 ? static_cast<uint32_t>(i) : static_cast<uint32_t>(i) << 20, 1});
  return v;
}
// Sawtooth: bursts of 64 copies of one value, then a new value.
std::vector<Ev> burst_stream(std::mt19937_64& r, size_t len) {
  std::vector<Ev> v;
  uint32_t x = 0;
  for (size_t i = 0; i < len; ++i) {
    if (i % 64 == 0) x = static_cast<uint32_t>(r());
    v.push_back({x, 1});
  }
  return v;
}

using StreamFn = std::vector<Ev> (*)(std::mt19937_64&, size_t);
struct Named {
  const char* name;
  StreamFn fn;
};
const Named kStreams[] = {{"uniform", uniform_stream},   {"skewed", skewed_stream},       {"code", code_stream},
                          {"single_hot", single_hot_stream}, {"extremes", extremes_stream}, {"phases", phase_stream},
                          {"heavy_weight", heavy_weight_stream}, {"scan", scan_stream},   {"burst", burst_stream}};

// W = 32 against exact counts and the naive reference; the spec's default
// parameters, eps 1%, capacity-bound and an early, frequent merge schedule.
BOOST_AUTO_TEST_CASE(RandomAndAdversarialStreamsKeepEveryBoundAt32Bits) {
  const uint64_t seed = 20240501;
  const RapParams params[] = {P(32, 6554, 0, 1024), P(32, 655, 0, 1024), P(32, 6554, 512, 1024),
                              P(32, 655, 64, 64), P(32, 3277, 0, 1)};
  for (const Named& s : kStreams) {
    std::mt19937_64 rng(seed);
    const std::vector<Ev> evs = s.fn(rng, 20000);
    for (const RapParams& p : params) {
      const RunSummary r = run_stream(p, evs, s.name, false, seed);
      BOOST_TEST_MESSAGE("rap " << s.name << " E=" << p.eps_q16 << " cap=" << p.node_cap << " mf=" << p.merge_first
                                << ": peak " << r.peak << " splits " << r.splits << " skipped " << r.skipped
                                << " merges " << r.merges << " checks " << r.checks);
    }
  }
}

// Small value spaces, every invariant and tree equality after every event,
// over a grid of eps, capacity and merge schedules.
BOOST_AUTO_TEST_CASE(SmallWidthStreamsMatchTheReferenceAfterEveryEvent) {
  const uint64_t seed = 77;
  const unsigned widths[] = {2, 4, 8};
  const uint32_t epss[] = {0, 6554, 32768, 65535};
  const uint32_t caps[] = {0, 5, 9, 21, 64};
  const uint64_t mfs[] = {1, 8, 100};
  size_t combo = 0;
  for (unsigned w : widths)
    for (uint32_t e : epss)
      for (uint32_t cap : caps)
        for (uint64_t mf : mfs) {
          const Named& s = kStreams[combo++ % (sizeof kStreams / sizeof kStreams[0])];
          std::mt19937_64 rng(seed + combo);
          const std::vector<Ev> evs = s.fn(rng, w == 8 ? 2000 : 500);
          run_stream(P(w, e, cap, mf), evs, s.name, true, seed + combo);
        }
}

BOOST_AUTO_TEST_SUITE_END()
