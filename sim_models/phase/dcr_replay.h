// Drives a DCR phase tracker engine (the DcrTracker cycle model, its RTL, or
// both in lock-step: anything with DcrTracker's step()) with a record
// stream: writes INTERVAL, offers one record per cycle (optionally with
// bubbles), takes every interval result (optionally with backpressure on the
// result stream), waits until the last interval end has been answered and
// reads every counter back through the registers. Written once for the CLI
// (hwprof profile --unit phase --detector dcr), the phase study and the
// tests.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "dcr_tracker.h"
#include "feed.h"

namespace hwprof::model {

struct DcrReplayConfig {
  /// Written to INTERVAL before the first record (must be >= 1).
  uint32_t interval = IntervalCounter::kDefaultInterval;
  /// Called before each cycle while records remain; true inserts a bubble.
  std::function<bool()> idle;
  /// Called before every cycle; true holds res_ready low.
  std::function<bool()> stall;
  /// Progress (records fed so far), every 2^20 records.
  std::function<void(uint64_t)> progress;
  /// Called once per cycle before the engine steps (tests inject commands).
  std::function<void(uint64_t cycle, DcrTracker::In&)> hook;
};

struct DcrReplayResult {
  uint64_t records = 0;      ///< records fed
  uint64_t cycles = 0;       ///< every cycle, register accesses included
  uint64_t feed_cycles = 0;  ///< from the first record offered to the last result taken
  std::vector<DcrResult> results;  ///< one per interval, in order
  DcrTracker::Stats stats;         ///< read back through the registers
  uint32_t status = 0;             ///< STATUS at the end
};

/// The tracker's statistics through a register read `read(DcrCsr) -> uint32_t`
/// (the replay, the SoC harness and `hwprof board run` read them the same way).
template <typename Read>
DcrTracker::Stats read_dcr_stats(Read&& read) {
  DcrTracker::Stats s;
  s.records = read(DcrCsr::Records);
  s.intervals = read(DcrCsr::Intervals);
  s.pushes = read(DcrCsr::Pushes);
  s.pops = read(DcrCsr::Pops);
  s.overflows = read(DcrCsr::Overflows);
  s.recursions = read(DcrCsr::Recursions);
  s.resyncs = read(DcrCsr::Resyncs);
  s.new_phases = read(DcrCsr::NewPhases);
  s.evictions = read(DcrCsr::Evictions);
  s.scored = read(DcrCsr::Scored);
  s.correct = read(DcrCsr::Correct);
  s.stall_cycles = read(DcrCsr::StallCycles);
  return s;
}

template <typename Engine>
DcrReplayResult replay_dcr(Engine& eng, const RecordSource& src, const DcrReplayConfig& cfg) {
  if (cfg.interval == 0) throw std::invalid_argument("dcr replay: the interval must be >= 1");
  DcrReplayResult res;
  DcrTracker::In in;
  auto step = [&](DcrTracker::In& x) {
    if (cfg.hook) cfg.hook(res.cycles, x);
    const auto o = eng.step(x);
    ++res.cycles;
    if (o.res_valid && x.res_ready) res.results.push_back(o.res);
    return o;
  };
  auto write = [&](DcrCsr addr, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(addr);
    in.csr_wdata = v;
    in.res_ready = !(cfg.stall && cfg.stall());
    step(in);
  };
  auto read = [&](DcrCsr addr) {
    in = {};
    in.csr_addr = unsigned(addr);
    in.res_ready = !(cfg.stall && cfg.stall());
    return step(in).csr_rdata;
  };
  write(DcrCsr::Interval, cfg.interval);

  const uint64_t start = res.cycles;
  res.records = feed_stream<BranchRecord>(
      src, cfg.idle, cfg.progress, 1000000, "dcr tracker took no record for 1000000 cycles (engine hung?)",
      [&](bool valid, const BranchRecord& r) {
        in = {};
        in.rec_valid = valid;
        in.rec = r;
        in.res_ready = !(cfg.stall && cfg.stall());
        in.csr_addr = unsigned(DcrCsr::Status);
        return step(in).rec_ready;
      });
  // Drain: the last interval end (if any) is answered when STATUS.busy
  // falls (busy stays high until its result has been taken).
  for (uint64_t guard = 0; read(DcrCsr::Status) & 2u; ++guard)
    if (guard > 1000000) throw std::runtime_error("dcr tracker did not drain (engine hung?)");
  res.feed_cycles = res.cycles - start;

  res.stats = read_dcr_stats(read);
  res.status = read(DcrCsr::Status);
  return res;
}

}  // namespace hwprof::model
