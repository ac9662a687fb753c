// Lock-step tests of the shared phase cells against their cycle models:
// markov_predictor (sim_models/phase/markov.h) and interval_counter
// (interval.h). Directed cases worked out by hand from hwprof-spec.md
// section 5 and docs/phase.md, then seeded random stimulus, then every
// shipped trace's interval boundaries and a phase stream derived from them.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "branch_record.h"
#include "gtest_util.h"
#include "markov_lockstep.h"
#include "trace_source.h"

using hwprof::model::IntervalCounter;
using hwprof::model::MarkovAlgo;
using hwprof::model::MarkovPredictor;
using hwprof::model::MarkovResult;
using hwprof::tb::IntervalConfig;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::SimEnv;

namespace {

std::string test_name() {
  const auto* i = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string n = std::string(i->test_suite_name()) + "_" + i->name();
  for (char& c : n)
    if (c == '/') c = '_';
  return n;
}

// ------------------------------------------------------------ Markov: model

TEST(MarkovAlgoModel, AlternatingPhasesAreLearnedAfterOneRound) {
  // A B A B A: the first A and B are unscored / predicted to stay; from the
  // second A on every prediction is right.
  MarkovAlgo m(256);
  const uint16_t A = 3, B = 7;
  EXPECT_EQ(m.update(A), (MarkovResult{A, false, false}));  // nothing to score; untrained: stays A
  EXPECT_EQ(m.update(B), (MarkovResult{B, true, false}));   // predicted A, was B; slot[A] := B; slot[B] untrained
  EXPECT_EQ(m.update(A), (MarkovResult{B, true, false}));   // predicted B, was A; slot[B] := A; slot[A] = B
  EXPECT_EQ(m.update(B), (MarkovResult{A, true, true}));    // predicted B: right
  EXPECT_EQ(m.update(A), (MarkovResult{B, true, true}));
}

TEST(MarkovAlgoModel, SharedSlotTrainsBeforePredicting) {
  // 4 slots: phases 1 and 5 share slot 1. After 1 -> 5 the slot holds 5, and
  // the prediction made at 5 reads that slot: 5.
  MarkovAlgo m(4);
  m.update(1);
  const MarkovResult r = m.update(5);
  EXPECT_TRUE(m.trained(1));
  EXPECT_EQ(m.slot(1), 5);
  EXPECT_EQ(r.predicted, 5);
  EXPECT_FALSE(r.correct);  // predicted 1 (untrained slot of 1), was 5
}

TEST(MarkovAlgoModel, ClearForgetsTableAndHistory) {
  MarkovAlgo m(256);
  m.update(1);
  m.update(2);
  m.clear();
  EXPECT_FALSE(m.trained(1));
  EXPECT_EQ(m.update(1), (MarkovResult{1, false, false}));
  EXPECT_THROW(MarkovAlgo(3), std::invalid_argument);
}

// -------------------------------------------------------------- Markov: RTL

MarkovPredictor::In upd(uint16_t p) { return {false, true, p}; }
MarkovPredictor::In idle() { return {}; }

TEST(MarkovPredictorRtl, ResultOneCycleAfterEachBackToBackUpdate) {
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_markov_lockstep(256, env, test_name(), env.seed);
  const uint16_t A = 3, B = 7;
  const std::vector<uint16_t> seq = {A, B, A, B, A, A, A, B};
  // Hand values: the first five as in AlternatingPhasesAreLearnedAfterOneRound;
  // 6th A: predicted slot[A] = B, wrong; slot[A] := A; predicts A.
  // 7th A: right; slot[A] := A; predicts A.
  // 8th B: wrong; slot[A] := B; predicts slot[B] = A (trained at the 3rd).
  const std::vector<MarkovResult> want = {{A, false, false}, {B, true, false}, {B, true, false},
                                          {A, true, true},   {B, true, true},  {A, true, false},
                                          {A, true, true},   {A, true, false}};
  std::vector<MarkovResult> got;
  for (size_t i = 0; i <= seq.size(); ++i) {
    auto o = ls.step(i < seq.size() ? upd(seq[i]) : idle());
    EXPECT_EQ(o.res_valid, i > 0) << "cycle " << i;
    if (o.res_valid) got.push_back({o.res_pred, o.res_scored, o.res_correct});
  }
  EXPECT_EQ(got, want);
}

TEST(MarkovPredictorRtl, SharedSlotSameCyclePredictsThePhase) {
  // prev and p share slot 1 of 4: the RAM is written and read at the same
  // address in one cycle; the prediction must be p, not the RAM word.
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_markov_lockstep(4, env, test_name(), env.seed);
  ls.step(upd(1));
  ls.step(upd(2));  // slot[1] := 2
  ls.step(upd(1));  // slot[2] := 1; predict slot[1] = 2
  auto o = ls.step(upd(5));  // slot[1] := 5 and read slot[1] in the same cycle
  EXPECT_EQ(o.res_pred, 2);
  o = ls.step(idle());
  EXPECT_TRUE(o.res_valid);
  EXPECT_EQ(o.res_pred, 5);
  EXPECT_FALSE(o.res_correct);  // predicted 2, was 5
}

TEST(MarkovPredictorRtl, ClearDropsSameCycleUpdateButNotTheResultInFlight) {
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_markov_lockstep(256, env, test_name(), env.seed);
  ls.step(upd(1));
  ls.step(upd(2));
  auto o = ls.step({true, true, 9});  // clear with an update: the update is dropped
  EXPECT_TRUE(o.res_valid);           // the result of update 2 still appears
  EXPECT_EQ(o.res_pred, 2);
  o = ls.step(upd(2));
  EXPECT_FALSE(o.res_valid);
  o = ls.step(idle());
  ASSERT_TRUE(o.res_valid);
  EXPECT_FALSE(o.res_scored);  // history forgotten
  EXPECT_EQ(o.res_pred, 2);    // table forgotten: slot[2] would say 1
}

TEST(MarkovPredictorRtl, ResetMidStream) {
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_markov_lockstep(256, env, test_name(), env.seed);
  for (uint16_t p : {1, 2, 1, 2}) ls.step(upd(p));
  ls.reset();
  ls.step(upd(1));
  auto o = ls.step(idle());
  EXPECT_FALSE(o.res_scored);
  EXPECT_EQ(o.res_pred, 1);
}

// The trained-bit RAM form (TrainRam = 1: e64, e8, e2): words of trained
// bits with one live flip-flop per word. Slots trained before a clear or a
// reset keep their bits in the RAM; the dead word must read untrained, the
// first training into it rewrites the whole word (stale bits cleared) in
// the same cycle as the read of another slot of that word, and the next
// training into the now live word writes one bit while another bit of the
// word is read. Slot ids are phase ids < entries, so slots 0 and 1 share
// word 0 in every form and slot entries-1 is in the last word.
TEST(MarkovPredictorRtl, TrainedRamDeadWordsReadUntrained) {
  const SimEnv env = SimEnv::from_env();
  for (unsigned entries : {64u, 8u, 2u}) {
    for (bool by_reset : {false, true}) {
      SCOPED_TRACE(testing::Message() << "entries " << entries << (by_reset ? " reset" : " clear"));
      auto ls = hwprof::tb::make_markov_lockstep(entries, env, test_name() + "_e" + std::to_string(entries),
                                                 env.seed);
      const uint16_t last = static_cast<uint16_t>(entries - 1);
      // Train slot 0 := 1, slot 1 := 0 and the last slot := 0 (last's word
      // is word 0 only at 2 slots, where last == 1).
      for (uint16_t p : {uint16_t{0}, uint16_t{1}, uint16_t{0}, last, uint16_t{0}, uint16_t{1}}) ls.step(upd(p));
      ls.step(idle());
      if (by_reset)
        ls.reset();
      else
        ls.step({true, false, 0});
      // 1: untrained (a stale 1 in the RAM), predicts itself.
      auto o = ls.step(upd(1));
      // 0: trains slot 1 := 0 (dead word 0: the whole word is written) while
      // slot 0's bit (stale 1) is read: predicts 0.
      o = ls.step(upd(0));
      ASSERT_TRUE(o.res_valid);
      EXPECT_EQ(o.res_pred, 1);
      EXPECT_FALSE(o.res_scored);
      // 1: trains slot 0 := 1 (live word: one bit) while slot 1's bit (just
      // trained) is read: predicts slot 1 = 0.
      o = ls.step(upd(1));
      ASSERT_TRUE(o.res_valid);
      EXPECT_EQ(o.res_pred, 0);  // slot 0 untrained: the stale bit was cleared
      EXPECT_TRUE(o.res_scored);
      EXPECT_FALSE(o.res_correct);
      // last: trains slot 1 := last; the last slot (trained before, stale)
      // predicts itself unless it shares word 0 (2 slots: last == 1, same
      // slot: predicts itself too).
      o = ls.step(upd(last));
      ASSERT_TRUE(o.res_valid);
      EXPECT_EQ(o.res_pred, 0);  // slot 1 = 0, trained after the clear
      o = ls.step(upd(0));
      ASSERT_TRUE(o.res_valid);
      EXPECT_EQ(o.res_pred, last);  // the last slot read untrained
      o = ls.step(idle());
      ASSERT_TRUE(o.res_valid);
      EXPECT_EQ(o.res_pred, 1);  // slot 0 = 1, trained after the clear (live word)
    }
  }
}

TEST(MarkovPredictorRtl, RandomPhaseChains) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 16;
  for (unsigned entries : hwprof::tb::markov_configs()) {
    for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
      std::printf("markov entries=%u seed=%llu\n", entries, static_cast<unsigned long long>(s));
      auto ls = hwprof::tb::make_markov_lockstep(entries, env, test_name() + "_e" + std::to_string(entries), s);
      std::mt19937_64 rng(s);
      hwprof::tb::Throttle gap(s ^ 0x5a, env.idle_for(s));
      // A Markov chain over a few phases, with phase ids that alias modulo 4.
      const unsigned nphases = 2 + rng() % 12;
      std::vector<uint16_t> ids(nphases), next(nphases);
      for (auto& id : ids) id = static_cast<uint16_t>(rng() % 1024);
      for (auto& n : next) n = static_cast<uint16_t>(rng() % nphases);
      unsigned cur = 0, scored = 0;
      for (int c = 0; c < 4000; ++c) {
        MarkovPredictor::In in;
        if (!gap()) {
          in.upd_valid = true;
          in.upd_phase = ids[cur];
          cur = rng() % 4 ? next[cur] : static_cast<unsigned>(rng() % nphases);
        }
        in.clear = rng() % 500 == 0;
        if (rng() % 2000 == 0) ls.reset();
        ASSERT_NO_THROW({
          auto o = ls.step(in);
          scored += o.res_valid && o.res_scored;
        });
      }
      EXPECT_GT(scored, 100u);
    }
  }
}

TEST(MarkovPredictorRtl, ScoreboardCatchesAWrongModel) {
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_markov_lockstep(256, env, test_name(), env.seed);
  ls.step(upd(1));
  ls.step(upd(2));
  ls.model().reset();  // the model forgets, the RTL does not
  EXPECT_THROW(
      {
        ls.step(upd(1));
        ls.step(idle());
      },
      LockstepMismatch);
}

// ---------------------------------------------------- interval counter

IntervalCounter::In rec(uint32_t interval, uint32_t insns) { return {interval, false, true, insns}; }

TEST(IntervalCounterRtl, BoundariesDoNotDrift) {
  // Interval 10: 3+3+3 = 9 < 10; +3 = 12 ends (count 2); +25 = 27 ends once
  // (count 17); +1 = 18 ends (count 8); +1 = 9; +1 = 10 ends (count 0).
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_interval_lockstep({32, 40}, env, test_name(), env.seed);
  const std::vector<uint32_t> insns = {3, 3, 3, 3, 25, 1, 1, 1};
  const std::vector<bool> want = {false, false, false, true, true, true, false, true};
  for (size_t i = 0; i < insns.size(); ++i) EXPECT_EQ(ls.step(rec(10, insns[i])).end, want[i]) << "record " << i;
  EXPECT_EQ(ls.model().count(), 0u);
}

TEST(IntervalCounterRtl, RestartHasPriorityAndEndsNothing) {
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_interval_lockstep({32, 40}, env, test_name(), env.seed);
  ls.step(rec(10, 9));
  EXPECT_FALSE(ls.step({10, true, true, 5}).end);  // would end (14 >= 10), but restart wins
  EXPECT_FALSE(ls.step(rec(10, 9)).end);           // count was cleared: 9
  EXPECT_TRUE(ls.step(rec(10, 1)).end);
  EXPECT_FALSE(ls.step({10, false, false, 50}).end);  // no step, no end
}

TEST(IntervalCounterRtl, CountSaturates) {
  // IntervalW 8, CountW 18: interval 1 and records of 65535 instructions
  // grow the count by 65534 per record; it saturates at 2^18 - 1 and
  // every record still ends exactly one interval.
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_interval_lockstep({8, 18}, env, test_name(), env.seed);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(ls.step(rec(1, 65535)).end);
  EXPECT_EQ(ls.model().count(), (1u << 18) - 1);
  EXPECT_TRUE(ls.step(rec(200, 0)).end);  // still far past the boundary
}

TEST(IntervalCounterRtl, CarriesCrossTheAdderSplits) {
  // The RTL splits count + insns at bit 21 and count + insns - interval at
  // bit 21 (carry select, CountW 40): drive the count across both splits
  // and past 2^32, with boundaries on either side, in lock-step.
  const SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_interval_lockstep({32, 40}, env, test_name(), env.seed);
  // Interval 2^32 - 1 = 65535 * 65537: exactly the 65537th record of 65535
  // instructions ends it, and the count is then 0.
  for (uint32_t k = 1; k <= 65537; ++k) ASSERT_EQ(ls.step(rec(0xffffffffu, 65535)).end, k == 65537) << "record " << k;
  EXPECT_EQ(ls.model().count(), 0u);
  // Interval 1: each record ends one interval and adds 65534, so the count
  // crosses 2^21 (record 33) and 2^32 (record 65539).
  for (int k = 0; k < 70000; ++k) ASSERT_TRUE(ls.step(rec(1, 65535)).end);
  EXPECT_GT(ls.model().count(), uint64_t{1} << 32);
  // The interval changes without a restart: the count (4,587,380,000) is
  // past any 32-bit boundary, so the next record ends one; the count is then
  // 292,412,727, below the interval, and the next seven end none.
  uint64_t ends = 0;
  for (int k = 0; k < 8; ++k) ends += ls.step(rec(0xfffffff0u, 7)).end;
  EXPECT_EQ(ends, 1u);
  EXPECT_EQ(ls.model().count(), 292412776u);
  // Back from below: a count just under a boundary in the upper half.
  ls.step({3000000, true, false, 0});
  for (int k = 0; k < 45; ++k) ls.step(rec(3000000, 65535));  // 2,949,075: below, crosses 2^21
  EXPECT_FALSE(ls.step(rec(3000000, 50924)).end);              // 2,999,999
  EXPECT_TRUE(ls.step(rec(3000000, 1)).end);                   // 3,000,000 ends, count 0
  EXPECT_EQ(ls.model().count(), 0u);
}

TEST(IntervalCounterRtl, Random) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 8;
  for (const IntervalConfig& cfg : hwprof::tb::interval_configs()) {
    for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
      std::printf("interval_counter %s seed=%llu\n", cfg.name().c_str(), static_cast<unsigned long long>(s));
      auto ls = hwprof::tb::make_interval_lockstep(cfg, env, test_name() + "_" + cfg.name(), s);
      std::mt19937_64 rng(s);
      const uint32_t imax = cfg.interval_w >= 32 ? 100000 : 255;
      uint32_t interval = 1 + rng() % imax;
      unsigned ends = 0;
      for (int c = 0; c < 20000; ++c) {
        if (rng() % 1000 == 0) interval = 1 + rng() % imax;
        IntervalCounter::In in{interval, rng() % 3000 == 0, rng() % 4 != 0,
                               static_cast<uint32_t>(rng() % 8 == 0 ? rng() % 65536 : rng() % 64)};
        if (rng() % 5000 == 0) ls.reset();
        ASSERT_NO_THROW(ends += ls.step(in).end);
      }
      EXPECT_GT(ends, 0u);
    }
  }
}

// ------------------------------------------------------ shipped traces
//
// Every shipped trace: the interval boundaries of its records (interval
// 20,000 instructions) in lock-step, and a phase stream made from them (the
// phase of an interval is its most frequent branch pc, numbered in order of
// first appearance) through the Markov predictor in lock-step.

class PhaseCellsTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(PhaseCellsTrace, BoundariesAndPredictionsMatch) {
  const SimEnv env = SimEnv::from_env();
  const std::string name = test_name() + "_" + hwprof::tb::trace_test_name(GetParam());
  auto il = hwprof::tb::make_interval_lockstep({32, 40}, env, name + "_interval", env.seed);
  auto ml = hwprof::tb::make_markov_lockstep(256, env, name + "_markov", env.seed);
  auto src = hwprof::trace::branch_source(GetParam());
  hwprof::model::BranchRecord r;
  std::map<uint32_t, uint64_t> freq;
  std::map<uint32_t, uint16_t> ids;
  uint64_t records = 0, intervals = 0, insns = 0, scored = 0, correct = 0;
  while (src(r)) {
    ++records;
    insns += r.insns;
    ++freq[r.pc];
    bool end = false;
    ASSERT_NO_THROW(end = il.step(rec(20000, r.insns)).end);
    if (!end) continue;
    ++intervals;
    uint32_t hot = 0;
    uint64_t best = 0;
    for (const auto& [pc, n] : freq)
      if (n > best) best = n, hot = pc;
    freq.clear();
    const uint16_t id = ids.emplace(hot, static_cast<uint16_t>(ids.size())).first->second;
    ASSERT_NO_THROW(ml.step(upd(id)));
    MarkovPredictor::Out o;
    ASSERT_NO_THROW(o = ml.step(idle()));
    scored += o.res_scored;
    correct += o.res_correct;
  }
  // Independent check of the boundary count: with records far shorter than
  // the interval, exactly floor(total / interval) intervals end.
  EXPECT_EQ(intervals, insns / 20000);
  std::printf("%s: %llu records, %llu intervals, %zu phases, prediction %llu/%llu\n", GetParam().c_str(),
              static_cast<unsigned long long>(records), static_cast<unsigned long long>(intervals), ids.size(),
              static_cast<unsigned long long>(correct), static_cast<unsigned long long>(scored));
  EXPECT_GT(intervals, 10u);
}

INSTANTIATE_TEST_SUITE_P(Shipped, PhaseCellsTrace, ::testing::ValuesIn(hwprof::tb::shipped_traces()),
                         [](const auto& i) { return hwprof::tb::trace_test_name(i.param); });

}  // namespace
