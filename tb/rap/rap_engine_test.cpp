// Lock-step tests of the RAP engine (rtl/rap/hwprof_rap_engine.sv) against its cycle
// model (sim_models/rap/rap_engine.h): every cycle every output (ev_ready,
// dump_valid, dump_last, the register read data) is compared through the
// scoreboard, and after every stream the tree read out through the dump port
// is compared with a RapTree fed independently with the merging buffer's
// pairs (RapEventBuffer) -- and, in the directed cases, with the tree traced
// by hand from docs/rap.md. Directed cases first (paper Fig. 1 scenario,
// split on threshold, cascaded merges, capacity exhaustion, first merge and
// the doubling schedule, clear and reset mid-stream, queue full with
// backpressure, illegal registers, buffer weight overflow), then seeded
// random streams with bubbles and dump backpressure, then every shipped
// trace's code profile.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest_util.h"
#include "rap_both.h"
#include "rap_engine_lockstep.h"
#include "rap_replay.h"
#include "trace_source.h"

using hwprof::model::kRapBufMaxDepth;
using hwprof::model::kRapCmdClear;
using hwprof::model::kRapCmdDump;
using hwprof::model::kRapCmdFlush;
using hwprof::model::kRapStErr;
using hwprof::model::kRapStFull;
using hwprof::model::RapCsr;
using hwprof::model::RapDumpNode;
using hwprof::model::RapEngine;
using hwprof::model::RapEngineConfig;
using hwprof::model::RapEvent;
using hwprof::model::RapEventBuffer;
using hwprof::model::RapEventSource;
using hwprof::model::RapParams;
using hwprof::model::RapReplayConfig;
using hwprof::model::RapReplayResult;
using hwprof::model::RapTree;
using hwprof::tb::kRapDefault;
using hwprof::tb::kRapSmall;
using hwprof::tb::kRapSmallFf;
using hwprof::tb::RapEngineRtl;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

using Both = hwprof::tb::RapBoth;
inline RapParams params_of(const RapEngineConfig& c, const RapReplayConfig& rc) {
  return hwprof::tb::rap_params_of(c, rc);
}
inline RapTree reference(const RapParams& p, unsigned depth, const RapEventSource& src) {
  return hwprof::tb::rap_reference(p, depth, src);
}
inline std::string str(const std::vector<RapDumpNode>& v) { return hwprof::tb::rap_nodes_str(v); }

RapEventSource vec_source(const std::vector<RapEvent>& v) {
  auto i = std::make_shared<size_t>(0);
  return [&v, i](RapEvent& e) {
    if (*i >= v.size()) return false;
    e = v[(*i)++];
    return true;
  };
}

/// Replays `ev` through model and RTL in lock-step; checks the dumped tree
/// against RapTree on the buffered stream and the counters against its stats.
RapReplayResult run_and_check(Both& b, const std::vector<RapEvent>& ev, const RapReplayConfig& rc) {
  return hwprof::tb::rap_run_and_check(b, vec_source(ev), vec_source(ev), rc);
}

std::vector<RapEvent> fig1_events() {
  return {{0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0d, 10}, {0x05, 2}, {0x90, 88}, {0x0c, 3}, {0x0c, 1}};
}

}  // namespace

// docs/rap.md worked example (W = 8, eps = 1/2, MergeFirst 104, buffer off):
// the final tree written out by hand there; both TCAM variants.
TEST(RapEngine, PaperFig1Scenario) {
  for (const auto& cfg : {kRapSmall, kRapSmallFf}) {
    SCOPED_TRACE("TcamSlice " + std::to_string(cfg.tcam_slice));
    Both b(cfg, 1, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice));
    RapReplayConfig rc;
    rc.eps_q16 = 32768;
    rc.merge_first = 104;
    rc.buffer = 0;
    const auto ev = fig1_events();
    const RapReplayResult r = run_and_check(b, ev, rc);
    EXPECT_EQ(str(hwprof::model::rap_dump_nodes(r.beats, 8)),
              " 0/0=1 0/1=1 0/2=1 0/3=0 4/3=2 8/3=0 c/3=14 c/4=1 d/4=0 e/4=0 f/4=0 10/2=0 20/2=0 30/2=0 40/1=0"
              " 80/1=88 80/2=0 90/2=0 a0/2=0 b0/2=0 c0/1=0");
    EXPECT_EQ(r.counters.splits, 6u);       // docs/rap.md's table: six splits ...
    EXPECT_EQ(r.counters.merges, 1u);       // ... and the pass at n = 104 merges 0c/3's group
    // Six structural commits, each acted on in a D cycle (90 splits and
    // starts the pass), plus the two re-match cycles after the pass (S1's
    // pair, then M's).
    EXPECT_EQ(r.counters.stall_flush, 6u + 2u);
    EXPECT_EQ(r.counters.stall_sched, 10u);  // 5 groups + H (4) + 1 drain cycle
    EXPECT_EQ(r.counters.sched, 1u);
    // RAM TCAM, W = 8 in two 4-bit slices: each split rewrites 16 addresses
    // plus one refresh cycle; the flip-flop TCAM writes at the split's edge.
    EXPECT_EQ(r.counters.stall_tcam, cfg.tcam_slice ? 6u * 17u : 0u);
  }
}

// The RAM TCAM's write after a split (docs/rap_engine.md, "TCAM write
// latency"): STATUS shows TWR for exactly 2^4 + 1 = 17 cycles after the
// split's D cycle while the queue keeps taking events; the pair behind the
// split is matched against the new entry once TWR ends (the tree check).
TEST(RapEngine, TcamWriteLatency) {
  Both b(kRapSmall, 12);
  b.write(RapCsr::Eps, 0);  // T = 0: the first event splits the root
  b.write(RapCsr::MergeFirst, 1000);
  b.write(RapCsr::BufDepth, 0);
  b.write(RapCsr::Cmd, kRapCmdClear);
  RapEngine::In in;
  unsigned twr = 0, first = 0, c = 0, taken = 0;
  for (; c < 70; ++c) {
    in = {};
    in.ev_valid = c < 3;
    in.ev_value = 0x37;
    in.ev_weight = 1;
    in.csr_addr = unsigned(RapCsr::Status);
    const auto o = b.step(in);
    if (in.ev_valid && o.ev_ready) ++taken;
    if (o.csr_rdata & hwprof::model::kRapStTcam) {
      if (!twr) first = c;
      ++twr;
    }
  }
  // Event 1 splits the root (commit at cycle 4: queue, P, M, S1; the split
  // in D's cycle 5), event 2 then splits 00/1 after the first write; event
  // 3 splits 30/2.
  EXPECT_EQ(taken, 3u);
  EXPECT_EQ(first, 6u);
  EXPECT_EQ(twr, 3u * 17u);
  EXPECT_EQ(b.read(RapCsr::StallTcam), 3u * 17u);
  EXPECT_EQ(b.read(RapCsr::Splits), 3u);
}

// eps = 0 (T = 0): every counter above 0 splits, one level per event, never
// at depth H = 4; with the buffer at depth 1 consecutive repeats merge first.
TEST(RapEngine, SplitOnThreshold) {
  RapReplayConfig rc;
  rc.eps_q16 = 0;
  rc.merge_first = 1000000;
  rc.buffer = 0;
  const std::vector<RapEvent> ev = {{0x37, 1}, {0x37, 1}, {0x37, 1}, {0x37, 1}, {0x37, 1}, {0x37, 1}};
  // (One lock-step pair alive at a time: two live instances of one Verilated
  // model deadlock in their destructors.)
  {
  Both b(kRapSmall, 2);
  const RapReplayResult r = run_and_check(b, ev, rc);
  // Events 1-4 split the root, 00/1, 30/2, 34/3; 5-6 land on 37/4 (depth H).
  EXPECT_EQ(r.counters.splits, 4u);
  EXPECT_EQ(r.counters.nodes, 17u);
  const auto nodes = hwprof::model::rap_dump_nodes(r.beats, 8);
  EXPECT_NE(str(nodes).find(" 37/4=2"), std::string::npos) << str(nodes);
  }
  Both c(kRapSmall, 3);
  rc.buffer = 1;  // the six events become one pair (0x37, 6): one split
  const RapReplayResult r2 = run_and_check(c, ev, rc);
  EXPECT_EQ(r2.counters.pairs, 1u);
  EXPECT_EQ(r2.counters.splits, 1u);
}

// Drill down 00 to depth 3 (the fourth event with weight 11), then 90 on ff
// at n = 104 = MergeFirst (T = 13; c0/1 = 90 splits first). The pass merges
// 00/3's children (11 + 0 <= 13), then 00/2's (1 + 11 = 12), then 00/1's
// (1 + 12 = 13: equal to T, so it merges: "<=" in spec 4.1): three groups
// cascade in one pass. Pass length: 5 groups + H + 1 (drain) = 10 cycles.
TEST(RapEngine, CascadedMerges) {
  Both b(kRapSmall, 4);
  RapReplayConfig rc;
  rc.eps_q16 = 32768;
  rc.merge_first = 104;
  rc.buffer = 0;
  const std::vector<RapEvent> ev = {{0x00, 1}, {0x00, 1}, {0x00, 1}, {0x00, 11}, {0xff, 90}};
  const RapReplayResult r = run_and_check(b, ev, rc);
  EXPECT_EQ(str(hwprof::model::rap_dump_nodes(r.beats, 8)),
            " 0/0=1 0/1=13 40/1=0 80/1=0 c0/1=90 c0/2=0 d0/2=0 e0/2=0 f0/2=0");
  EXPECT_EQ(r.counters.merges, 3u);
  EXPECT_EQ(r.counters.stall_sched, 5u + 4u + 1u);
}

// NodeCap 9 (root + 2 groups), eps = 0: the third split runs a capacity pass
// that frees nothing, sets full and skips; later skips run no pass until the
// scheduled pass clears full.
TEST(RapEngine, CapacityExhaustion) {
  RapReplayConfig rc;
  rc.eps_q16 = 0;
  rc.node_cap = 9;
  rc.merge_first = 64;
  rc.buffer = 0;
  std::vector<RapEvent> ev;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 300; ++i) ev.push_back({uint32_t(rng() % 256), uint16_t(1 + rng() % 3)});
  {
  Both b(kRapSmall, 5);
  const RapReplayResult r = run_and_check(b, ev, rc);
  EXPECT_GT(r.counters.skipped, 0u);
  EXPECT_GT(r.counters.cap, 0u);
  EXPECT_LE(r.counters.peak, 9u);
  }
  // Overflow of the group table with the largest cap too.
  Both c(kRapSmall, 6);
  rc.node_cap = 0;  // 4 * 8 + 4 = 36
  const RapReplayResult r2 = run_and_check(c, ev, rc);
  EXPECT_GT(r2.counters.skipped, 0u);
  EXPECT_EQ(r2.counters.peak, 33u);  // all 8 groups in use
}

// MergeFirst 4 with unit weights: scheduled passes at n = 4, 8, 16, 32 (and
// none at 40): four passes.
TEST(RapEngine, FirstMergeAndDoublingSchedule) {
  Both b(kRapSmall, 7);
  RapReplayConfig rc;
  rc.eps_q16 = 6554;
  rc.merge_first = 4;
  rc.buffer = 0;
  std::vector<RapEvent> ev;
  for (int i = 0; i < 40; ++i) ev.push_back({uint32_t(i * 13 % 256), 1});
  const RapReplayResult r = run_and_check(b, ev, rc);
  EXPECT_EQ(r.counters.sched, 4u);
}

// CMD.clear in mid-stream (while the queue, buffer and pipeline hold events,
// and during a pass), then a hardware reset in mid-stream: after each, the
// next stream alone makes the tree.
TEST(RapEngine, ClearAndResetMidStream) {
  for (unsigned when : {3u, 10u, 25u, 60u}) {
    SCOPED_TRACE("clear after " + std::to_string(when) + " cycles");
    Both b(kRapSmall, 8 + when);
    b.write(RapCsr::Eps, 0);
    b.write(RapCsr::MergeFirst, 8);
    b.write(RapCsr::Cmd, kRapCmdClear);
    RapEngine::In in;
    for (unsigned c = 0; c < when; ++c) {
      in = {};
      in.ev_valid = true;
      in.ev_value = c * 29 % 256;
      in.ev_weight = 2;
      b.step(in);
    }
    b.write(RapCsr::Cmd, kRapCmdClear);
    EXPECT_EQ(b.read(RapCsr::NLo), 0u);
    RapReplayConfig rc;
    rc.eps_q16 = 3000;
    rc.merge_first = 16;
    rc.buffer = 2;
    std::vector<RapEvent> ev;
    for (int i = 0; i < 100; ++i) ev.push_back({uint32_t(i * 7 % 64), 1});
    run_and_check(b, ev, rc);
    // Hardware reset mid-stream (both sides), then a fresh stream.
    for (unsigned c = 0; c < when; ++c) {
      in = {};
      in.ev_valid = true;
      in.ev_value = c;
      in.ev_weight = 1;
      b.step(in);
    }
    b.reset();
    EXPECT_EQ(b.read(RapCsr::Cap), 36u);  // reset value: 4 * Groups + 4
    run_and_check(b, ev, rc);
  }
}

// A 4-deep queue fills behind splits and passes: ev_ready falls and
// IN_STALL counts; the dump is read with backpressure.
TEST(RapEngine, QueueFullWithBackpressure) {
  Both b(kRapSmall, 9);
  RapReplayConfig rc;
  rc.eps_q16 = 1000;
  rc.merge_first = 8;
  rc.buffer = 0;
  std::mt19937_64 rng(9);
  rc.stall = [&rng] { return rng() % 2 == 0; };
  std::vector<RapEvent> ev;
  for (int i = 0; i < 500; ++i) ev.push_back({uint32_t(rng() % 256), uint16_t(rng() % 4)});
  const RapReplayResult r = run_and_check(b, ev, rc);
  EXPECT_GT(r.counters.in_stall, 0u);
  EXPECT_GT(r.counters.stall_sched, 0u);
}

// Illegal register values are ignored and set STATUS.err (W1C); a dump while
// busy is refused; the buffer's 32-bit pair weight does not overflow.
TEST(RapEngine, IllegalRegistersAndBufferOverflow) {
  Both b(kRapSmall, 10);
  const std::vector<std::pair<RapCsr, uint32_t>> bad = {
      {RapCsr::Eps, 0x10000}, {RapCsr::Cap, 0}, {RapCsr::Cap, 37}, {RapCsr::MergeFirst, 0},
      {RapCsr::BufDepth, kRapBufMaxDepth + 1}};
  for (auto [a, v] : bad) {
    b.write(a, v);
    EXPECT_NE(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, kRapStErr);
    EXPECT_EQ(b.read(RapCsr::Status) & kRapStErr, 0u);
  }
  EXPECT_EQ(b.read(RapCsr::Cap), 36u);
  RapEngine::In in;
  in.ev_valid = true;
  in.ev_value = 3;
  in.ev_weight = 1;
  b.step(in);
  b.write(RapCsr::Cmd, kRapCmdDump);
  EXPECT_NE(b.read(RapCsr::Status) & kRapStErr, 0u);
  b.write(RapCsr::Status, kRapStErr);
  b.write(RapCsr::Cmd, kRapCmdClear);
  // 70,000 events of weight 0xffff on one value: the pair weight passes
  // 2^32 - 1 after 65,537 events, so a second entry starts.
  RapReplayConfig rc;
  rc.eps_q16 = 6554;
  rc.merge_first = 1u << 31;
  rc.buffer = 2;
  std::vector<RapEvent> ev(70000, RapEvent{0x42, 0xffff});
  const RapReplayResult r = run_and_check(b, ev, rc);
  EXPECT_EQ(r.counters.pairs, 2u);
}

// Seeded random streams, both configurations, random parameters, bubbles
// (IDLE_PCT) and dump backpressure (STALL_PCT); SEEDS=<n> sweeps more.
TEST(RapEngine, RandomStreams) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 16;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s));
    std::mt19937_64 rng(s);
    const RapEngineConfig cfg = s % 3 == 0 ? kRapDefault : s % 3 == 1 ? kRapSmall : kRapSmallFf;
    Both b(cfg, s);
    Throttle idle(s * 3, env.idle_for(s)), stall(s * 5, env.stall_for(s));
    const RapReplayConfig rc = hwprof::tb::rap_random_replay(rng, cfg, false, idle, stall);
    const unsigned n = cfg.range_bits == 8 ? 1500 : 4000;
    std::vector<RapEvent> ev(n);
    const unsigned hot = 1 + unsigned(rng() % 12);
    const uint32_t base = uint32_t(rng());
    for (auto& e : ev) {
      const unsigned k = unsigned(rng() % 8);
      e.value = k < 5 ? base + uint32_t(rng() % hot) * 0x10204u : uint32_t(rng());
      e.weight = uint16_t(k == 7 ? rng() % 65536 : rng() % 8);
    }
    run_and_check(b, ev, rc);
  }
}

// Every shipped trace's code profile (a prefix; RAP_EVENTS=<n> for more,
// 0 for the whole trace), default build, buffer 4 and (gzip) buffer 0.
TEST(RapEngine, RealTracesCodeProfile) {
  const auto traces = hwprof::tb::shipped_traces();
  ASSERT_FALSE(traces.empty());
  const char* lim = std::getenv("RAP_EVENTS");
  const uint64_t limit = lim ? std::strtoull(lim, nullptr, 10) : 40000;
  for (const auto& t : traces) {
    for (unsigned buffer : {4u, 0u}) {
      if (buffer == 0 && t.find("gzip") == std::string::npos) continue;
      SCOPED_TRACE(t + " buffer " + std::to_string(buffer));
      Both b(kRapDefault, 1, hwprof::tb::current_test_name() + "_" + hwprof::tb::trace_test_name(t));
      RapReplayConfig rc;
      rc.buffer = buffer;
      rc.merge_first = 1024;
      const auto src = hwprof::trace::rap_source(t, hwprof::trace::RapSourceKind::Code, limit);
      const RapReplayResult r = hwprof::model::replay_rap(b, src, rc);
      const RapTree ref = reference(params_of(kRapDefault, rc), buffer,
                                    hwprof::trace::rap_source(t, hwprof::trace::RapSourceKind::Code, limit));
      EXPECT_EQ(str(hwprof::model::rap_dump_nodes(r.beats, 32)), str(hwprof::model::rap_tree_nodes(ref)));
      EXPECT_EQ(r.counters.splits, ref.stats().splits);
      const double epc = double(r.events) / double(r.feed_cycles);
      std::printf("[rap] %s buffer %u: %llu events, %llu cycles, %.4f events/clock, peak %u\n",
                  hwprof::tb::trace_test_name(t).c_str(), buffer, static_cast<unsigned long long>(r.events),
                  static_cast<unsigned long long>(r.feed_cycles), epc, r.counters.peak);
    }
  }
}
