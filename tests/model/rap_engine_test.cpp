// Tests of the RAP engine's merging event buffer (RapEventBuffer) and cycle
// model (RapEngine, sim_models/rap/rap_engine.h) against docs/rap_engine.md.
// Expected buffer outputs and stall counts are traced by hand from the
// definitions in docs/rap_engine.md (the comments give the trace); the tree
// itself is compared with RapTree fed independently with the buffer's pairs.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "rap_event_buffer.h"
#include "rap_engine.h"
#include "rap_replay.h"

using namespace hwprof::model;

namespace {

std::vector<RapPair> run_buffer(unsigned depth, const std::vector<RapPair>& in) {
  RapEventBuffer b(depth);
  std::vector<RapPair> out;
  for (const RapPair& e : in)
    if (auto p = b.push(e.value, e.weight)) out.push_back(*p);
  while (auto p = b.pop_oldest()) out.push_back(*p);
  return out;
}

RapEventSource vec_source(const std::vector<RapEvent>& v) {
  auto i = std::make_shared<size_t>(0);
  return [&v, i](RapEvent& e) {
    if (*i >= v.size()) return false;
    e = v[(*i)++];
    return true;
  };
}

/// RapTree fed with the buffer's pairs (depth, flush at the end).
RapTree reference(const RapParams& p, unsigned depth, const std::vector<RapEvent>& ev) {
  RapTree t(p);
  RapEventBuffer b(depth);
  const uint32_t m = p.range_bits == 32 ? 0xffffffffu : (1u << p.range_bits) - 1;
  for (const RapEvent& e : ev)
    if (auto q = b.push(e.value & m, e.weight)) t.add(q->value, q->weight);
  while (auto q = b.pop_oldest()) t.add(q->value, q->weight);
  return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rap_engine)

BOOST_AUTO_TEST_CASE(BufferDepthZeroPassesEveryEvent) {
  const std::vector<RapPair> in = {{5, 1}, {5, 2}, {7, 0}};
  BOOST_TEST((run_buffer(0, in) == in));
  BOOST_CHECK_THROW(RapEventBuffer(kRapBufMaxDepth + 1), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(BufferMergesWithinTheWindowAndEmitsTheOldest) {
  // depth 2: a1 -> [a1]; b1 -> [a1 b1]; a3 -> [a4 b1]; c1 -> full, emit a4, [b1 c1];
  // b2 -> [b3 c1]; d1 -> emit b3, [c1 d1]; flush: c1, d1.
  const std::vector<RapPair> in = {{0xa, 1}, {0xb, 1}, {0xa, 3}, {0xc, 1}, {0xb, 2}, {0xd, 1}};
  const std::vector<RapPair> want = {{0xa, 4}, {0xb, 3}, {0xc, 1}, {0xd, 1}};
  BOOST_TEST((run_buffer(2, in) == want));
  // depth 1: only consecutive repeats merge: a1 a2 b1 a1 -> a3, b1, a1.
  BOOST_TEST((run_buffer(1, {{1, 1}, {1, 2}, {2, 1}, {1, 1}}) == std::vector<RapPair>{{1, 3}, {2, 1}, {1, 1}}));
}

BOOST_AUTO_TEST_CASE(BufferWeightOverflowAppendsASecondEntry) {
  RapEventBuffer b(3);
  BOOST_TEST(!b.push(9, 0xfffffffeu).has_value());
  BOOST_TEST(!b.push(9, 1).has_value());  // 0xffffffff fits
  BOOST_TEST(b.size() == 1u);
  BOOST_TEST(!b.push(9, 1).has_value());  // would overflow: second entry
  BOOST_TEST(b.size() == 2u);
  BOOST_TEST(b.match(9, 0) == 1);  // the youngest
  BOOST_TEST(!b.push(9, 5).has_value());
  BOOST_TEST(b.entries()[0].weight == 0xffffffffu);
  BOOST_TEST(b.entries()[1].weight == 6u);
}

// Paper Fig. 1 analogue (docs/rap.md worked example) through the engine with
// W = 8, 8 groups, buffer off: six commits change the structure (four
// drill-down splits, the split of 80/1 with the scheduled pass at n = 104,
// the split of 0c/3), each acted on in a D cycle, and the pass is followed
// by the two re-match cycles (S1's pair, M's), so StallFlush = 6 + 2; the
// pass at n = 104 starts with 21 nodes (5 groups): 5 + H + 1 (drain) = 10
// cycles.
BOOST_AUTO_TEST_CASE(PaperFig1ScenarioStallsAsDocumented) {
  RapEngineConfig cfg;
  cfg.range_bits = 8;
  cfg.groups = 8;
  cfg.queue_depth = 4;
  RapEngine eng(cfg);
  const std::vector<RapEvent> ev = {{0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0d, 10},
                                    {0x05, 2}, {0x90, 88}, {0x0c, 3}, {0x0c, 1}};
  RapReplayConfig rc;
  rc.eps_q16 = 32768;
  rc.merge_first = 104;
  rc.buffer = 0;
  rc.node_cap = 0;  // 4 * 8 + 4 = 36: room for every node (at most 21)
  const RapReplayResult r = replay_rap(eng, vec_source(ev), rc);
  BOOST_TEST(r.counters.n == 108u);
  BOOST_TEST(r.counters.pairs == 9u);
  BOOST_TEST(r.counters.splits == 6u);
  BOOST_TEST(r.counters.sched == 1u);
  BOOST_TEST(r.counters.merges == 1u);
  BOOST_TEST(r.counters.nodes == 21u);
  BOOST_TEST(r.counters.peak == 21u);
  BOOST_TEST(r.counters.stall_flush == 8u);
  BOOST_TEST(r.counters.stall_sched == 10u);
  BOOST_TEST(r.counters.stall_cap == 0u);
  // The default RAM TCAM (4-bit slices): each split spends 2^4 + 1 cycles in
  // the TCAM write; the flip-flop TCAM (TcamSlice 0) none.
  BOOST_TEST(r.counters.stall_tcam == 6u * 17u);
  {
    RapEngineConfig ff = cfg;
    ff.tcam_slice = 0;
    RapEngine e0(ff);
    const RapReplayResult r0 = replay_rap(e0, vec_source(ev), rc);
    BOOST_TEST(r0.counters.stall_tcam == 0u);
    BOOST_TEST(r0.feed_cycles + 6u * 17u == r.feed_cycles);
  }
  RapParams p;
  p.range_bits = 8;
  p.eps_q16 = 32768;
  p.node_cap = 36;
  p.merge_first = 104;
  BOOST_TEST(eng.tree().same_tree(reference(p, 0, ev)));
  // The four drill-down splits come back to back: each costs a replay cycle,
  // so the 4-entry queue fills while the events behind them wait.
  BOOST_TEST(r.counters.in_stall > 0u);
}

BOOST_AUTO_TEST_CASE(CapacityPassIsChargedSeparately) {
  // W = 4 (H = 2), 2 groups (NodeCap 9 = root + 2 groups), eps = 0: every
  // counter above 0 splits. 0 -> root splits (group 1); 4 -> 4/1 splits
  // (group 2); 8 -> 8/1 wants to split, no room: capacity pass with T = 0
  // merges nothing (every group sum > 0): full, skipped. The pass starts with
  // 9 nodes (2 groups): 2 + H + 1 (drain) = 5 cycles.
  RapEngineConfig cfg;
  cfg.range_bits = 4;
  cfg.groups = 2;
  cfg.queue_depth = 8;
  RapEngine eng(cfg);
  const std::vector<RapEvent> ev = {{0, 1}, {4, 1}, {8, 1}, {8, 1}};
  RapReplayConfig rc;
  rc.eps_q16 = 0;
  rc.buffer = 0;
  const RapReplayResult r = replay_rap(eng, vec_source(ev), rc);
  BOOST_TEST(r.counters.splits == 2u);
  BOOST_TEST(r.counters.cap == 1u);
  BOOST_TEST(r.counters.skipped == 2u);  // the second 8 is skipped without a pass (full)
  BOOST_TEST(r.counters.stall_cap == 5u);
  BOOST_TEST(r.counters.stall_flush == 5u);  // D cycles of two splits and one capacity pass, two re-matches after it
  BOOST_TEST((r.counters.status & kRapStFull) != 0u);
}

BOOST_AUTO_TEST_CASE(RegistersRejectIllegalValues) {
  RapEngine eng;
  auto wr = [&](RapCsr a, uint32_t v) {
    RapEngine::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    eng.step(in);
  };
  auto rd = [&](RapCsr a) {
    RapEngine::In in;
    in.csr_addr = unsigned(a);
    return eng.step(in).csr_rdata;
  };
  BOOST_TEST(rd(RapCsr::Cap) == 512u);
  BOOST_TEST(rd(RapCsr::Eps) == kRapEpsDefault);
  for (auto [a, v] : std::vector<std::pair<RapCsr, uint32_t>>{
           {RapCsr::Eps, 0x10000}, {RapCsr::Cap, 0}, {RapCsr::Cap, 513}, {RapCsr::MergeFirst, 0},
           {RapCsr::BufDepth, kRapBufMaxDepth + 1}}) {
    wr(a, v);
    BOOST_TEST((rd(RapCsr::Status) & kRapStErr) != 0u);
    wr(RapCsr::Status, kRapStErr);
    BOOST_TEST((rd(RapCsr::Status) & kRapStErr) == 0u);
  }
  BOOST_TEST(rd(RapCsr::Cap) == 512u);
  // Dump while not idle is refused.
  RapEngine::In in;
  in.ev_valid = true;
  in.ev_value = 1;
  in.ev_weight = 1;
  eng.step(in);
  wr(RapCsr::Cmd, kRapCmdDump);
  BOOST_TEST((rd(RapCsr::Status) & kRapStErr) != 0u);
}

BOOST_AUTO_TEST_CASE(RandomStreamsGiveTheLibraryTreeOnTheBufferedStream) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    BOOST_TEST_CONTEXT("seed " << seed) {
      std::mt19937_64 rng(seed);
      RapEngineConfig cfg;
      cfg.range_bits = seed % 2 ? 32 : 8;
      cfg.groups = seed % 3 == 0 ? 4 : 127;
      cfg.queue_depth = seed % 4 == 0 ? 2 : 64;
      RapEngine eng(cfg);
      std::vector<RapEvent> ev(3000);
      const unsigned hot = 1 + unsigned(rng() % 16);
      for (auto& e : ev) {
        e.value = rng() % 4 ? uint32_t(rng() % hot) * 0x01010101u : uint32_t(rng());
        e.weight = uint16_t(rng() % 5);
      }
      RapReplayConfig rc;
      rc.eps_q16 = seed % 2 ? 6554 : 655;
      rc.merge_first = 1 + unsigned(rng() % 200);
      rc.buffer = unsigned(seed % (kRapBufMaxDepth + 1));
      std::mt19937_64 r2(seed * 7);
      rc.idle = [&r2] { return r2() % 4 == 0; };
      const RapReplayResult r = replay_rap(eng, vec_source(ev), rc);
      RapParams p;
      p.range_bits = cfg.range_bits;
      p.eps_q16 = rc.eps_q16;
      p.node_cap = cfg.cap_max();
      p.merge_first = rc.merge_first;
      const RapTree ref = reference(p, rc.buffer, ev);
      BOOST_TEST(eng.tree().same_tree(ref));
      BOOST_TEST(r.counters.splits == ref.stats().splits);
      BOOST_TEST(r.counters.pairs == ref.stats().updates);
      BOOST_TEST(r.counters.raw == ev.size());
      BOOST_TEST(r.beats.size() == cfg.groups + 1u);
    }
  }
}

BOOST_AUTO_TEST_CASE(ClearMidStreamStartsOver) {
  RapEngineConfig cfg;
  cfg.range_bits = 8;
  cfg.groups = 8;
  RapEngine eng(cfg);
  RapEngine::In in;
  for (int i = 0; i < 50; ++i) {
    in = {};
    in.ev_valid = true;
    in.ev_value = uint32_t(i * 37);
    in.ev_weight = 3;
    eng.step(in);
  }
  in = {};
  in.csr_we = true;
  in.csr_addr = unsigned(RapCsr::Cmd);
  in.csr_wdata = kRapCmdClear;
  eng.step(in);
  BOOST_TEST(eng.idle());
  BOOST_TEST(eng.tree().n() == 0u);
  BOOST_TEST(eng.tree().node_count() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(rap_engine_io)

// RapTree::from_nodes (used by the CLI to rebuild the RTL's dumped tree)
// gives back the same tree; malformed node lists are refused.
BOOST_AUTO_TEST_CASE(FromNodesRoundTripsAndRejectsBadShapes) {
  RapParams p;
  p.range_bits = 8;
  p.eps_q16 = 32768;
  p.merge_first = 104;
  p.node_cap = 0;
  RapTree t(p);
  for (auto [v, w] : std::vector<std::pair<uint32_t, uint64_t>>{
           {0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0c, 1}, {0x0d, 10}, {0x05, 2}, {0x90, 88}, {0x0c, 3}, {0x0c, 1}})
    t.add(v, w);
  std::vector<std::tuple<uint32_t, unsigned, uint64_t>> nodes;
  for (const auto& x : t.nodes()) nodes.emplace_back(x.prefix, x.depth, x.count);
  std::reverse(nodes.begin(), nodes.end());  // any order
  const RapTree u = RapTree::from_nodes(p, t.n(), nodes);
  BOOST_TEST(u.same_tree(t));
  BOOST_TEST(u.dump_text() == t.dump_text());
  // A group with three children only.
  BOOST_CHECK_THROW(RapTree::from_nodes(p, 1, {{0, 0, 1}, {0x00, 1, 0}, {0x40, 1, 0}, {0x80, 1, 0}}),
                    std::invalid_argument);
  // A grandchild without its parent level.
  BOOST_CHECK_THROW(RapTree::from_nodes(p, 1, {{0, 0, 1}, {0x00, 2, 0}}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
