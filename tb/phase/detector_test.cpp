// Lock-step tests of the phase detector (rtl/phase/hwprof_phase_detector.sv, BBV and
// path modes) against its cycle model (sim_models/phase/phase_detector.h),
// all driven through the one replay driver (detector_replay.h). Directed
// expectations are worked out by hand from docs/phase_detector.md; random and
// trace runs compare RTL and model every cycle and the interval results with
// the functional reference run_detector().
//
// Environment (tb/common/sim_env.h): SEED, SEEDS, IDLE_PCT, STALL_PCT, TRACE;
// DET_TRACE_RECORDS = records of each shipped trace (default 1000000, 0 = all).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <memory>
#include <random>
#include <vector>

#include "detector_replay.h"
#include "detector_lockstep.h"
#include "gtest_util.h"
#include "record_gen.h"
#include "trace_source.h"

using namespace hwprof;
using namespace hwprof::tb;
using model::BranchRecord;
using model::DetCsr;
using model::DetectorMode;
using model::DetectorParams;
using model::DetectorReplayConfig;
using model::DetectorReplayResult;
using model::DetectorResult;
using model::RecordSource;

namespace {

const SimEnv& env() {
  static const SimEnv e = SimEnv::from_env();
  return e;
}

using SourceFactory = std::function<RecordSource()>;

SourceFactory vec_source(std::vector<BranchRecord> v) {
  auto shared = std::make_shared<std::vector<BranchRecord>>(std::move(v));
  return [shared]() -> RecordSource {
    auto i = std::make_shared<size_t>(0);
    return [shared, i](BranchRecord& r) {
      if (*i >= shared->size()) return false;
      r = (*shared)[(*i)++];
      return true;
    };
  };
}

/// RecordGen records, with most of its huge instruction counts cut down so
/// intervals do not end on nearly every record.
std::vector<BranchRecord> random_records(uint64_t seed, size_t n) {
  RecordGen g(seed);
  std::mt19937_64 rng(seed ^ 0x5eed);
  std::vector<BranchRecord> v(n);
  for (auto& r : v) {
    r = g.next();
    if (r.insns > 64 && rng() % 8) r.insns = static_cast<uint16_t>(r.insns % 64 + 1);
  }
  return v;
}

SourceFactory trace_source(const std::string& path, uint64_t limit) {
  return [path, limit]() -> RecordSource {
    auto src = hwprof::trace::branch_source(path);
    auto n = std::make_shared<uint64_t>(0);
    return [src, n, limit](BranchRecord& r) {
      if (limit && *n >= limit) return false;
      ++*n;
      return src(r);
    };
  };
}

/// Checks a replay against the functional model run over the same records.
void expect_functional(const DetectorConfig& cfg, const DetectorReplayConfig& rc, const SourceFactory& mk,
                       const DetectorReplayResult& r, uint64_t records_before = 0) {
  DetectorParams p = cfg.params;
  p.interval = rc.interval;
  p.threshold = rc.threshold;
  model::DetectorRunStats st;
  const auto exp = model::run_detector(p, mk(), rc.ppcr, cfg.depth, cfg.max_len, &st);
  ASSERT_EQ(r.intervals.size(), exp.size());
  uint64_t allocs = 0, busy = 0;
  for (size_t i = 0; i < exp.size(); ++i) {
    ASSERT_EQ(r.intervals[i], exp[i]) << "interval " << i << ": got " << r.intervals[i].str() << " expected "
                                      << exp[i].str();
    if (!exp[i].matched) ++allocs;
    busy += p.busy_cycles(!exp[i].matched);
  }
  EXPECT_EQ(r.counters.records, records_before + st.records);
  EXPECT_EQ(r.records, st.records);
  (void)allocs;
  (void)busy;
}

DetectorReplayConfig replay_cfg(uint32_t interval, uint32_t threshold, uint32_t ppcr = model::Ppcr::kBl) {
  DetectorReplayConfig rc;
  rc.interval = interval;
  rc.threshold = threshold;
  rc.ppcr = ppcr;
  return rc;
}

}  // namespace

// ---------------------------------------------------------------- directed

// docs/phase_detector.md, "Worked example": 4 counters, 4-bit elements, 2
// entries, interval 10, threshold 4; each record (10 instructions) is one
// interval with a single feature on pc 0, 1, 2 (index = pc).
TEST(DetectorDirected, BbvAllocatesMatchesAndEvictsLeastRecentlyUsed) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  std::vector<BranchRecord> recs;
  for (uint32_t pc : {0u, 1u, 0u, 2u, 1u, 2u}) recs.push_back(rec(kBr, pc, 0x40, false, 10));
  const auto r = model::replay_detector(ls, vec_source(recs)(), replay_cfg(10, 4), DetectorMode::Bbv);
  // Signatures {15,0,0,0}, {0,15,0,0}, {0,0,15,0}; pairwise distance 30.
  const std::vector<uint16_t> phase = {0, 1, 0, 2, 3, 2};
  const std::vector<bool> matched = {false, false, true, false, false, true};
  const std::vector<uint32_t> dist = {63, 30, 0, 30, 30, 0};
  const std::vector<uint16_t> pred = {0, 1, 1, 2, 3, 3};  // Markov, 4 slots
  ASSERT_EQ(r.intervals.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.intervals[i].phase, phase[i]);
    EXPECT_EQ(r.intervals[i].matched, matched[i]);
    EXPECT_EQ(r.intervals[i].distance, dist[i]);
    EXPECT_TRUE(r.intervals[i].changed);
    EXPECT_EQ(r.intervals[i].predicted, pred[i]);
    EXPECT_EQ(r.intervals[i].scored, i > 0);
    EXPECT_FALSE(r.intervals[i].correct);
  }
  EXPECT_EQ(r.counters.records, 6u);
  EXPECT_EQ(r.counters.features, 6u);
  EXPECT_EQ(r.counters.intervals, 6u);
  EXPECT_EQ(r.counters.phases, 4u);
  // Busy: the pass of every interval, busy_cycles(allocated) each
  // (DetectorAlgo test ParamsAndThresholdRange: 47 allocating, 42 matching).
  DetectorParams p = cfg.params;
  std::vector<uint64_t> len;
  for (bool m : matched) len.push_back(p.busy_cycles(!m));
  EXPECT_EQ(r.counters.busy_cycles, len[0] + len[1] + len[2] + len[3] + len[4] + len[5]);
  EXPECT_EQ(r.counters.busy_cycles, 4 * 47u + 2 * 42u);
  // Passes run in the background: record 1 starts pass 1 and record 2 is
  // taken the next cycle; its interval end waits (pass 1 runs), so record 3
  // waits from its first cycle until pass 1's result is taken (len[0]
  // cycles) and the waiting pass starts from Idle (kPendingStartDelay more),
  // record 4 for pass 2, and so on: len[0] + .. + len[3] + 4 delays.
  EXPECT_EQ(r.counters.stall_cycles,
            len[0] + len[1] + len[2] + len[3] + 4 * model::DetectorCore::kPendingStartDelay);
}

// A stable phase: the same signature every interval -> one phase, no
// change after the first, every scored prediction right.
TEST(DetectorDirected, BbvStablePhaseIsPredicted) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  std::vector<BranchRecord> recs;
  for (int i = 0; i < 8; ++i) {
    recs.push_back(rec(kBr, 1, 0x40, false, 3));  // index 1
    recs.push_back(rec(kBr, 2, 0x40, false, 2));  // index 2: {0, 9, 6, 0} (T = 5: 48/5, 32/5)
  }
  const auto r = model::replay_detector(ls, vec_source(recs)(), replay_cfg(5, 4), DetectorMode::Bbv);
  ASSERT_EQ(r.intervals.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.intervals[i].phase, 0);
    EXPECT_EQ(r.intervals[i].changed, i == 0);
    EXPECT_EQ(r.intervals[i].distance, i == 0 ? 63u : 0u);
    EXPECT_EQ(r.intervals[i].correct, i > 0);
  }
  EXPECT_EQ(r.counters.phases, 1u);
}

// Two entries at the same distance: the lowest index wins (threshold 16,
// small configuration). {15,0,0,0} -> phase 0 (entry 0); {0,15,0,0} at 30
// -> phase 1 (entry 1); {8,8,0,0} is 7 + 8 = 15 from both -> phase 0.
TEST(DetectorDirected, EqualDistancesGoToTheLowestEntry) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  std::vector<BranchRecord> recs = {rec(kBr, 0, 0x40, false, 10), rec(kBr, 1, 0x40, false, 10),
                                    rec(kBr, 0, 0x40, false, 5), rec(kBr, 1, 0x40, false, 5)};
  const auto r = model::replay_detector(ls, vec_source(recs)(), replay_cfg(10, 16), DetectorMode::Bbv);
  ASSERT_EQ(r.intervals.size(), 3u);
  EXPECT_EQ(r.intervals[1].phase, 1);
  EXPECT_EQ(r.intervals[1].distance, 30u);
  EXPECT_EQ(r.intervals[2].phase, 0);
  EXPECT_TRUE(r.intervals[2].matched);
  EXPECT_EQ(r.intervals[2].distance, 15u);
}

// A distance equal to THRESHOLD is no match (interval 8, threshold 15):
// {15,0,0,0} -> phase 0; pc 0/1/2 with 4/2/2 instructions -> {8,4,4,0},
// distance 7 + 4 + 4 = 15 -> a new phase.
TEST(DetectorDirected, DistanceEqualToThresholdIsNoMatch) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  std::vector<BranchRecord> recs = {rec(kBr, 0, 0x40, false, 8), rec(kBr, 0, 0x40, false, 4),
                                    rec(kBr, 1, 0x40, false, 2), rec(kBr, 2, 0x40, false, 2)};
  const auto r = model::replay_detector(ls, vec_source(recs)(), replay_cfg(8, 15), DetectorMode::Bbv);
  ASSERT_EQ(r.intervals.size(), 2u);
  EXPECT_EQ(r.intervals[1].distance, 15u);
  EXPECT_FALSE(r.intervals[1].matched);
  EXPECT_EQ(r.intervals[1].phase, 1);
}

// Accumulators saturate at 2^32-1 (default size, BBV). INTERVAL writes
// restart the count (not the accumulators), so one interval collects
// 131072 x 65535 instructions on pc 0 (saturates: 2^32-1 instead of
// 8,589,803,520) and 32768 x 65535 on pc 1, then INTERVAL = 1 and one
// record on pc 2 ends it. T = 6,442,418,176: elements 682, 341, 0. A second
// interval with 2 : 1 weights on pc 0 and 1 ({682, 341}) matches it at
// distance 0; without the saturation the first would be {819, 204}.
TEST(DetectorDirected, AccumulatorsSaturate) {
  const auto& cfg = detector_config(DetectorMode::Bbv, false);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  model::PhaseDetector::In in;
  std::vector<DetectorResult> results;
  auto step = [&](const model::PhaseDetector::In& i) {
    const auto o = ls.step(i);
    if (o.res_valid && i.res_ready) results.push_back(o.res);
    return o;
  };
  auto write = [&](DetCsr a, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    in.res_ready = true;
    step(in);
  };
  auto feed = [&](uint32_t pc, uint16_t insns, unsigned n) {
    for (unsigned k = 0; k < n;) {
      in = {};
      in.rec_valid = true;
      in.rec_data = rec(kBr, pc, 0x40, false, insns);
      in.res_ready = true;
      if (step(in).rec_ready) ++k;
    }
  };
  write(DetCsr::Threshold, 4);
  write(DetCsr::Interval, 0xffffffffu);
  feed(0, 65535, 65536);
  write(DetCsr::Interval, 0xffffffffu);
  feed(0, 65535, 65536);
  write(DetCsr::Interval, 0xffffffffu);
  feed(1, 65535, 32768);
  write(DetCsr::Interval, 1);
  feed(2, 1, 1);
  write(DetCsr::Interval, 3);
  feed(0, 2, 1);
  feed(1, 1, 1);
  for (int k = 0; k < 3000; ++k) step(in = model::PhaseDetector::In{false, {}, true});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].phase, 0);
  EXPECT_EQ(results[0].distance, 4095u);
  EXPECT_EQ(results[1].phase, 0);
  EXPECT_TRUE(results[1].matched);
  EXPECT_EQ(results[1].distance, 0u);
}

// docs/phase_detector.md: the first backward jump finds the stack empty and
// emits an incomplete path (ignored); the second emits {0x80, 1, dirs 1,
// 4 insns}: key 0x04010080, index 2, accumulated before its record's tick
// reaches the boundary 8.
TEST(DetectorDirected, PathAccumulatesEmissionBeforeItsTick) {
  const auto& cfg = detector_config(DetectorMode::Path, true);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  std::vector<BranchRecord> recs = {rec(kJmp, 0x100, 0x80, true, 4), rec(kJmp, 0x100, 0x80, true, 4)};
  const auto r = model::replay_detector(ls, vec_source(recs)(), replay_cfg(8, 4), DetectorMode::Path);
  ASSERT_EQ(r.intervals.size(), 1u);
  EXPECT_EQ(r.intervals[0].phase, 0);
  EXPECT_EQ(r.intervals[0].distance, 63u);
  EXPECT_EQ(r.counters.records, 2u);
  EXPECT_EQ(r.counters.ignored, 1u);
  EXPECT_EQ(r.counters.features, 1u);
  EXPECT_EQ(r.counters.intervals, 1u);
}

// Illegal register values set STATUS.err and keep the old value; STATUS
// clears by writing 1; the path mode's PPCR rejects illegal settings.
TEST(DetectorDirected, IllegalRegisterWritesAreRejected) {
  for (auto mode : {DetectorMode::Bbv, DetectorMode::Path}) {
    SCOPED_TRACE(model::detector_mode_name(mode));
    const auto& cfg = detector_config(mode, false);
    auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
    model::PhaseDetector::In in;
    auto write = [&](DetCsr a, uint32_t v) {
      in = {};
      in.csr_we = true;
      in.csr_addr = unsigned(a);
      in.csr_wdata = v;
      ls.step(in);
    };
    auto read = [&](DetCsr a) {
      in = {};
      in.csr_addr = unsigned(a);
      return ls.step(in).csr_rdata;
    };
    EXPECT_EQ(read(DetCsr::Interval), 1000000u);
    EXPECT_EQ(read(DetCsr::Threshold), 128u);
    EXPECT_EQ(read(DetCsr::Status), 0u);
    EXPECT_EQ(read(DetCsr::Params), 32u | 10u << 8 | 32u << 16 | (mode == DetectorMode::Path ? 1u << 24 : 0u));
    write(DetCsr::Interval, 0);
    EXPECT_EQ(read(DetCsr::Status), 1u);
    EXPECT_EQ(read(DetCsr::Interval), 1000000u);
    write(DetCsr::Status, 1);
    EXPECT_EQ(read(DetCsr::Status), 0u);
    write(DetCsr::Threshold, 0);
    EXPECT_EQ(read(DetCsr::Status), 1u);
    write(DetCsr::Status, 1);
    write(DetCsr::Threshold, 2049);  // > 2^(10+1)
    EXPECT_EQ(read(DetCsr::Status), 1u);
    EXPECT_EQ(read(DetCsr::Threshold), 128u);
    write(DetCsr::Status, 1);
    write(DetCsr::Threshold, 2048);  // the largest legal value
    EXPECT_EQ(read(DetCsr::Threshold), 2048u);
    EXPECT_EQ(read(DetCsr::Status), 0u);
    write(DetCsr::Ctrl, 2);
    EXPECT_EQ(read(DetCsr::Status), 1u);
    write(DetCsr::Status, 1);
    write(DetCsr::Interval, 7);
    EXPECT_EQ(read(DetCsr::Interval), 7u);
    // PPCR: update and update-count together in the forward class.
    write(DetCsr::Ppcr, 0x3);
    if (mode == DetectorMode::Path) {
      EXPECT_EQ(read(DetCsr::Status), 2u);
      EXPECT_EQ(read(DetCsr::Ppcr), model::Ppcr::kBl);
      write(DetCsr::Status, 2);
      write(DetCsr::Ppcr, model::Ppcr::kWpp);
      EXPECT_EQ(read(DetCsr::Ppcr), model::Ppcr::kWpp);
    } else {
      EXPECT_EQ(read(DetCsr::Ppcr), 0u);
    }
    EXPECT_EQ(read(DetCsr::Status), 0u);
    EXPECT_EQ(read(DetCsr::Ctrl), 0u);
    EXPECT_EQ(read(DetCsr(13)), 0u);
  }
}

// ---------------------------------------------------------------- background pass

namespace {

/// What a hand-driven run saw (STATUS is read every cycle).
struct ManualRun {
  std::vector<DetectorResult> results;
  uint64_t taken_while_busy = 0;  ///< records taken while a pass ran
  uint64_t refused = 0;           ///< cycles with a record offered and not taken
  uint64_t refused_while_res = 0; ///< ... while a result waited (backpressure)
  uint32_t stall_cycles = 0, busy_cycles = 0, records = 0;
};

/// Programs INTERVAL and THRESHOLD, feeds `recs` (BBV) with res_ready from
/// `ready(cycle)` and bubbles from `idle(cycle)`, drains, reads the counters.
ManualRun manual_feed(DetectorLockstep& ls, const std::vector<BranchRecord>& recs, uint32_t interval,
                      uint32_t threshold, const std::function<bool(uint64_t)>& ready,
                      const std::function<bool(uint64_t)>& idle = nullptr) {
  ManualRun m;
  model::PhaseDetector::In in;
  auto write = [&](DetCsr a, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    ls.step(in);
  };
  write(DetCsr::Interval, interval);
  write(DetCsr::Threshold, threshold);
  size_t i = 0;
  uint64_t last_take = 0;
  for (uint64_t c = 0;; ++c) {
    in = {};
    in.rec_valid = i < recs.size() && !(idle && idle(c));
    if (i < recs.size()) in.rec_data = recs[i];
    in.res_ready = ready(c);
    in.csr_addr = unsigned(DetCsr::Status);
    const auto o = ls.step(in);
    if (o.res_valid && in.res_ready) m.results.push_back(o.res);
    const bool busy = o.csr_rdata & model::kDetStatusBusy;
    const bool resv = o.csr_rdata & model::kDetStatusResValid;
    if (in.rec_valid && o.rec_ready) {
      ++i;
      last_take = c;
      if (busy) ++m.taken_while_busy;
    } else if (in.rec_valid) {
      ++m.refused;
      if (resv) ++m.refused_while_res;
    }
    // STATUS is the state before the edge: a pass started by the last
    // record shows from the next cycle on.
    if (i == recs.size() && c > last_take + 1 && !busy && !resv) break;
    if (c > recs.size() + 1000000) throw std::runtime_error("detector did not drain");
  }
  auto read = [&](DetCsr a) {
    in = {};
    in.csr_addr = unsigned(a);
    return ls.step(in).csr_rdata;
  };
  m.stall_cycles = read(DetCsr::StallCycles);
  m.busy_cycles = read(DetCsr::BusyCycles);
  m.records = read(DetCsr::Records);
  return m;
}

std::vector<DetectorResult> reference(const DetectorConfig& cfg, const std::vector<BranchRecord>& recs,
                                      uint32_t interval, uint32_t threshold) {
  DetectorParams p = cfg.params;
  p.interval = interval;
  p.threshold = threshold;
  return model::run_detector(p, vec_source(recs)(), model::Ppcr::kBl, cfg.depth, cfg.max_len);
}

void expect_same(const std::vector<DetectorResult>& got, const std::vector<DetectorResult>& exp) {
  ASSERT_EQ(got.size(), exp.size());
  for (size_t k = 0; k < exp.size(); ++k)
    ASSERT_EQ(got[k], exp[k]) << "interval " << k << ": got " << got[k].str() << " expected " << exp[k].str();
}

}  // namespace

// Accumulator read-after-write forwarding (docs/phase_detector.md,
// "Accumulators"): the same counter again at distance 1 (forwarded), 2, 3
// and 4 (from the RAM), and a distance-1 repeat across an interval end (the
// other bank: no forward). Each interval is 8 records of 1,000 instructions
// in all, weights distinct so every counter's sum is distinctive at 10-bit
// resolution. Fed back to back (every hazard) and again with a bubble
// between records (no hazard): both must equal the functional model.
TEST(DetectorDirected, AccumulatorForwardingAtEveryDistance) {
  const auto& cfg = detector_config(DetectorMode::Bbv, false);
  const std::vector<std::vector<uint32_t>> pcs = {
      {0, 0, 1, 1, 2, 2, 3, 3},  // distance 1
      {3, 3, 2, 2, 1, 1, 0, 0},  // distance 1, ends on counter 0 ...
      {0, 0, 0, 1, 1, 1, 2, 3},  // ... begins on it (other bank), runs of 3
      {0, 1, 0, 1, 2, 3, 2, 3},  // distance 2
      {0, 1, 2, 0, 1, 2, 3, 3},  // distance 3
      {0, 1, 2, 3, 0, 1, 2, 3},  // distance 4
  };
  const std::vector<uint16_t> w = {100, 37, 251, 13, 77, 190, 55, 277};  // 1,000
  std::vector<BranchRecord> recs;
  for (size_t g = 0; g < pcs.size(); ++g)
    for (size_t k = 0; k < 8; ++k) recs.push_back(rec(kBr, pcs[g][k], 0x40, false, w[(k + g) % 8]));
  const auto exp = reference(cfg, recs, 1000, 1);
  ASSERT_EQ(exp.size(), pcs.size());
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  const auto fast = manual_feed(ls, recs, 1000, 1, [](uint64_t) { return true; });
  expect_same(fast.results, exp);
  ls.reset();
  const auto slow = manual_feed(ls, recs, 1000, 1, [](uint64_t) { return true; }, [](uint64_t c) { return c % 2; });
  expect_same(slow.results, exp);
  // Every interval is a new phase (threshold 1, distinct signatures).
  for (const auto& r : exp) EXPECT_FALSE(r.matched);
}

// The pass runs in the background: intervals longer than a pass take every
// record with no stall, many of them while a pass (Div, Search, Write)
// runs. Default size (passes of 1,418 / 1,451 cycles, intervals of 2,000
// one-instruction records) and the small one with threshold 1 (the 2-entry
// table full, an LRU victim replaced at every interval end while the next
// interval's records arrive).
TEST(DetectorDirected, ItemsAccumulateWhileThePassRuns) {
  for (bool small : {false, true}) {
    SCOPED_TRACE(small ? "small" : "default");
    const auto& cfg = detector_config(DetectorMode::Bbv, small);
    const auto& p = cfg.params;
    const uint32_t interval = small ? 60 : 2000;
    const uint32_t threshold = small ? 1 : 200;
    std::vector<BranchRecord> recs = random_records(env().seed + 7, small ? 3000 : 20000);
    for (auto& r : recs) r.insns = 1;
    const auto exp = reference(cfg, recs, interval, threshold);
    ASSERT_GE(exp.size(), 10u);
    auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
    const auto m = manual_feed(ls, recs, interval, threshold, [](uint64_t) { return true; });
    expect_same(m.results, exp);
    EXPECT_EQ(m.stall_cycles, 0u);
    EXPECT_EQ(m.refused, 0u);
    EXPECT_GT(interval, p.busy_cycles(true));
    // Every record of a pass's length after each interval end but the last.
    EXPECT_GE(m.taken_while_busy, (exp.size() - 1) * p.busy_cycles(false));
    if (small) {
      uint64_t allocs = 0;
      for (const auto& r : exp) allocs += !r.matched;
      EXPECT_GT(allocs, p.entries + 5);
    }
  }
}

// Result backpressure: res_ready held low for long stretches; an interval
// that ends while the previous result waits is accepted and then waits
// (end pending): no record is taken until that result is taken, and the
// waiting pass starts from Idle the cycle after. STALL_CYCLES counts the refusals.
TEST(DetectorDirected, BackpressureMakesTheIntervalEndWait) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  std::vector<BranchRecord> recs = random_records(env().seed + 11, 2000);
  for (auto& r : recs) r.insns = static_cast<uint16_t>(1 + r.insns % 7);
  const auto exp = reference(cfg, recs, 80, 6);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  // res_ready low for 400 of every 500 cycles.
  const auto m = manual_feed(ls, recs, 80, 6, [](uint64_t c) { return c % 500 >= 400; });
  expect_same(m.results, exp);
  EXPECT_GT(m.refused_while_res, 1000u);
  EXPECT_EQ(m.stall_cycles, m.refused);
  EXPECT_EQ(m.records, recs.size());
}

// rst_ni and CTRL.restart while an interval end waits behind a result held
// by backpressure: the waiting interval, the pending result and both banks
// are dropped; the next run starts clean (equal to the functional model).
TEST(DetectorDirected, ResetAndRestartWhileAnIntervalEndWaits) {
  const auto& cfg = detector_config(DetectorMode::Bbv, true);
  for (bool use_ctrl : {false, true}) {
    SCOPED_TRACE(use_ctrl ? "CTRL.restart" : "rst_ni");
    auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
    std::vector<BranchRecord> first = random_records(env().seed + 21, 400);
    for (auto& r : first) r.insns = 3;
    model::PhaseDetector::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(DetCsr::Interval);
    in.csr_wdata = 30;
    ls.step(in);
    // Results never taken: the second interval end waits, records stall.
    size_t i = 0;
    unsigned refused = 0;
    while (i < first.size() && refused < 60) {
      in = {};
      in.rec_valid = true;
      in.rec_data = first[i];
      in.csr_addr = unsigned(DetCsr::Status);
      const auto o = ls.step(in);
      if (o.rec_ready) ++i;
      else ++refused;
    }
    ASSERT_EQ(refused, 60u);  // longer than a pass (42 or 47 cycles)
    EXPECT_TRUE(ls.step({}).res_valid);
    if (use_ctrl) {
      in = {};
      in.csr_we = true;
      in.csr_addr = unsigned(DetCsr::Ctrl);
      in.csr_wdata = model::kDetCtrlRestart;
      ls.step(in);
      EXPECT_FALSE(ls.step({}).res_valid);
    } else {
      ls.reset();
    }
    std::vector<BranchRecord> recs = random_records(env().seed + 22, 1500);
    const auto m = manual_feed(ls, recs, 40, 6, [](uint64_t c) { return c % 3 != 0; });
    expect_same(m.results, reference(cfg, recs, 40, 6));
  }
}

// The LRU age pass (docs/phase_detector.md, "LRU update"): it runs for
// Entries + 1 cycles after Decide, in the background. rst_ni or CTRL.restart
// at every cycle from just before Decide to just after the pass ends (every
// cycle at the small size; its first, middle and last cycles at the default
// size) drops it; the run
// that follows (threshold 1: many more phases than entries, so LRU victims
// decide the ids) equals the functional model, in lock-step.
TEST(DetectorDirected, RestartAndResetDuringTheAgePass) {
  for (bool small : {true, false}) {
    const auto& cfg = detector_config(DetectorMode::Bbv, small);
    const DetectorParams& p = cfg.params;
    // Decide: this many cycles after the first cycle STATUS.busy shows.
    const unsigned decide = 2 + p.counters + p.counters * (p.sig_w + 1) + p.entries * p.counters + 5;
    std::vector<unsigned> offsets;
    for (unsigned d = decide - 1; d <= decide + p.entries + 3; ++d)
      if (small || d <= decide + 2 || d >= decide + p.entries + 1 || d == decide + p.entries / 2) offsets.push_back(d);
    const uint32_t interval = small ? 25 : 600;
    const auto recs = random_records(env().seed + 31, small ? 3000 : 1500);
    const auto ref = reference(cfg, recs, interval, 1);
    for (bool use_ctrl : {false, true}) {
      for (unsigned d : offsets) {
        SCOPED_TRACE(std::string(small ? "small " : "default ") + (use_ctrl ? "CTRL.restart" : "rst_ni") +
                     " at busy + " + std::to_string(d));
        auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
        const auto first = random_records(env().seed + 32, 4000);
        model::PhaseDetector::In in;
        in.csr_we = true;
        in.csr_addr = unsigned(DetCsr::Interval);
        in.csr_wdata = interval;
        ls.step(in);
        size_t i = 0;
        unsigned since_busy = 0;
        bool seen_busy = false;
        while (!seen_busy || since_busy < d) {
          in = {};
          in.rec_valid = i < first.size();
          if (i < first.size()) in.rec_data = first[i];
          in.res_ready = true;
          in.csr_addr = unsigned(DetCsr::Status);
          const auto o = ls.step(in);
          if (in.rec_valid && o.rec_ready) ++i;
          if (o.csr_rdata & model::kDetStatusBusy) seen_busy = true;
          if (seen_busy) ++since_busy;
        }
        if (use_ctrl) {
          in = {};
          in.csr_we = true;
          in.csr_addr = unsigned(DetCsr::Ctrl);
          in.csr_wdata = model::kDetCtrlRestart;
          ls.step(in);
        } else {
          ls.reset();
        }
        const auto m = manual_feed(ls, recs, interval, 1, [](uint64_t) { return true; });
        expect_same(m.results, ref);
      }
    }
    size_t allocated = 0;
    for (const auto& r : ref) allocated += !r.matched;
    EXPECT_GT(allocated, size_t{p.entries});
  }
}

// ---------------------------------------------------------------- random

class DetectorRandom : public ::testing::TestWithParam<DetectorConfig> {};

// Random records with bubbles and result backpressure (SimEnv sweep), random
// legal threshold (and PPCR in path mode): RTL = model every cycle, results
// = the functional reference.
TEST_P(DetectorRandom, MatchesModelWithIdleAndBackpressure) {
  const auto& cfg = GetParam();
  const bool small = cfg.params.counters == 4;
  // The default size spends ~1,400 cycles per interval end: fewer seeds.
  const unsigned seeds = env().seeds ? env().seeds : (small ? 4 : 2);
  for (unsigned k = 0; k < seeds; ++k) {
    const uint64_t seed = env().seed + k;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    RecordGen g(seed * 7 + 1);
    auto recs = vec_source(random_records(seed, small ? 3000 : 1500));
    auto rc = replay_cfg(small ? 40 : 2000, static_cast<uint32_t>(1 + rng() % (small ? 32 : 2048)),
                         cfg.params.mode == DetectorMode::Path ? g.legal_ppcr() : model::Ppcr::kBl);
    Throttle idle(seed * 3 + 1, env().idle_for(k)), stall(seed * 5 + 2, env().stall_for(k));
    rc.idle = [&] { return idle(); };
    rc.stall = [&] { return stall(); };
    auto ls = make_detector_lockstep(cfg, env(), current_test_name(), seed);
    const auto r = model::replay_detector(ls, recs(), rc, cfg.params.mode);
    expect_functional(cfg, rc, recs, r);
    EXPECT_GT(r.intervals.size(), 10u);
  }
}

// Threshold 1 (only identical signatures match): many phases, the table
// overflows and LRU victims are replaced over and over.
TEST_P(DetectorRandom, ManyPhasesOverflowTheTable) {
  const auto& cfg = GetParam();
  const bool small = cfg.params.counters == 4;
  const uint64_t seed = env().seed;
  auto recs = vec_source(random_records(seed + 100, small ? 3000 : 1500));
  auto rc = replay_cfg(small ? 25 : 600, 1);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), seed);
  const auto r = model::replay_detector(ls, recs(), rc, cfg.params.mode);
  expect_functional(cfg, rc, recs, r);
  EXPECT_GT(r.counters.phases, cfg.params.entries);
}

// Reset (rst_ni) in the middle of a stream, while an interval is being
// computed, then a fresh replay: both engines start over identically.
TEST_P(DetectorRandom, ResetMidStream) {
  const auto& cfg = GetParam();
  const bool small = cfg.params.counters == 4;
  const uint64_t seed = env().seed + 200;
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), seed);
  const auto first = random_records(seed, 2000);
  const uint32_t interval = small ? 40 : 1000;
  {
    auto rc = replay_cfg(interval, small ? 6 : 300);
    model::PhaseDetector::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(DetCsr::Interval);
    in.csr_wdata = interval;
    ls.step(in);
    // Feed until the detector is busy, then a few more cycles, then reset.
    size_t i = 0;
    unsigned busy_cycles = 0;
    while (i < first.size() && busy_cycles < 17) {
      in = {};
      in.rec_valid = true;
      in.rec_data = first[i];
      in.res_ready = true;
      in.csr_addr = unsigned(DetCsr::Status);
      const auto o = ls.step(in);
      if (o.rec_ready) ++i;
      if (o.csr_rdata & model::kDetStatusBusy) ++busy_cycles;
    }
    ASSERT_EQ(busy_cycles, 17u);
    (void)rc;
  }
  ls.reset();
  auto recs = vec_source(random_records(seed + 1, small ? 2000 : 1000));
  auto rc = replay_cfg(interval, small ? 6 : 300);
  const auto r = model::replay_detector(ls, recs(), rc, cfg.params.mode);
  expect_functional(cfg, rc, recs, r);
}

// CTRL.restart in the middle of an interval computation (and of a result
// wait): the pending result is dropped and the detector starts over; the
// counters keep counting.
TEST_P(DetectorRandom, RestartWhileBusyDropsTheInterval) {
  const auto& cfg = GetParam();
  const bool small = cfg.params.counters == 4;
  const uint64_t seed = env().seed + 300;
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), seed);
  const uint32_t interval = small ? 40 : 1000;
  const auto first = random_records(seed, 2000);
  model::PhaseDetector::In in;
  in.csr_we = true;
  in.csr_addr = unsigned(DetCsr::Interval);
  in.csr_wdata = interval;
  ls.step(in);
  size_t i = 0;
  unsigned restarts = 0;
  std::mt19937_64 rng(seed);
  while (i < first.size() && restarts < 5) {
    in = {};
    in.rec_valid = true;
    in.rec_data = first[i];
    in.res_ready = rng() % 4 != 0;
    in.csr_addr = unsigned(DetCsr::Status);
    const auto o = ls.step(in);
    if (o.rec_ready) ++i;
    if ((o.csr_rdata & (model::kDetStatusBusy | model::kDetStatusResValid)) && rng() % 64 == 0) {
      in = {};
      in.csr_we = true;
      in.csr_addr = unsigned(DetCsr::Ctrl);
      in.csr_wdata = model::kDetCtrlRestart;
      ls.step(in);
      ++restarts;
    }
  }
  EXPECT_EQ(restarts, 5u);
  // Records in flight (path mode: classifier and tick register) reach the
  // core during the replay; count what the core took so far.
  in = {};
  in.csr_addr = unsigned(DetCsr::Records);
  const uint32_t before = ls.step(in).csr_rdata;
  auto recs = vec_source(random_records(seed + 1, small ? 2000 : 1000));
  auto rc = replay_cfg(interval, small ? 6 : 300);
  rc.records_before = i;
  const auto r = model::replay_detector(ls, recs(), rc, cfg.params.mode);
  EXPECT_GE(i, before);
  EXPECT_EQ(r.counters.records, i + r.records);
  if (cfg.params.mode == DetectorMode::Bbv) expect_functional(cfg, rc, recs, r, i);
}

INSTANTIATE_TEST_SUITE_P(Configs, DetectorRandom, ::testing::ValuesIn(detector_configs()),
                         [](const auto& info) { return info.param.name(); });

// ---------------------------------------------------------------- traces

struct TraceCase {
  std::string path;
  DetectorMode mode;
};
void PrintTo(const TraceCase& c, std::ostream* os) { *os << trace_test_name(c.path); }

class DetectorTrace : public ::testing::TestWithParam<TraceCase> {};

std::vector<TraceCase> trace_cases() {
  std::vector<TraceCase> v;
  for (const auto& p : shipped_traces())
    for (auto m : {DetectorMode::Bbv, DetectorMode::Path}) v.push_back({p, m});
  return v;
}

// Every shipped trace end to end (capped at DET_TRACE_RECORDS, default 1,000,000) in both modes
// at the default size with 20,000-instruction intervals, lock-step, results
// against the functional reference.
TEST_P(DetectorTrace, MatchesModelAndFunctionalReference) {
  const auto& tc = GetParam();
  const char* lim = std::getenv("DET_TRACE_RECORDS");
  const uint64_t limit = lim ? std::strtoull(lim, nullptr, 10) : 1000000;
  const auto& cfg = detector_config(tc.mode, false);
  auto ls = make_detector_lockstep(cfg, env(), current_test_name(), env().seed);
  auto src = trace_source(tc.path, limit);
  auto rc = replay_cfg(20000, 128);
  const auto r = model::replay_detector(ls, src(), rc, tc.mode);
  expect_functional(cfg, rc, src, r);
  EXPECT_GT(r.intervals.size(), 5u);
  size_t scored = 0, correct = 0, changes = 0;
  for (const auto& i : r.intervals) {
    scored += i.scored;
    correct += i.correct;
    changes += i.changed;
  }
  std::printf("[trace] %s %s: %llu records, %zu intervals, %u phases, %zu changes, prediction %zu/%zu, "
              "%llu cycles (%u busy, %u stalled)\n",
              trace_test_name(tc.path).c_str(), model::detector_mode_name(tc.mode),
              static_cast<unsigned long long>(r.records), r.intervals.size(), r.counters.phases, changes, correct,
              scored, static_cast<unsigned long long>(r.cycles), r.counters.busy_cycles, r.counters.stall_cycles);
}

INSTANTIATE_TEST_SUITE_P(Shipped, DetectorTrace, ::testing::ValuesIn(trace_cases()), [](const auto& info) {
  return trace_test_name(info.param.path) + "_" + model::detector_mode_name(info.param.mode);
});

// ---------------------------------------------------------------- stall fraction

namespace {

struct StallCase {
  std::string path;
  DetectorMode mode;
  uint32_t interval;
};

std::vector<StallCase> stall_cases() {
  const std::vector<std::string> traces = shipped_traces_and_cc1_full();
  std::vector<StallCase> v;
  for (const auto& p : traces)
    for (auto m : {DetectorMode::Bbv, DetectorMode::Path})
      for (uint32_t iv : {model::IntervalCounter::kDefaultInterval, 20000u}) v.push_back({p, m, iv});
  return v;
}

}  // namespace

class DetectorStallFraction : public ::testing::TestWithParam<StallCase> {};

// The cycle model (no RTL) over every shipped trace and cc1_full, both modes
// at the default size, the default INTERVAL (1,000,000 instructions) and the
// 20,000 of the lock-step trace tests, records offered back to back and
// results taken at once: STALL_CYCLES (interval ends waiting for the
// background pass) stays under 1% of the cycles (issue 15).
TEST_P(DetectorStallFraction, StallCyclesUnderOnePercentOfCycles) {
  const auto& tc = GetParam();
  const auto& cfg = detector_config(tc.mode, false);
  model::PhaseDetector m(cfg.params, cfg.depth, cfg.max_len);
  auto rc = replay_cfg(tc.interval, 128);
  const auto r = model::replay_detector(m, hwprof::trace::branch_source(tc.path), rc, tc.mode);
  ASSERT_GT(r.records, 1000u);
  EXPECT_EQ(r.counters.records, std::min<uint64_t>(r.records, 0xffffffffu));
  const double stall = double(r.counters.stall_cycles) / double(r.feed_cycles);
  std::printf("[stall] %s %s interval %u: %llu records, %llu cycles, %u intervals, %u busy, %u stall cycles "
              "(%.4f%%)\n",
              trace_test_name(tc.path).c_str(), model::detector_mode_name(tc.mode), tc.interval,
              static_cast<unsigned long long>(r.records), static_cast<unsigned long long>(r.feed_cycles),
              r.counters.intervals, r.counters.busy_cycles, r.counters.stall_cycles, 100.0 * stall);
  EXPECT_LT(stall, 0.01);
}

INSTANTIATE_TEST_SUITE_P(Traces, DetectorStallFraction, ::testing::ValuesIn(stall_cases()), [](const auto& info) {
  return trace_test_name(info.param.path) + "_" + model::detector_mode_name(info.param.mode) + "_" +
         std::to_string(info.param.interval);
});
