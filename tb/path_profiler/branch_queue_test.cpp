// Lock-step tests of rtl/path_profiler/hwprof_branch_queue.sv against
// sim_models/path_profiler/branch_queue.h: directed cases from the spec,
// seeded random stimulus with bubbles and backpressure, a scoreboard
// self-check, and every shipped real trace replayed through a 4-wide retire
// stage (paper 000 section 7.3).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <random>

#include "branch_queue_lockstep.h"
#include "gtest_util.h"
#include "retire_replay.h"
#include "trace.h"
#include "trace_source.h"

using hwprof::model::BranchQueue;
using hwprof::model::BranchRecord;
using hwprof::tb::BranchQueueLockstep;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

BranchRecord random_record(std::mt19937_64& rng) {
  BranchRecord r;
  r.kind = static_cast<uint8_t>(rng() % 6);
  r.pc = static_cast<uint32_t>(rng());
  r.target = static_cast<uint32_t>(rng());
  r.taken = r.kind != 0 || (rng() & 1);
  r.ilen = static_cast<uint8_t>(1 + rng() % 15);
  r.insns = static_cast<uint16_t>(1 + rng() % 0xffff);
  r.events = static_cast<uint8_t>(rng());
  return r;
}

// Drives `q` for `cycles` with a source that holds valid and data until
// accepted (bubbles with probability idle%) and a sink that refuses with
// probability stall%. Checks that records leave in the order they entered.
// Returns the number of records transferred.
template <typename Q>
uint64_t drive_random(Q& q, uint64_t seed, uint64_t cycles, int idle_pct, int stall_pct) {
  std::mt19937_64 rng(seed);
  Throttle idle(seed * 3 + 1, idle_pct), stall(seed * 7 + 2, stall_pct);
  std::deque<BranchRecord> expected;
  BranchRecord cur = random_record(rng);
  bool offering = false;
  uint64_t out = 0;
  for (uint64_t c = 0; c < cycles; ++c) {
    if (!offering && !idle()) offering = true;  // once offered, held until taken
    BranchQueue::In in{offering, cur, !stall()};
    auto o = q.step(in);
    if (o.deq_valid && in.deq_ready) {
      EXPECT_FALSE(expected.empty()) << "record out of an empty queue at cycle " << c;
      if (expected.empty()) return out;
      EXPECT_EQ(o.deq_data, expected.front()) << "order broken at cycle " << c << " (seed " << seed << ")";
      expected.pop_front();
      ++out;
    }
    if (offering && o.enq_ready) {
      expected.push_back(cur);
      cur = random_record(rng);
      offering = false;
    }
  }
  return out;
}

class BranchQueueDepth : public ::testing::TestWithParam<unsigned> {
 protected:
  SimEnv env = SimEnv::from_env();
  std::string name = hwprof::tb::current_test_name();
};

TEST_P(BranchQueueDepth, FillsToDepthThenRefusesAndDrainsInOrder) {
  const unsigned depth = GetParam();
  BranchQueueLockstep q(depth, env, name, env.seed);
  std::mt19937_64 rng(env.seed);
  std::vector<BranchRecord> in;
  for (unsigned i = 0; i < depth; ++i) {
    in.push_back(random_record(rng));
    auto o = q.step({true, in.back(), false});
    EXPECT_TRUE(o.enq_ready) << "refused record " << i << " of " << depth;
    EXPECT_EQ(o.count, i);
  }
  auto o = q.step({true, random_record(rng), false});
  EXPECT_FALSE(o.enq_ready) << "a full queue must refuse";
  EXPECT_EQ(o.count, depth);
  // Full and draining in the same cycle: enq_ready is registered, so still refused.
  o = q.step({true, random_record(rng), true});
  EXPECT_FALSE(o.enq_ready);
  EXPECT_EQ(o.deq_data, in[0]);
  for (unsigned i = 1; i < depth; ++i) {
    o = q.step({false, {}, true});
    ASSERT_TRUE(o.deq_valid);
    EXPECT_EQ(o.deq_data, in[i]);
  }
  o = q.step({false, {}, true});
  EXPECT_FALSE(o.deq_valid);
  EXPECT_EQ(o.count, 0u);
}

TEST_P(BranchQueueDepth, SustainsOneRecordPerClockWhenDepthAtLeastTwo) {
  const unsigned depth = GetParam();
  BranchQueueLockstep q(depth, env, name, env.seed);
  const uint64_t n = drive_random(q, env.seed, 1000, 0, 0);
  // One cycle of latency; depth 1 alternates fill and drain (documented).
  if (depth >= 2)
    EXPECT_EQ(n, 999u);
  else
    EXPECT_EQ(n, 500u);
}

TEST_P(BranchQueueDepth, ResetMidStreamEmptiesQueueAndRecovers) {
  const unsigned depth = GetParam();
  BranchQueueLockstep q(depth, env, name, env.seed);
  drive_random(q, env.seed, 37, 0, 60);
  q.reset();
  auto o = q.step({false, {}, true});
  EXPECT_FALSE(o.deq_valid);
  EXPECT_EQ(o.count, 0u);
  EXPECT_TRUE(o.enq_ready);
  EXPECT_GT(drive_random(q, env.seed + 1, 200, 20, 20), 0u);
}

TEST_P(BranchQueueDepth, RandomLockstepWithBubblesAndBackpressure) {
  const unsigned depth = GetParam();
  const unsigned seeds = env.seeds ? env.seeds : 40;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    const int idle = env.idle_for(seed);
    const int stall = env.stall_for(seed);
    BranchQueueLockstep q(depth, env, name, seed);
    try {
      drive_random(q, seed, 3000, idle, stall);
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    ASSERT_FALSE(HasFailure()) << "seed " << seed << " idle " << idle << "% stall " << stall << "%";
  }
}

INSTANTIATE_TEST_SUITE_P(Depths, BranchQueueDepth, ::testing::ValuesIn(hwprof::tb::branch_queue_depths()),
                         [](const auto& i) { return "depth" + std::to_string(i.param); });

// The scoreboard must catch a model that differs from the RTL: a model one
// entry shallower than the RTL fails within a few cycles.
TEST(BranchQueueHarness, ScoreboardReportsFirstMismatchOfFaultyModel) {
  SimEnv env = SimEnv::from_env();
  BranchQueueLockstep q(4, env, hwprof::tb::current_test_name(), env.seed);
  q.model() = BranchQueue(3);
  try {
    drive_random(q, env.seed, 500, 0, 80);
    FAIL() << "the faulty model was not caught";
  } catch (const LockstepMismatch& e) {
    std::string r = e.what();
    EXPECT_NE(r.find("lock-step mismatch in branch_queue at cycle"), std::string::npos) << r;
    EXPECT_NE(r.find("seed " + std::to_string(env.seed)), std::string::npos) << r;
    EXPECT_NE(r.find("enq_ready: expected 0x0, actual 0x1"), std::string::npos) << r;
  }
}

// ------------------------------------------------------------- real traces

class BranchQueueRealTrace : public ::testing::TestWithParam<std::string> {};

// Replays the whole trace through a 4-wide retire stage and the paper's
// profiler latencies (heavy natural backpressure), RTL and model in
// lock-step; every record must come out once, in trace order.
TEST_P(BranchQueueRealTrace, ReplayMatchesModelEveryCycle) {
  SimEnv env = SimEnv::from_env();
  const std::string path = GetParam();
  for (unsigned depth : {2u, 4u}) {
    BranchQueueLockstep q(depth, env, hwprof::tb::current_test_name(), env.seed);
    auto check_rd = hwprof::trace::Reader::open(path);
    uint64_t seen = 0, bad = 0;
    hwprof::model::ReplayConfig cfg;
    cfg.on_dequeue = [&](const BranchRecord& got) {
      hwprof::trace::Record r;
      do {
        if (!check_rd->next(r)) {
          ++bad;
          return;
        }
      } while (!r.is_branch());
      if (hwprof::trace::branch_record(r) != got) ++bad;
      ++seen;
    };
    hwprof::model::ReplayStats st;
    try {
      st = hwprof::model::replay(q, hwprof::trace::branch_source(path), hwprof::trace::branch_source(path), cfg);
    } catch (const LockstepMismatch& e) {
      FAIL() << path << ": " << e.what();
    }
    EXPECT_EQ(bad, 0u) << "records lost, duplicated or reordered";
    EXPECT_EQ(seen, st.records);
    EXPECT_GT(st.records, 0u);
    EXPECT_EQ(q.scoreboard().cycles_checked(), st.cycles);
    EXPECT_GT(st.enq_stall_cycles, 0u) << "the replay should exercise backpressure";
    std::printf("[trace] %s depth %u: %llu records, %llu cycles, overhead %.2f%%\n", path.c_str(), depth,
                static_cast<unsigned long long>(st.records), static_cast<unsigned long long>(st.cycles),
                100.0 * st.overhead());
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, BranchQueueRealTrace, ::testing::ValuesIn(hwprof::tb::shipped_traces()),
                         [](const auto& i) { return hwprof::tb::trace_test_name(i.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BranchQueueRealTrace);

}  // namespace
