// Drives a phase detector engine (the PhaseDetector cycle model, its RTL, or
// both in lock-step: anything with PhaseDetector's step()) with a record
// stream: programs INTERVAL, THRESHOLD (and PPCR in path mode), offers one
// record per cycle (optionally with bubbles), takes every interval result
// (optionally with backpressure on res_ready), waits until every record has
// reached the detector core and no interval is pending, and reads every
// counter. Written once for the CLI, the phase study and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

#include "feed.h"
#include "phase_detector.h"

namespace hwprof::model {

struct DetectorReplayConfig {
  uint32_t interval = IntervalCounter::kDefaultInterval;
  uint32_t threshold = 128;
  uint32_t ppcr = Ppcr::kBl;  ///< path mode only
  /// Restart the detector (CTRL) before feeding.
  bool restart = true;
  /// Called before each cycle while records remain; true inserts a bubble.
  std::function<bool()> idle;
  /// Called every cycle; true holds res_ready low.
  std::function<bool()> stall;
  /// Progress (records fed so far), every 2^20 records.
  std::function<void(uint64_t)> progress;
  /// Records the engine's core took since its last reset before this replay
  /// (RECORDS counts them too).
  uint64_t records_before = 0;
};

/// Counters as read back (DetCsr::Records..BusyCycles).
struct DetectorCounters {
  uint32_t records = 0, features = 0, ignored = 0, intervals = 0, phases = 0, stall_cycles = 0, busy_cycles = 0;
};

struct DetectorReplayResult {
  uint64_t records = 0;      ///< records fed
  uint64_t cycles = 0;       ///< every cycle, register accesses included
  uint64_t feed_cycles = 0;  ///< from the first record offered to the drained detector
  std::vector<DetectorResult> intervals;  ///< in order
  DetectorCounters counters;
  uint32_t status = 0;  ///< STATUS after the run
};

template <typename Engine>
DetectorReplayResult replay_detector(Engine& eng, const RecordSource& src, const DetectorReplayConfig& cfg,
                                     DetectorMode mode) {
  DetectorReplayResult res;
  PhaseDetector::In in;
  // Every cycle takes a pending result unless the stall hook says no.
  auto cycle = [&](PhaseDetector::In& i) {
    i.res_ready = !(cfg.stall && cfg.stall());
    const auto o = eng.step(i);
    ++res.cycles;
    if (o.res_valid && i.res_ready) res.intervals.push_back(o.res);
    return o;
  };
  auto write = [&](DetCsr addr, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(addr);
    in.csr_wdata = v;
    cycle(in);
    in = {};
  };
  auto read = [&](DetCsr addr) {
    in = {};
    in.csr_addr = unsigned(addr);
    return cycle(in).csr_rdata;
  };
  if (cfg.restart) write(DetCsr::Ctrl, kDetCtrlRestart);
  write(DetCsr::Interval, cfg.interval);
  write(DetCsr::Threshold, cfg.threshold);
  if (mode == DetectorMode::Path) write(DetCsr::Ppcr, cfg.ppcr);

  const uint64_t start = res.cycles;
  res.records = feed_stream<BranchRecord>(
      src, cfg.idle, cfg.progress, 1000000, "phase detector took no record for 1000000 cycles (engine hung?)",
      [&](bool valid, const BranchRecord& r) {
        in = {};
        in.rec_valid = valid;
        in.rec_data = r;
        in.csr_addr = unsigned(DetCsr::Records);
        return cycle(in).rec_ready;
      });
  // Drain: every record in the core (RECORDS), no interval being computed or
  // waiting (STATUS busy and result pending clear).
  const uint32_t fed = sat32(cfg.records_before + res.records);
  for (uint64_t guard = 0;; ++guard) {
    if (read(DetCsr::Records) == fed && (read(DetCsr::Status) & (kDetStatusBusy | kDetStatusResValid)) == 0) break;
    if (guard > 10000000) throw std::runtime_error("phase detector did not drain (engine hung?)");
  }
  res.feed_cycles = res.cycles - start;

  auto& c = res.counters;
  c.records = read(DetCsr::Records);
  c.features = read(DetCsr::Features);
  c.ignored = read(DetCsr::Ignored);
  c.intervals = read(DetCsr::Intervals);
  c.phases = read(DetCsr::Phases);
  c.stall_cycles = read(DetCsr::StallCycles);
  c.busy_cycles = read(DetCsr::BusyCycles);
  res.status = read(DetCsr::Status);
  return res;
}

}  // namespace hwprof::model
