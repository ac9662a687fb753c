// Lock-step tests of the RAP engine (rtl/rap/hwprof_rap_engine.sv against its cycle
// model sim_models/rap/rap_engine.h) on a REAL value stream: the shipped
// tests/traces/val/gzip_mem.hwpt.zst (scripts/record_val_trace.sh: the data
// addresses of every load, store and modify of `gzip -6 -n -c GPL-2` under
// valgrind's lackey, low 32 bits, one `val` record of weight 1 per access),
// read through the value source (model::rap_source, RapSourceKind::Val).
//
// Every cycle every engine output is compared through the scoreboard (the
// Lockstep engine); after the stream the tree read out through the dump port
// is compared with a RapTree fed independently with the merging buffer's
// pairs, the counters with its stats, and every dumped range with the exact
// weight of its values counted from the trace: a node's subtree sum never
// exceeds that weight (counts only move up, into ancestors), and the weight
// never exceeds the subtree sum plus the counts of the node's ancestors
// (the only places a value's weight can be while the node did not exist).
//
// Knobs: RAP_VAL_EVENTS=<n> events per case (0 = the whole trace; default:
// the whole trace for the default configuration, 200,000 for the others),
// IDLE_PCT / STALL_PCT (tb/common/sim_env.h) override the bubble and dump
// backpressure percentages, TRACE=1 writes waveforms.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gtest_util.h"
#include "rap_both.h"
#include "rap_engine_lockstep.h"
#include "rap_replay.h"
#include "trace_source.h"

using hwprof::model::RapDumpNode;
using hwprof::model::RapEngine;
using hwprof::model::RapEngineConfig;
using hwprof::model::RapEvent;
using hwprof::model::RapEventBuffer;
using hwprof::model::RapEventSource;
using hwprof::model::RapReplayConfig;
using hwprof::model::RapReplayResult;
using hwprof::trace::RapSourceKind;
using hwprof::tb::kRapDefault;
using hwprof::tb::RapEngineRtl;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

using Both = hwprof::tb::RapBoth;

#ifdef HWPROF_TRACE_DIR
const std::string kValTrace = std::string(HWPROF_TRACE_DIR) + "/val/gzip_mem.hwpt.zst";
#else
const std::string kValTrace = "tests/traces/val/gzip_mem.hwpt.zst";
#endif

uint64_t events_limit(uint64_t dflt) {
  const char* s = std::getenv("RAP_VAL_EVENTS");
  return s ? std::strtoull(s, nullptr, 10) : dflt;
}

RapEventSource val_source(uint64_t limit) { return hwprof::trace::rap_source(kValTrace, RapSourceKind::Val, limit); }

/// Prefix mask of a node at `depth` (2 * depth bits, W = 32).
uint32_t mask_of(unsigned depth) { return depth == 0 ? 0u : ~0u << (32 - 2 * depth); }
uint64_t key_of(uint32_t prefix, unsigned depth) { return uint64_t{depth} << 32 | prefix; }

/// Checks every dumped range against the exact weight of its values in the
/// stream: subtree <= exact <= subtree + sum of the ancestors' counts.
/// Returns the largest exact - subtree (the range's under-count).
uint64_t check_ranges(const std::vector<RapDumpNode>& nodes, const RapEventSource& src, uint64_t* total) {
  std::unordered_map<uint64_t, uint64_t> count, exact;
  for (const auto& n : nodes) {
    count[key_of(n.prefix, n.depth)] = n.count;
    exact[key_of(n.prefix, n.depth)] = 0;
  }
  RapEvent e;
  *total = 0;
  while (src(e)) {
    *total += e.weight;
    for (unsigned d = 0; d <= 16; ++d) {
      auto it = exact.find(key_of(e.value & mask_of(d), d));
      if (it == exact.end()) break;  // no deeper node on this value's path
      it->second += e.weight;
    }
  }
  uint64_t worst = 0;
  for (const auto& n : nodes) {
    uint64_t sub = 0, anc = 0;
    for (const auto& m : nodes)
      if (m.depth >= n.depth && (m.prefix & mask_of(n.depth)) == n.prefix) sub += m.count;
    for (unsigned d = 0; d < n.depth; ++d) {
      auto it = count.find(key_of(n.prefix & mask_of(d), d));
      EXPECT_NE(it, count.end()) << "missing ancestor of " << std::hex << n.prefix << "/" << n.depth;
      if (it != count.end()) anc += it->second;
    }
    const uint64_t ex = exact[key_of(n.prefix, n.depth)];
    EXPECT_LE(sub, ex) << std::hex << n.prefix << "/" << std::dec << n.depth;
    EXPECT_LE(ex, sub + anc) << std::hex << n.prefix << "/" << std::dec << n.depth;
    if (ex > sub && ex - sub > worst) worst = ex - sub;
  }
  return worst;
}

/// One case: lock-step replay of the first `limit` value events, then the
/// tree, the counters and the ranges checked.
RapReplayResult run_case(const std::string& name, uint64_t seed, RapReplayConfig rc, uint64_t limit,
                         int idle_dflt, int stall_dflt) {
  Both b(kRapDefault, seed, name);
  const int idle = b.env().idle_pct >= 0 ? b.env().idle_pct : idle_dflt;
  const int stall = b.env().stall_pct >= 0 ? b.env().stall_pct : stall_dflt;
  Throttle ti(seed * 7 + 1, idle), ts(seed * 7 + 2, stall);
  rc.idle = [&ti] { return ti(); };
  rc.stall = [&ts] { return ts(); };
  const RapReplayResult r = hwprof::tb::rap_run_and_check(b, val_source(limit), val_source(limit), rc);
  const auto got = hwprof::model::rap_dump_nodes(r.beats, 32);
  EXPECT_EQ(r.counters.raw, hwprof::model::sat32(r.events));
  uint64_t total = 0;
  const uint64_t worst = check_ranges(got, val_source(limit), &total);
  // Every access has weight 1: n is the number of events fed.
  EXPECT_EQ(total, r.events);
  EXPECT_EQ(r.counters.n, r.events);
  std::printf("[rap-val] %s: %llu events, %llu feed cycles, %.4f events/clock (idle %d%%, stall %d%%), "
              "peak %u nodes, %u splits, %u skipped, %u cap passes, %u merges, largest range under-count %llu\n",
              name.c_str(), static_cast<unsigned long long>(r.events),
              static_cast<unsigned long long>(r.feed_cycles), double(r.events) / double(r.feed_cycles), idle,
              stall, r.counters.peak, r.counters.splits, r.counters.skipped, r.counters.cap, r.counters.merges,
              static_cast<unsigned long long>(worst));
  return r;
}

}  // namespace

// The whole recorded value stream with the CLI's defaults (eps 10%, NodeCap
// 512, buffer 4, MergeFirst 1024), no bubbles.
TEST(RapVal, GzipMemDefault) {
  RapReplayConfig rc;
  const uint64_t limit = events_limit(0);
  const RapReplayResult r = run_case("RapVal_GzipMemDefault", 11, rc, limit, 0, 0);
  EXPECT_GT(r.events, 0u);
  if (limit == 0) {
    EXPECT_EQ(r.events, 957334u);  // the trace's val records (hwprof trace info)
  }
}

// Raw stream (buffer off), eps 1%, bubbles and dump backpressure: many more
// splits than the 512-node tree holds, so the capacity passes and skipped
// splits run on real data.
TEST(RapVal, GzipMemUnbufferedEps1Throttled) {
  RapReplayConfig rc;
  rc.buffer = 0;
  rc.eps_q16 = 655;  // 1%
  const RapReplayResult r = run_case("RapVal_GzipMemUnbufferedEps1Throttled", 12, rc, events_limit(200000), 10, 50);
  EXPECT_GT(r.counters.cap, 0u);
  EXPECT_GT(r.counters.skipped, 0u);
}

// A small tree (NodeCap 41: root + 10 groups), the deepest buffer (8), an
// early first merge (MergeFirst 64) and heavy bubbles: capacity exhaustion
// (capacity passes, skipped splits) and frequent scheduled passes.
TEST(RapVal, GzipMemSmallCapDeepBuffer) {
  RapReplayConfig rc;
  rc.buffer = 8;
  rc.node_cap = 41;
  rc.merge_first = 64;
  const RapReplayResult r = run_case("RapVal_GzipMemSmallCapDeepBuffer", 13, rc, events_limit(200000), 50, 10);
  EXPECT_LE(r.counters.peak, 41u);
  EXPECT_GT(r.counters.cap, 0u);
  EXPECT_GT(r.counters.skipped, 0u);
  EXPECT_GT(r.counters.sched, 0u);
}
