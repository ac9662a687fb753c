// Directed tests of the phase detector's functional model (DetectorAlgo,
// run_detector) against docs/phase_detector.md. Every expected value is
// worked out by hand in the comments.
#include <boost/test/unit_test.hpp>

#include <memory>
#include <stdexcept>
#include <vector>

#include "detector_algo.h"

using namespace hwprof::model;

namespace {

/// 4 counters (2-bit index: keys 0..3 map to themselves), 4-bit signature
/// elements (scaled total 16), `entries` table entries, interval 10,
/// threshold 4.
DetectorParams small(unsigned entries = 2, uint32_t threshold = 4) {
  DetectorParams p;
  p.counters = 4;
  p.sig_w = 4;
  p.entries = entries;
  p.interval = 10;
  p.threshold = threshold;
  return p;
}

using Sig = std::vector<uint16_t>;

/// One interval with a single feature of weight 10 on `key`.
DetectorResult one(DetectorAlgo& d, uint32_t key) {
  d.feature(key, 10);
  auto r = d.tick(10);
  BOOST_REQUIRE(r.has_value());
  return *r;
}

BranchRecord rec(uint8_t kind, uint32_t pc, uint32_t target, bool taken, uint16_t insns) {
  BranchRecord r;
  r.kind = kind;
  r.pc = pc;
  r.target = target;
  r.taken = taken;
  r.ilen = 2;
  r.insns = insns;
  return r;
}

RecordSource from(const std::vector<BranchRecord>& v) {
  auto i = std::make_shared<size_t>(0);
  return [v, i](BranchRecord& r) {
    if (*i >= v.size()) return false;
    r = v[(*i)++];
    return true;
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detector_algo)

BOOST_AUTO_TEST_CASE(FoldXorsIndexSlices) {
  BOOST_TEST(DetectorAlgo::fold(0, 5) == 0u);
  BOOST_TEST(DetectorAlgo::fold(0x1f, 5) == 31u);
  // 0x21 = slices 00001 (bits 4:0) and 00001 (bits 9:5): they cancel.
  BOOST_TEST(DetectorAlgo::fold(0x21, 5) == 0u);
  // All ones: six full 5-bit slices cancel pairwise; bits 31:30 give 3.
  BOOST_TEST(DetectorAlgo::fold(0xffffffffu, 5) == 3u);
  // 2-bit slices of 0x04010080: bit 7 -> 2, bit 16 -> 1, bit 26 -> 1.
  BOOST_TEST(DetectorAlgo::fold(0x04010080u, 2) == 2u);
}

BOOST_AUTO_TEST_CASE(PathKeyMixesStartDirsLength) {
  PathEntry p;
  p.start = 0x1000;
  p.length = 1;
  p.dirs = 1;
  // 0x1000 ^ rotl(1, 16) = 0x10000 ^ 1 << 26 = 0x4000000.
  BOOST_TEST(DetectorAlgo::path_key(p) == 0x04011000u);
  p.dirs = 0x00030000;  // rotates down to bits 1:0
  p.length = 0;
  BOOST_TEST(DetectorAlgo::path_key(p) == 0x00001003u);
}

BOOST_AUTO_TEST_CASE(SignatureScalesToFixedTotal) {
  // T = 4, 16/4 = 4 per unit.
  BOOST_TEST(DetectorAlgo::signature({1, 1, 2, 0}, 4) == (Sig{4, 4, 8, 0}));
  // T = 3: 16/3 = 5.33 -> 5, 32/3 = 10.67 -> 10 (floor).
  BOOST_TEST(DetectorAlgo::signature({1, 2}, 4) == (Sig{5, 10}));
  // A single non-zero counter would scale to 16: clamped to 15.
  BOOST_TEST(DetectorAlgo::signature({3, 0}, 4) == (Sig{15, 0}));
  BOOST_TEST(DetectorAlgo::signature({0, 0, 0}, 4) == (Sig{0, 0, 0}));
  // Large counters: T = 2^33 - 2, each half: 1024 * (2^32-1) / (2^33-2) = 512.
  BOOST_TEST(DetectorAlgo::signature({0xffffffffu, 0xffffffffu}, 10) == (Sig{512, 512}));
}

BOOST_AUTO_TEST_CASE(DistanceIsManhattan) {
  BOOST_TEST(DetectorAlgo::distance({4, 4, 8, 0}, {0, 8, 8, 0}) == 8u);
  BOOST_TEST(DetectorAlgo::distance({15, 0}, {0, 15}) == 30u);
  BOOST_TEST(DetectorAlgo::distance({1, 2, 3}, {1, 2, 3}) == 0u);
}

BOOST_AUTO_TEST_CASE(ParamsAndThresholdRange) {
  DetectorParams p = small();
  BOOST_TEST(p.dist_w() == 6u);
  BOOST_TEST(p.no_distance() == 63u);
  BOOST_TEST(!p.legal_threshold(0));
  BOOST_TEST(p.legal_threshold(1));
  BOOST_TEST(p.legal_threshold(32));  // 2^(4+1)
  BOOST_TEST(!p.legal_threshold(33));
  // Wait 2 + Sum 4 + Div 4*(4+1) + Search 2*4+3 + Match 1 + Touch 1 +
  // Decide 1 + Pred 1 + Capt 1 = 42; +5 Write.
  BOOST_TEST(p.busy_cycles(false) == 42u);
  BOOST_TEST(p.busy_cycles(true) == 47u);
  DetectorParams bad = small();
  bad.counters = 3;
  BOOST_CHECK_THROW(DetectorAlgo{bad}, std::invalid_argument);
  bad = small();
  bad.threshold = 0;
  BOOST_CHECK_THROW(DetectorAlgo{bad}, std::invalid_argument);
  bad = small();
  bad.entries = 0;
  BOOST_CHECK_THROW(DetectorAlgo{bad}, std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(FeaturesSaturate) {
  DetectorAlgo d(small());
  d.feature(1, 0xffffffffu);
  d.feature(1, 5);
  BOOST_TEST(d.acc()[1] == 0xffffffffu);
}

BOOST_AUTO_TEST_CASE(IntervalEndsAtBoundaryWithoutDrift) {
  DetectorAlgo d(small());
  BOOST_TEST(!d.tick(7).has_value());  // 7
  BOOST_TEST(d.tick(7).has_value());   // 14 >= 10 -> ends, count 4
  BOOST_TEST(d.interval_counter().count() == 4u);
  BOOST_TEST(d.tick(6).has_value());  // 10 >= 10 -> ends, count 0
  BOOST_TEST(!d.tick(9).has_value());
}

BOOST_AUTO_TEST_CASE(AllocatesMatchesEvictsLruAndPredicts) {
  DetectorAlgo d(small(2));
  // 1: {15,0,0,0}; empty table -> new phase 0, distance 63 (none).
  auto r = one(d, 0);
  BOOST_TEST(r.phase == 0);
  BOOST_TEST(r.changed);
  BOOST_TEST(!r.matched);
  BOOST_TEST(r.distance == 63u);
  BOOST_TEST(!r.scored);
  BOOST_TEST(r.predicted == 0);  // untrained: stays
  BOOST_TEST(d.acc() == (std::vector<uint32_t>{0, 0, 0, 0}));  // cleared
  // 2: {0,15,0,0}: distance 30 to entry 0 -> new phase 1 in entry 1.
  r = one(d, 1);
  BOOST_TEST(r.phase == 1);
  BOOST_TEST(r.changed);
  BOOST_TEST(r.distance == 30u);
  BOOST_TEST(r.scored);
  BOOST_TEST(!r.correct);        // predicted 0
  BOOST_TEST(r.predicted == 1);  // slot 1 untrained (slot 0 := 1)
  // 3: {15,0,0,0}: distance 0 to entry 0 -> phase 0, entry 0 most recent.
  r = one(d, 0);
  BOOST_TEST(r.phase == 0);
  BOOST_TEST(r.matched);
  BOOST_TEST(r.distance == 0u);
  BOOST_TEST(r.changed);
  BOOST_TEST(!r.correct);        // predicted 1
  BOOST_TEST(r.predicted == 1);  // slot 0 holds 1
  BOOST_TEST(d.table()[0].age == 0u);
  BOOST_TEST(d.table()[1].age == 1u);
  // 4: {0,0,15,0}: 30 to both -> new phase 2 replaces the LRU entry 1.
  r = one(d, 2);
  BOOST_TEST(r.phase == 2);
  BOOST_TEST(!r.matched);
  BOOST_TEST(r.distance == 30u);
  BOOST_TEST(d.table()[1].phase == 2);
  BOOST_TEST(d.table()[0].phase == 0);
  BOOST_TEST(r.correct == false);  // predicted 1
  // 5: {0,15,0,0}: phase 1 was evicted -> new phase 3 into entry 0 (LRU).
  r = one(d, 1);
  BOOST_TEST(r.phase == 3);
  BOOST_TEST(d.table()[0].phase == 3);
  // 6: {0,0,15,0} -> phase 2 again (entry 1).
  r = one(d, 2);
  BOOST_TEST(r.phase == 2);
  BOOST_TEST(r.matched);
  BOOST_TEST(d.next_phase() == 4);
  BOOST_TEST(d.phases_allocated() == 4u);
}

BOOST_AUTO_TEST_CASE(SamePhaseTwiceIsNotAChangeAndTrainsPredictor) {
  DetectorAlgo d(small(4));
  one(d, 0);           // phase 0
  auto r = one(d, 0);  // phase 0 again
  BOOST_TEST(r.phase == 0);
  BOOST_TEST(!r.changed);
  BOOST_TEST(r.scored);
  BOOST_TEST(r.correct);  // untrained slot predicted "stays"
  one(d, 1);              // phase 1: slot 0 := 1
  r = one(d, 0);          // phase 0: slot 1 := 0, predicts slot 0 = 1
  BOOST_TEST(r.predicted == 1);
  r = one(d, 1);  // phase 1 was predicted
  BOOST_TEST(r.correct);
  BOOST_TEST(r.predicted == 0);
}

BOOST_AUTO_TEST_CASE(MatchNeedsDistanceStrictlyBelowThreshold) {
  for (uint32_t thr : {15u, 16u}) {
    DetectorAlgo d(small(2, thr));
    one(d, 0);  // {15,0,0,0}, phase 0
    // T = 4 -> {8,4,4,0}: distance 7 + 4 + 4 = 15.
    d.feature(0, 2);
    d.feature(1, 1);
    d.feature(2, 1);
    auto r = d.tick(10);
    BOOST_REQUIRE(r.has_value());
    BOOST_TEST(r->distance == 15u);
    BOOST_TEST(r->matched == (thr == 16));
    BOOST_TEST(r->phase == (thr == 16 ? 0 : 1));
  }
}

BOOST_AUTO_TEST_CASE(TieGoesToLowestIndexAndMatchedSignatureIsKept) {
  DetectorAlgo d(small(4, 32));
  one(d, 0);  // entry 0: {15,0,0,0}, phase 0
  d.set_threshold(1);
  one(d, 1);  // entry 1: {0,15,0,0}, phase 1 (distance 30 >= 1)
  d.set_threshold(31);
  // {8,8,0,0} (T=2, 16/2): distance 7+8 = 15 to both -> entry 0 wins.
  d.feature(0, 1);
  d.feature(1, 1);
  auto r = d.tick(10);
  BOOST_REQUIRE(r.has_value());
  BOOST_TEST(r->phase == 0);
  BOOST_TEST(r->distance == 15u);
  BOOST_TEST(d.table()[0].sig == (Sig{15, 0, 0, 0}));  // not updated
}

BOOST_AUTO_TEST_CASE(RestartForgetsEverything) {
  DetectorAlgo d(small());
  one(d, 0);
  one(d, 1);
  d.feature(2, 3);
  d.tick(3);
  d.restart();
  BOOST_TEST(d.next_phase() == 0);
  BOOST_TEST(d.interval_counter().count() == 0u);
  BOOST_TEST(d.acc()[2] == 0u);
  auto r = one(d, 1);
  BOOST_TEST(r.phase == 0);
  BOOST_TEST(!r.scored);
}

BOOST_AUTO_TEST_CASE(BbvRunAccumulatesRecordInsnsByPc) {
  DetectorParams p = small();
  // pc 1 and pc 2, 5 instructions each: one interval, {0,8,8,0}.
  auto res = run_detector(p, from({rec(0, 1, 0, false, 5), rec(0, 2, 0, false, 5), rec(0, 1, 0, false, 3)}));
  BOOST_REQUIRE(res.size() == 1u);
  BOOST_TEST(res[0].phase == 0);
}

BOOST_AUTO_TEST_CASE(PathRunAccumulatesEmittedPathsBeforeTheTick) {
  DetectorParams p = small();
  p.mode = DetectorMode::Path;
  p.interval = 8;
  // BL: a backward jmp does update, pop, push. Record 1 finds the stack
  // empty: an incomplete path {0x100} is emitted (ignored), 0x80 pushed.
  // Record 2 emits {start 0x80, length 1, dirs 1, insns 4}: key 0x04010080,
  // index 2 (FoldXorsIndexSlices); its 4 instructions plus record 1's reach
  // the boundary 8 in the same record, so the interval holds {0,0,4,0}.
  DetectorRunStats st;
  auto res = run_detector(p, from({rec(1, 0x100, 0x80, true, 4), rec(1, 0x100, 0x80, true, 4)}), Ppcr::kBl, 16,
                          32, &st);
  BOOST_REQUIRE(res.size() == 1u);
  BOOST_TEST(st.ignored == 1u);
  BOOST_TEST(st.features == 1u);
  // A second run whose only path lands on index 2 with another weight
  // matches it: same signature {0,0,15,0}.
  DetectorAlgo d(p);
  d.feature(0x04010080u, 4);
  BOOST_TEST(d.acc()[2] == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
