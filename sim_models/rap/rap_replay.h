// Drives a whole RAP engine (the RapEngine / RapEngine64 cycle model, its RTL,
// or both in lock-step: anything with RapEngineT's In, Out and step()) with an
// event stream: programs
// the staged parameters, clears, offers one event per cycle (optionally with
// bubbles), flushes the merging buffer, waits until the engine is idle, dumps
// the tree (optionally with backpressure on the dump port) and reads every
// counter. Written once for the CLI, the benchmark and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "feed.h"
#include "rap_engine.h"

namespace hwprof::model {

/// One raw event: value and weight (a code profile: block start, insns; a
/// 2-D stream: the interleaved (code, data) key, docs/rap2d.md).
struct RapEvent {
  uint64_t value = 0;
  uint16_t weight = 1;
};
/// A stream of events: fills `e` and returns true, false at the end.
using RapEventSource = std::function<bool(RapEvent&)>;

struct RapReplayConfig {
  uint32_t eps_q16 = kRapEpsDefault;
  uint32_t node_cap = 0;     ///< 0: the engine's largest (4 * Groups + 4)
  uint32_t merge_first = 1024;
  unsigned buffer = 4;       ///< merging buffer depth, 0 = off
  std::function<bool()> idle;   ///< before each feed cycle: true inserts a bubble
  std::function<bool()> stall;  ///< before each dump cycle: true holds dump_ready low
  std::function<void(uint64_t)> progress;  ///< events fed so far, every 2^20
};

/// The register port's counters after a replay.
struct RapCounters {
  uint64_t n = 0;
  uint32_t raw = 0, pairs = 0, splits = 0, skipped = 0, sched = 0, cap = 0, merges = 0, nodes = 0, peak = 0,
           stall_flush = 0, stall_cap = 0, stall_sched = 0, stall_tcam = 0, in_stall = 0, status = 0;
};

struct RapReplayResult {
  uint64_t events = 0;       ///< raw events fed
  uint64_t cycles = 0;       ///< every cycle, the dump included
  uint64_t feed_cycles = 0;  ///< from the first event offered to idle after the flush
  std::vector<RapDumpBeat> beats;  ///< the dump as read (RTL engines; empty data from the model)
  RapCounters counters;
};

/// The engine's counters through a register read `read(RapCsr) -> uint32_t`
/// (the replay, the SoC harness and `hwprof board run` read them the same
/// way; the tree counters are meaningful once the engine is idle).
template <typename Read>
RapCounters read_rap_counters(Read&& read) {
  RapCounters c;
  c.n = read(RapCsr::NLo) | uint64_t{read(RapCsr::NHi)} << 32;
  c.raw = read(RapCsr::Raw);
  c.pairs = read(RapCsr::Pairs);
  c.splits = read(RapCsr::Splits);
  c.skipped = read(RapCsr::Skipped);
  c.sched = read(RapCsr::SchedPasses);
  c.cap = read(RapCsr::CapPasses);
  c.merges = read(RapCsr::Merges);
  c.nodes = read(RapCsr::Nodes);
  c.peak = read(RapCsr::Peak);
  c.stall_flush = read(RapCsr::StallFlush);
  c.stall_cap = read(RapCsr::StallCap);
  c.stall_sched = read(RapCsr::StallSched);
  c.stall_tcam = read(RapCsr::StallTcam);
  c.in_stall = read(RapCsr::InStall);
  c.status = read(RapCsr::Status);
  return c;
}

template <typename Engine>
RapReplayResult replay_rap(Engine& eng, const RapEventSource& src, const RapReplayConfig& cfg) {
  RapReplayResult res;
  using In = typename Engine::In;
  In in;
  auto step = [&](const In& x) {
    ++res.cycles;
    return eng.step(x);
  };
  auto write = [&](RapCsr a, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    step(in);
  };
  auto read = [&](RapCsr a) {
    in = {};
    in.csr_addr = unsigned(a);
    return step(in).csr_rdata;
  };
  const uint32_t params = read(RapCsr::Params);
  const uint32_t groups = params & 0xfffu;
  write(RapCsr::Eps, cfg.eps_q16);
  write(RapCsr::Cap, cfg.node_cap ? cfg.node_cap : 4 * groups + 4);
  write(RapCsr::MergeFirst, cfg.merge_first);
  write(RapCsr::BufDepth, cfg.buffer);
  if (read(RapCsr::Status) & kRapStErr) throw std::invalid_argument("RAP engine refused a parameter (STATUS.err)");
  write(RapCsr::Cmd, kRapCmdClear);

  const uint64_t start = res.cycles;
  res.events = feed_stream<RapEvent>(src, cfg.idle, cfg.progress, 10000000,
                                     "RAP engine took no event for 10^7 cycles (hung?)",
                                     [&](bool valid, const RapEvent& e) {
                                       in = {};
                                       in.ev_valid = valid;
                                       in.ev_value = static_cast<decltype(in.ev_value)>(e.value);
                                       in.ev_weight = e.weight;
                                       in.csr_addr = unsigned(RapCsr::Status);
                                       return step(in).ev_ready;
                                     });
  // Drain the queue, then flush the buffer, then wait for idle.
  for (uint64_t g = 0;; ++g) {
    if (read(RapCsr::Raw) == sat32(res.events)) break;
    if (g > 100000000) throw std::runtime_error("RAP engine did not drain its queue (hung?)");
  }
  write(RapCsr::Cmd, kRapCmdFlush);
  for (uint64_t g = 0; !(read(RapCsr::Status) & kRapStIdle); ++g)
    if (g > 100000000) throw std::runtime_error("RAP engine did not become idle (hung?)");
  res.feed_cycles = res.cycles - start;

  // Counters (the tree counters are shown once the engine is idle).
  res.counters = read_rap_counters(read);

  // Dump.
  write(RapCsr::Cmd, kRapCmdDump);
  for (uint64_t g = 0;; ++g) {
    in = {};
    in.dump_ready = !(cfg.stall && cfg.stall());
    const auto o = step(in);
    if (o.dump_valid && in.dump_ready) {
      res.beats.push_back(o.dump);
      if (o.dump_last) break;
    }
    if (!o.dump_valid || g > 100000000) throw std::runtime_error("RAP dump did not run (engine hung?)");
  }
  return res;
}

/// The nodes of a dump as (prefix, depth, count), sorted by (prefix, depth):
/// the pre-order of RapTree::nodes(). range_bits is the engine's W.
struct RapDumpNode {
  uint64_t prefix = 0;
  unsigned depth = 0;
  uint64_t count = 0;
  bool operator==(const RapDumpNode& o) const { return prefix == o.prefix && depth == o.depth && count == o.count; }
};
std::vector<RapDumpNode> rap_dump_nodes(const std::vector<RapDumpBeat>& beats, unsigned range_bits);
template <class V>
std::vector<RapDumpNode> rap_tree_nodes(const RapTreeT<V>& t);

}  // namespace hwprof::model
