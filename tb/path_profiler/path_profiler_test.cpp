// Lock-step tests of the whole path profiler (rtl/path_profiler/
// path_profiler.sv: branch queue -> classifier -> path stack -> HPT, one
// register port) against its cycle model (sim_models/path_profiler/
// path_profiler.h): a hand-written program whose hot paths are counted by
// hand, throughput end to end, the register map split, a dump in the middle
// of a record stream, reset in mid-stream, seeded random stimulus, and every
// shipped real trace end to end with the final table equal to the
// functional models (PathStackAlgo -> HptAlgo) run separately.
#include <gtest/gtest.h>

#include <random>

#include "gtest_util.h"
#include "path_profiler_lockstep.h"
#include "profiler_replay.h"
#include "record_gen.h"
#include "trace_source.h"

using hwprof::model::BranchRecord;
using hwprof::model::Emission;
using hwprof::model::Hpt;
using hwprof::model::hpt_csr;
using hwprof::model::HptAlgo;
using hwprof::model::HptCsr;
using hwprof::model::HptCtrl;
using hwprof::model::HptPolicy;
using hwprof::model::PathCsr;
using hwprof::model::PathProfiler;
using hwprof::model::PathRecord;
using hwprof::model::PathStackAlgo;
using hwprof::model::Ppcr;
using hwprof::model::ProfilerReplayConfig;
using hwprof::model::ProfilerReplayResult;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::ProfilerConfig;
using hwprof::tb::rec;
using hwprof::tb::RecordGen;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;
using namespace hwprof::tb::kinds;

namespace {

ProfilerConfig default_cfg() { return hwprof::tb::path_profiler_configs().at(0); }  // q4 d16 l32, 128 x 4
ProfilerConfig small_cfg() { return hwprof::tb::path_profiler_configs().at(1); }    // q2 d4 l8, 4 x 2

hwprof::model::RecordSource vector_source(const std::vector<BranchRecord>& v) {
  auto i = std::make_shared<size_t>(0);
  return [&v, i](BranchRecord& r) {
    if (*i == v.size()) return false;
    r = v[(*i)++];
    return true;
  };
}

// The functional models alone: every record through PathStackAlgo, every
// emission into HptAlgo. The RTL's dump must equal its contents.
std::vector<Hpt::DumpEntry> functional_table(const hwprof::model::RecordSource& src, const ProfilerConfig& cfg,
                                             uint32_t ppcr, uint32_t ctrl, hwprof::model::HptStats* stats = nullptr,
                                             const hwprof::model::HptProbation& prob = {}) {
  PathStackAlgo stack(cfg.path.depth, cfg.path.max_len);
  HptAlgo hpt(cfg.sets, cfg.ways, {}, prob);
  const HptCtrl c = HptCtrl::unpack(ctrl);
  BranchRecord r;
  while (src(r))
    if (auto e = stack.process(PathRecord::classify(r, Ppcr{ppcr}))) hpt.insert(*e, c);
  std::vector<Hpt::DumpEntry> v;
  for (unsigned s = 0; s < hpt.sets(); ++s)
    for (unsigned w = 0; w < hpt.ways(); ++w) {
      const auto& x = hpt.entry(s, w);
      if (x.valid) v.push_back({s, w, x.key, x.acc});
    }
  if (stats) *stats = hpt.stats();
  return v;
}

std::string show(const Hpt::DumpEntry& d) {
  return "set " + std::to_string(d.set) + " way " + std::to_string(d.way) + " start " + std::to_string(d.key.start) +
         " len " + std::to_string(d.key.length) + " dirs " + std::to_string(d.key.dirs) + " acc " +
         std::to_string(d.acc);
}

void expect_same_table(const std::vector<Hpt::DumpEntry>& want, const std::vector<Hpt::DumpEntry>& got) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i << ": " << show(got[i]);
}

// A routine at 0x100 called 5 times from 0x50: each call runs a loop of
// three iterations (back edge at 0x124) with a forward branch at 0x104 that
// is taken in the first iteration only, then returns. Under BL the paths are
// (counted by hand):
//   0x100 {b0 = 1 (0x104 taken), b1 = 1 (back edge)}   5 times (first iteration)
//   0x110 {b0 = 1 (back edge)}                          5 times (second)
//   0x110 {b0 = 0 (exit, not taken)} ending at the ret  5 times (third)
// The caller's entry (created incomplete at 0x50 by the first call's
// update-count) stays on the stack and is never emitted.
std::vector<BranchRecord> five_calls() {
  std::vector<BranchRecord> v;
  for (int c = 0; c < 5; ++c) {
    v.push_back(rec(kCall, 0x50, 0x100, true, 3));
    v.push_back(rec(kBr, 0x104, 0x120, true, 2));   // forward, taken
    v.push_back(rec(kBr, 0x124, 0x110, true, 4));   // back edge
    v.push_back(rec(kBr, 0x124, 0x110, true, 5));   // back edge
    v.push_back(rec(kBr, 0x124, 0x110, false, 5));  // exit
    v.push_back(rec(kRet, 0x130, 0x55, true, 2));
  }
  return v;
}

TEST(PathProfiler, HandCountedHotPathsOfALoopInARoutine) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_profiler_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  const auto recs = five_calls();
  ProfilerReplayResult res;
  try {
    res = hwprof::model::replay_profiler(ls, vector_source(recs), {});
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
  // Keys and counts by hand (frequency metric).
  struct Want {
    uint32_t start;
    uint8_t length;
    uint32_t dirs;
    uint32_t count;
  };
  const Want want[] = {{0x100, 2, 0b11, 5}, {0x110, 1, 0b1, 5}, {0x110, 1, 0b0, 5}};
  ASSERT_EQ(res.entries.size(), 3u);
  for (const auto& w : want) {
    bool found = false;
    for (const auto& e : res.entries)
      if (e.key.start == w.start && e.key.length == w.length && e.key.dirs == w.dirs) {
        EXPECT_EQ(e.acc, w.count) << std::hex << w.start;
        found = true;
      }
    EXPECT_TRUE(found) << "path 0x" << std::hex << w.start << " len " << unsigned(w.length) << " missing";
  }
  EXPECT_EQ(res.hpt.descs, 15u);
  EXPECT_EQ(res.hpt.hits, 12u);
  EXPECT_EQ(res.hpt.fills, 3u);
  EXPECT_EQ(res.hpt.ignored, 0u);
  EXPECT_EQ(res.frontend.records, recs.size());
  EXPECT_EQ(res.frontend.emitted, 15u);
}

// One record per clock end to end: the records enter back to back and the
// last descriptor is in the HPT a fixed latency later.
TEST(PathProfiler, SustainsOneRecordPerClockEndToEnd) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_profiler_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  RecordGen gen(env.seed);
  std::vector<BranchRecord> recs;
  for (int i = 0; i < 20000; ++i) recs.push_back(gen.next());
  ProfilerReplayResult res;
  try {
    res = hwprof::model::replay_profiler(ls, vector_source(recs), {});
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
  // 20000 feed cycles plus the drain polls (a handful of register reads).
  EXPECT_LE(res.feed_cycles, recs.size() + 12);
  EXPECT_EQ(res.frontend.stall_cycles, 0u);
  EXPECT_EQ(res.hpt.stall_cycles, 0u);
  EXPECT_GT(res.hpt.hits, 0u);
  EXPECT_GT(res.hpt.replacements + res.hpt.rejects, 0u) << "the random program should overflow a 512-entry table";
  // The command cycle, the HPT's busy cycles (Hpt::dump_cycles: Drain plus
  // Sets*(2 + Ways), docs/hpt.md) and the cycle that sees dump_busy low.
  EXPECT_EQ(res.dump_cycles, 1u + hwprof::model::Hpt::dump_cycles(128, 4) + 1);
}

TEST(PathProfiler, RegisterMapSplitsFrontEndAndHpt) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_profiler_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  PathProfiler::In in;
  auto rd = [&](unsigned a) {
    in = {};
    in.csr_addr = a;
    return ls.step(in).csr_rdata;
  };
  auto wr = [&](unsigned a, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = a;
    in.csr_wdata = v;
    ls.step(in);
  };
  EXPECT_EQ(rd(unsigned(PathCsr::Ppcr)), Ppcr::kBl);
  EXPECT_EQ(rd(hpt_csr(HptCsr::Ctrl)), HptCtrl::reset_value());
  EXPECT_EQ(rd(hpt_csr(HptCsr::Params)), 7u | 4u << 16);
  wr(hpt_csr(HptCsr::Ctrl), HptCtrl{hwprof::model::HptIndex::Pb, false, hwprof::model::HptMetric::Insns,
                                    HptPolicy::Ss}
                                .pack());
  EXPECT_EQ(rd(unsigned(PathCsr::Ppcr)), Ppcr::kBl) << "an HPT write must not reach the front end";
  wr(unsigned(PathCsr::Ppcr), Ppcr::kWpp);
  EXPECT_EQ(rd(hpt_csr(HptCsr::Ctrl)), 0x19u) << "a front-end write must not reach the HPT";
  wr(hpt_csr(HptCsr::Ctrl), 0x0c);  // metric 3: illegal
  EXPECT_EQ(rd(hpt_csr(HptCsr::Status)) & 1, 1u);
  EXPECT_EQ(rd(unsigned(PathCsr::Status)) & 1, 0u);
  wr(hpt_csr(HptCsr::Status), 1);
  EXPECT_EQ(rd(hpt_csr(HptCsr::Status)) & 1, 0u);
}

// A dump requested while records stream in: intake pauses (the front end
// and then the queue back up), the pause is counted, nothing is lost, and
// the final table equals the functional models'.
TEST(PathProfiler, DumpInMidStreamPausesIntakeAndLosesNothing) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_profiler_lockstep(small_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  RecordGen gen(env.seed);
  std::vector<BranchRecord> recs;
  for (int i = 0; i < 3000; ++i) recs.push_back(gen.next());
  PathProfiler::In in;
  size_t next = 0;
  bool saw_pause = false;
  size_t dumped = 0;
  try {
    for (uint64_t c = 0; next < recs.size(); ++c) {
      in = {};
      in.rec_valid = true;
      in.rec_data = recs[next];
      in.dump_ready = c % 3 != 0;
      if (c % 700 == 350) {  // a dump every 700 cycles
        in.csr_we = true;
        in.csr_addr = hpt_csr(HptCsr::Cmd);
        in.csr_wdata = hwprof::model::kHptCmdDump;
      }
      auto o = ls.step(in);
      if (o.rec_ready) ++next;
      if (o.dump_busy && !o.rec_ready) saw_pause = true;
      if (o.dump_valid && in.dump_ready) ++dumped;
    }
    ProfilerReplayConfig rc;
    rc.records_before = recs.size();
    auto res = hwprof::model::replay_profiler(ls, [](BranchRecord&) { return false; }, rc);
    EXPECT_TRUE(saw_pause);
    EXPECT_GT(dumped, 0u);
    EXPECT_GT(res.hpt.stall_cycles, 0u) << "the dump's pause must be counted";
    EXPECT_EQ(res.frontend.records, recs.size());
    hwprof::model::HptStats st;
    const auto want = functional_table(vector_source(recs), small_cfg(), Ppcr::kBl, HptCtrl::reset_value(), &st);
    expect_same_table(want, res.entries);
    EXPECT_EQ(res.hpt.descs, st.descs);
    EXPECT_EQ(res.hpt.ignored, st.ignored);
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
}

TEST(PathProfiler, ResetInMidStreamEmptiesEverything) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_profiler_lockstep(small_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  RecordGen gen(env.seed);
  PathProfiler::In in;
  try {
    for (int c = 0; c < 500; ++c) {
      in = {};
      in.rec_valid = true;
      in.rec_data = gen.next();
      if (c == 400) {
        in.csr_we = true;
        in.csr_addr = hpt_csr(HptCsr::Cmd);
        in.csr_wdata = hwprof::model::kHptCmdDump;
      }
      ls.step(in);
    }
    ls.reset();  // in the middle of the dump, with records in every stage
    in = {};
    for (unsigned a = 0; a < 32; ++a) {
      in.csr_addr = a;
      const uint32_t v = ls.step(in).csr_rdata;
      if (a == unsigned(PathCsr::Ppcr)) {
        EXPECT_EQ(v, Ppcr::kBl);
      } else if (a == hpt_csr(HptCsr::Ctrl)) {
        EXPECT_EQ(v, HptCtrl::reset_value());
      } else if ((a >= hpt_csr(HptCsr::Descs) && a <= hpt_csr(HptCsr::StallCycles)) ||
                 (a >= unsigned(PathCsr::Records) && a <= unsigned(PathCsr::StallCycles))) {
        EXPECT_EQ(v, 0u) << "register " << a << " not cleared by reset";
      }
    }
    std::vector<BranchRecord> recs;
    for (int i = 0; i < 2000; ++i) recs.push_back(gen.next());
    auto res = hwprof::model::replay_profiler(ls, vector_source(recs), {});
    expect_same_table(functional_table(vector_source(recs), small_cfg(), Ppcr::kBl, HptCtrl::reset_value()),
                      res.entries);
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
}

class PathProfilerConfig : public ::testing::TestWithParam<ProfilerConfig> {};

// Random records with bubbles, random register traffic to both blocks
// (PPCR, HPT_CTRL, commands including clears and dumps), dump_ready
// backpressure; then a final replay whose table equals the functional models
// when started from a cleared table.
TEST_P(PathProfilerConfig, RandomLockstepWithBubblesCommandsAndBackpressure) {
  SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 12;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    RecordGen gen(seed);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    auto ls = hwprof::tb::make_path_profiler_lockstep(GetParam(), env, hwprof::tb::current_test_name(), seed);
    PathProfiler::In in;
    uint64_t taken = 0;
    try {
      for (int c = 0; c < 6000; ++c) {
        if (!in.rec_valid && !idle()) {
          in.rec_valid = true;
          in.rec_data = gen.next();
        }
        in.dump_ready = !stall();
        in.csr_we = gen.rng()() % 200 == 0;
        const unsigned pick = static_cast<unsigned>(gen.rng()() % 5);
        if (in.csr_we) {
          if (pick == 0) {
            in.csr_addr = unsigned(PathCsr::Ppcr);
            in.csr_wdata = gen.legal_ppcr();
          } else if (pick == 1) {
            in.csr_addr = hpt_csr(HptCsr::Ctrl);
            in.csr_wdata = static_cast<uint32_t>(gen.rng()() & 0x3f);  // legal and illegal
          } else if (pick == 2) {
            in.csr_addr = hpt_csr(HptCsr::Status);
            in.csr_wdata = 1;
          } else {
            in.csr_addr = hpt_csr(HptCsr::Cmd);
            in.csr_wdata = static_cast<uint32_t>(gen.rng()() & 7);
          }
        } else {
          in.csr_addr = static_cast<unsigned>(gen.rng()() % 32);
        }
        auto o = ls.step(in);
        if (in.rec_valid && o.rec_ready) {
          in.rec_valid = false;
          ++taken;
        }
      }
      // Finish: clear the table, then a clean replay that the functional
      // models must reproduce.
      PathProfiler::In w;
      w.dump_ready = true;
      for (int c = 0; c < 5000 && ls.model().hpt().dump_busy(); ++c) ls.step(w);
      ASSERT_FALSE(ls.model().hpt().dump_busy());
      w.csr_we = true;
      w.csr_addr = hpt_csr(HptCsr::Cmd);
      w.csr_wdata = hwprof::model::kHptCmdClear | hwprof::model::kHptCmdClearStats;
      ls.step(w);
      std::vector<BranchRecord> recs;
      for (int i = 0; i < 3000; ++i) recs.push_back(gen.next());
      ProfilerReplayConfig rc;
      rc.hpt_ctrl = static_cast<uint32_t>(gen.rng()() % 3) << HptCtrl::kPolicyLsb |
                    static_cast<uint32_t>(gen.rng()() % 4);  // policy x index x skew
      rc.stall = [&] { return stall(); };
      rc.records_before = taken;
      // The stack still holds frames from the random phase, so a fresh
      // functional run is no reference here; the lock-step compares every
      // cycle, and the dump must hold exactly the model's valid entries.
      auto res = hwprof::model::replay_profiler(ls, vector_source(recs), rc);
      EXPECT_EQ(res.entries.size(), ls.model().hpt().algo().contents().size());
      EXPECT_GT(res.entries.size(), 0u);
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, PathProfilerConfig, ::testing::ValuesIn(hwprof::tb::path_profiler_configs()),
                         [](const auto& info) { return info.param.name(); });

// ------------------------------------------------------------ real traces

struct TraceCase {
  std::string path;
  std::string policy;  // lfu or the default
};
void PrintTo(const TraceCase& c, std::ostream* os) { *os << c.path << " " << c.policy; }

std::vector<TraceCase> trace_cases() {
  std::vector<TraceCase> v;
  for (const auto& t : hwprof::tb::shipped_traces())
    for (const char* p : {"erode", "lfu"}) v.push_back({t, p});
  return v;
}

class PathProfilerRealTrace : public ::testing::TestWithParam<TraceCase> {};

// Every shipped trace through the whole profiler, RTL against the cycle
// model every cycle (5% dump backpressure), and the final table equal to
// PathStackAlgo -> HptAlgo run separately.
TEST_P(PathProfilerRealTrace, LockstepEveryCycleAndTableEqualsFunctionalModels) {
  SimEnv env = SimEnv::from_env();
  const auto& tc = GetParam();
  auto ls = hwprof::tb::make_path_profiler_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  HptCtrl ctrl;
  ctrl.policy = HptCtrl::parse_policy(tc.policy);
  ProfilerReplayConfig rc;
  rc.hpt_ctrl = ctrl.pack();
  Throttle stall(env.seed, 5);
  rc.stall = [&] { return stall(); };
  ProfilerReplayResult res;
  try {
    res = hwprof::model::replay_profiler(ls, hwprof::trace::branch_source(tc.path), rc);
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
  hwprof::model::HptStats st;
  const auto want = functional_table(hwprof::trace::branch_source(tc.path), default_cfg(), Ppcr::kBl, rc.hpt_ctrl, &st);
  expect_same_table(want, res.entries);
  EXPECT_EQ(res.hpt.descs, st.descs);
  EXPECT_EQ(res.hpt.hits, st.hits);
  EXPECT_EQ(res.hpt.replacements, st.replacements);
  EXPECT_EQ(res.hpt.rejects, st.rejects);
  EXPECT_EQ(res.hpt.ignored, st.ignored);
  EXPECT_LE(res.feed_cycles, res.records + 12) << "one record per clock end to end";
}

INSTANTIATE_TEST_SUITE_P(Shipped, PathProfilerRealTrace, ::testing::ValuesIn(trace_cases()),
                         [](const auto& info) {
                           return hwprof::tb::trace_test_name(info.param.path) + "_" + info.param.policy;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PathProfilerRealTrace);

// The same with the HPT's probation area (128 x 4 x (12 + 14) bits, sim/
// rtl_configs.cmake unit path_profiler_prob) under lfu+prob (CTRL.policy 3):
// lock-step every cycle, the final table and counters equal PathStackAlgo
// -> HptAlgo with the same area, and still one record per clock.
class PathProfilerProbRealTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(PathProfilerProbRealTrace, LockstepEveryCycleAndTableEqualsFunctionalModels) {
  SimEnv env = SimEnv::from_env();
  const auto& pc = hwprof::tb::path_profiler_prob_configs().at(0);
  auto ls = hwprof::tb::make_path_profiler_prob_lockstep(pc, env, hwprof::tb::current_test_name(), env.seed);
  HptCtrl ctrl;
  ctrl.policy = HptPolicy::Lfu;
  ctrl.admit = hwprof::model::HptAdmit::Probation;  // lfu + probation: code 3
  ProfilerReplayConfig rc;
  rc.hpt_ctrl = ctrl.pack();
  ASSERT_EQ(rc.hpt_ctrl >> 4 & 3u, 3u);
  Throttle stall(env.seed, 5);
  rc.stall = [&] { return stall(); };
  ProfilerReplayResult res;
  try {
    res = hwprof::model::replay_profiler(ls, hwprof::trace::branch_source(GetParam()), rc);
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
  hwprof::model::HptStats st;
  const auto want =
      functional_table(hwprof::trace::branch_source(GetParam()), pc.base, Ppcr::kBl, rc.hpt_ctrl, &st, pc.prob);
  expect_same_table(want, res.entries);
  EXPECT_EQ(res.hpt.descs, st.descs);
  EXPECT_EQ(res.hpt.hits, st.hits);
  EXPECT_EQ(res.hpt.replacements, st.replacements);
  EXPECT_EQ(res.hpt.rejects, st.rejects);
  EXPECT_EQ(res.hpt.ignored, st.ignored);
  EXPECT_GT(st.rejects, 0u);
  EXPECT_LE(res.feed_cycles, res.records + 12) << "one record per clock end to end";
}

INSTANTIATE_TEST_SUITE_P(ShippedProb, PathProfilerProbRealTrace, ::testing::ValuesIn(hwprof::tb::shipped_traces()),
                         [](const auto& info) { return hwprof::tb::trace_test_name(info.param) + "_lfu_prob"; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PathProfilerProbRealTrace);

}  // namespace
