// Lock-step tests of the 2-D RAP engine: rtl/rap/hwprof_rap_engine.sv at
// RangeW = 64 on the bit-interleaved keys of (code, data) pairs
// (docs/rap2d.md, "Engine") against its cycle model (model::RapEngine64,
// sim_models/rap/rap_engine.h). Every cycle every engine output is compared
// through the scoreboard; after every stream the tree read out through the
// dump port is compared with a RapTree64 fed independently with the merging
// buffer's pairs and the counters with its stats (tb::rap_run_and_check, the
// 1-D tests' check), and, on raw streams (buffer off), with the software 2-D
// tree (Rap2dTree) fed the (code, data) pairs themselves: the engine's tree
// read as rectangles equals the 2-D tree's.
//
// Directed cases (split of the root into the four quadrants, keys that differ
// only in the top and bottom key bits, repeats that run down to the cap),
// seeded random 2-D streams on both TCAMs with bubbles and dump
// backpressure (SEEDS=<n> sweeps more), then a slice of the shipped code x
// data trace tests/traces/val/gzip_pcmem.hwpt.zst (RAP2D_EVENTS=<n>, 0 for
// the whole trace).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest_util.h"
#include "rap_both.h"
#include "rap_engine_lockstep.h"
#include "rap_replay.h"
#include "rap_source.h"
#include "rap_tree2d.h"
#include "trace.h"
#include "trace_source.h"

using hwprof::model::kRapBufMaxDepth;
using hwprof::model::Rap2dParams;
using hwprof::model::Rap2dTree;
using hwprof::model::RapEngine64;
using hwprof::model::RapEngineConfig;
using hwprof::model::RapEvent;
using hwprof::model::RapEventSource;
using hwprof::model::RapReplayConfig;
using hwprof::model::RapReplayResult;
using hwprof::tb::kRap2dSmall;
using hwprof::tb::kRap2dSmallFf;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

using Both = hwprof::tb::RapBothT<RapEngine64>;
constexpr unsigned kDim = 32;  // K: the engine's RangeW = 2K = 64

/// One weighted (code, data) pair.
struct Pair {
  uint32_t code = 0, data = 0;
  uint16_t weight = 1;
};

RapEventSource pair_source(const std::vector<Pair>& v) {
  auto i = std::make_shared<size_t>(0);
  return [&v, i](RapEvent& e) {
    if (*i >= v.size()) return false;
    const Pair& p = v[(*i)++];
    e = hwprof::model::rap_pair_event(p.code, p.data, p.weight, kDim);
    return true;
  };
}

/// The 2-D tree of the engine's dump (its nodes as interleaved key prefixes).
Rap2dTree tree_of_dump(const RapReplayResult& r, const Rap2dParams& p) {
  std::vector<std::tuple<uint64_t, unsigned, uint64_t>> nodes;
  for (const auto& x : hwprof::model::rap_dump_nodes(r.beats, 2 * kDim)) nodes.emplace_back(x.prefix, x.depth, x.count);
  return Rap2dTree::from_nodes(p, r.counters.n, nodes);
}

Rap2dParams params2d(const RapEngineConfig& c, const RapReplayConfig& rc) {
  Rap2dParams p;
  p.dim_bits = kDim;
  p.eps_q16 = rc.eps_q16;
  p.node_cap = rc.node_cap ? rc.node_cap : c.cap_max();
  p.merge_first = rc.merge_first;
  return p;
}

/// Lock-step replay of `pairs` plus the tree checks; with the buffer off
/// also the software 2-D tree on the pairs. Returns the 2-D tree of the dump.
std::pair<RapReplayResult, Rap2dTree> run_pairs(Both& b, const std::vector<Pair>& pairs, const RapReplayConfig& rc) {
  const RapReplayResult r = hwprof::tb::rap_run_and_check(b, pair_source(pairs), pair_source(pairs), rc);
  const Rap2dParams p = params2d(b.cfg(), rc);
  Rap2dTree got = tree_of_dump(r, p);
  if (rc.buffer == 0) {
    Rap2dTree sw(p);
    for (const Pair& x : pairs) sw.add(x.code, x.data, x.weight);
    EXPECT_TRUE(got.same_tree(sw));
    EXPECT_EQ(got.dump_text(), sw.dump_text());
    EXPECT_EQ(r.counters.splits, sw.stats().splits);
    EXPECT_EQ(r.counters.peak, sw.stats().peak_nodes);
  }
  return {r, std::move(got)};
}

const std::vector<RapEngineConfig>& small_configs() {
  static const std::vector<RapEngineConfig> v = {kRap2dSmall, kRap2dSmallFf};
  return v;
}

}  // namespace

// docs/rap2d.md's hand-traced stream (cli.rap2d): K = 32, eps 1/2, so
// T(n) = floor(n / 64). Pair (code 0, data 80000000) twice: the root splits
// at the first event, the rectangle [0,7fffffff] x [80000000,ffffffff] at
// the second, into its four quadrants. Both TCAMs, buffer off.
TEST(Rap2dEngine, QuadrantSplits) {
  for (const RapEngineConfig& cfg : small_configs()) {
    SCOPED_TRACE(hwprof::tb::rap_config_name(cfg));
    Both b(cfg, 31, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice));
    RapReplayConfig rc;
    rc.eps_q16 = 32768;
    rc.buffer = 0;
    const std::vector<Pair> ev = {{0, 0x80000000u, 1}, {0, 0x80000000u, 1}};
    const auto [r, t] = run_pairs(b, ev, rc);
    std::string got;
    for (const auto& x : t.rects())
      got += " " + t.hex(x.code_lo) + "-" + t.hex(x.code_hi) + "/" + t.hex(x.data_lo) + "-" + t.hex(x.data_hi) + "/" +
             std::to_string(x.depth) + "=" + std::to_string(x.count);
    EXPECT_EQ(got,
              " 00000000-ffffffff/00000000-ffffffff/0=1 00000000-7fffffff/00000000-7fffffff/1=0"
              " 00000000-7fffffff/80000000-ffffffff/1=1 00000000-3fffffff/80000000-bfffffff/2=0"
              " 00000000-3fffffff/c0000000-ffffffff/2=0 40000000-7fffffff/80000000-bfffffff/2=0"
              " 40000000-7fffffff/c0000000-ffffffff/2=0 80000000-ffffffff/00000000-7fffffff/1=0"
              " 80000000-ffffffff/80000000-ffffffff/1=0");
    EXPECT_EQ(r.counters.splits, 2u);
  }
}

// Keys in the upper half of the 64-bit key space (code bit 31, key bit 63)
// and keys that differ only in data bit 0 / code bit 0 (key bits 0 and 1):
// the TCAM's high slices and the column bits of the deepest levels. eps
// tiny (every non-empty leaf splits), so the repeats run down until the
// build's groups are used, then capacity passes skip the rest; buffer 2
// merges some repeats, then buffer off.
TEST(Rap2dEngine, TopAndBottomKeyBits) {
  for (const RapEngineConfig& cfg : small_configs()) {
    for (unsigned buffer : {2u, 0u}) {
      SCOPED_TRACE(hwprof::tb::rap_config_name(cfg) + " buffer " + std::to_string(buffer));
      Both b(cfg, 32, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice) + "_b" +
                          std::to_string(buffer));
      RapReplayConfig rc;
      rc.eps_q16 = 1;
      rc.buffer = buffer;
      rc.merge_first = 1000000;
      std::vector<Pair> ev;
      for (int i = 0; i < 12; ++i) {
        ev.push_back({0xffffffffu, 0xfffffffeu, 1});
        ev.push_back({0xffffffffu, 0xffffffffu, 1});
        ev.push_back({0xfffffffeu, 0xffffffffu, 2});
        ev.push_back({0x80000000u, 0x00000001u, 1});
      }
      const auto [r, t] = run_pairs(b, ev, rc);
      EXPECT_EQ(r.counters.nodes, cfg.cap_max() - 3);  // every group in use
      EXPECT_GT(r.counters.skipped, 0u);
      EXPECT_GT(r.counters.cap, 0u);
    }
  }
}

// Seeded random 2-D streams, both TCAMs, random parameters, bubbles
// (IDLE_PCT) and dump backpressure (STALL_PCT); SEEDS=<n> sweeps more. The
// pairs: hot code ranges against hot data ranges (a few functions touching a
// few arrays), plus uniform noise.
TEST(Rap2dEngine, RandomStreams) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 12;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s));
    std::mt19937_64 rng(s);
    const RapEngineConfig cfg = s % 2 == 0 ? kRap2dSmall : kRap2dSmallFf;
    Both b(cfg, s);
    Throttle idle(s * 3, env.idle_for(s)), stall(s * 5, env.stall_for(s));
    const RapReplayConfig rc = hwprof::tb::rap_random_replay(rng, cfg, s % 3 == 0, idle, stall);
    const unsigned hot = 1 + unsigned(rng() % 6);
    std::vector<uint32_t> code_base(hot), data_base(hot);
    for (unsigned h = 0; h < hot; ++h) {
      code_base[h] = uint32_t(rng());
      data_base[h] = uint32_t(rng());
    }
    std::vector<Pair> ev(2000);
    for (auto& e : ev) {
      const unsigned k = unsigned(rng() % 8);
      const unsigned h = unsigned(rng() % hot);
      e.code = k < 6 ? code_base[h] + uint32_t(rng() % 64) * 4 : uint32_t(rng());
      e.data = k < 5 ? data_base[h] + uint32_t(rng() % 256) * 8 : uint32_t(rng());
      e.weight = uint16_t(k == 7 ? rng() % 65536 : 1 + rng() % 4);
    }
    run_pairs(b, ev, rc);
  }
}

// A slice of the shipped code x data trace (gzip's loads and stores with
// their pcs; docs/rap2d.md), read through the trace library's 2-D source
// (trace::rap_source, RapSourceKind::Pair): buffer off with the CLI's eps
// and a small build (capacity passes and skipped splits on real data), and
// buffer 4 at eps 1% with bubbles. RAP2D_EVENTS=<n> events (0: all).
TEST(Rap2dEngine, GzipPcMemSlice) {
  const std::string t = std::string(HWPROF_TRACE_DIR) + "/val/gzip_pcmem.hwpt.zst";
  const char* lim = std::getenv("RAP2D_EVENTS");
  const uint64_t limit = lim ? std::strtoull(lim, nullptr, 10) : 30000;
  hwprof::trace::scan(t);
  // The software 2-D tree on the slice's pairs (the CLI's model path) with
  // the first case's parameters, and the number of pairs.
  RapReplayConfig rc0;
  rc0.buffer = 0;
  Rap2dTree sw(params2d(kRap2dSmall, rc0));
  uint64_t pairs = 0;
  hwprof::trace::for_each(t, [&](const hwprof::trace::Record& x) {
    if (x.kind != hwprof::trace::Kind::Val || !x.has_pc || (limit && pairs >= limit)) return;
    sw.add(x.pc, x.value, x.weight);
    ++pairs;
  });
  for (unsigned buffer : {0u, 4u}) {
    SCOPED_TRACE("buffer " + std::to_string(buffer));
    Both b(kRap2dSmall, 33, hwprof::tb::current_test_name() + "_b" + std::to_string(buffer));
    RapReplayConfig rc = rc0;
    rc.buffer = buffer;
    Throttle idle(41, buffer ? 20 : 0);
    if (buffer) {
      rc.eps_q16 = 655;
      rc.idle = [&idle] { return idle(); };
    }
    const auto src = [&] { return hwprof::trace::rap_source(t, hwprof::trace::RapSourceKind::Pair, limit); };
    const RapReplayResult r = hwprof::tb::rap_run_and_check(b, src(), src(), rc);
    EXPECT_EQ(r.events, pairs);
    if (buffer == 0) {
      EXPECT_TRUE(tree_of_dump(r, params2d(kRap2dSmall, rc)).same_tree(sw));
    }
    EXPECT_GT(r.counters.splits, 0u);
    std::printf("[rap2d] gzip_pcmem %s buffer %u: %llu events, %llu cycles, %.4f events/clock, peak %u, "
                "%u splits, %u skipped, %u cap passes\n",
                hwprof::tb::rap_config_name(kRap2dSmall).c_str(), buffer, static_cast<unsigned long long>(r.events),
                static_cast<unsigned long long>(r.feed_cycles), double(r.events) / double(r.feed_cycles),
                r.counters.peak, r.counters.splits, r.counters.skipped, r.counters.cap);
  }
}
