// Drives a path front-end engine (the PathFrontend cycle model, its RTL, or
// both in lock-step: anything with PathFrontend's step()) with a record
// stream: writes the PPCR, offers one record per cycle (optionally with
// bubbles), drains descriptors (optionally with backpressure), and hands
// every descriptor to a callback in order. Written once for the CLI, the
// benchmarks and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

#include "path_frontend.h"

namespace hwprof::model {

struct FrontendReplayConfig {
  uint32_t ppcr = Ppcr::kBl;
  /// Called before each cycle; true inserts a bubble (no record offered).
  std::function<bool()> idle;
  /// Called before each cycle; true holds desc_ready low.
  std::function<bool()> stall;
  /// Every descriptor taken, in order.
  std::function<void(const Emission&)> on_emit;
  /// Progress (records fed so far), every 2^20 records.
  std::function<void(uint64_t)> progress;
  /// Register address read every cycle (the replay itself needs RECORDS when
  /// draining; tests may rotate it). Called with the cycle number.
  std::function<unsigned(uint64_t)> csr_addr;
};

struct FrontendReplayStats {
  uint64_t records = 0;
  uint64_t descriptors = 0;
  uint64_t cycles = 0;
};

template <typename Engine>
FrontendReplayStats replay_frontend(Engine& eng, const RecordSource& src, const FrontendReplayConfig& cfg) {
  FrontendReplayStats st;
  PathFrontend::In in;
  // Cycle 0: program the PPCR.
  in.csr_we = true;
  in.csr_addr = unsigned(PathCsr::Ppcr);
  in.csr_wdata = cfg.ppcr;
  eng.step(in);
  ++st.cycles;
  in = {};

  BranchRecord cur;
  bool have = src(cur);
  bool offering = false;
  uint64_t processed = 0;  // RECORDS as read back
  uint64_t last_progress = 0;
  while (have || processed < st.records) {
    const bool read_records = !have;  // draining: watch RECORDS
    in.csr_addr = read_records || !cfg.csr_addr ? unsigned(PathCsr::Records) : cfg.csr_addr(st.cycles);
    if (have && !offering && !(cfg.idle && cfg.idle())) offering = true;
    in.rec_valid = offering;
    in.rec_data = cur;
    in.desc_ready = !(cfg.stall && cfg.stall());
    auto o = eng.step(in);
    ++st.cycles;
    if (in.csr_addr == unsigned(PathCsr::Records) && o.csr_rdata != processed) {
      processed = o.csr_rdata;
      last_progress = st.cycles;
    }
    if (o.desc_valid && in.desc_ready) {
      last_progress = st.cycles;
      ++st.descriptors;
      if (cfg.on_emit) cfg.on_emit(o.desc);
    }
    if (offering && o.rec_ready) {
      offering = false;
      last_progress = st.cycles;
      ++st.records;
      if (cfg.progress && (st.records & 0xfffff) == 0) cfg.progress(st.records);
      have = src(cur);
    }
    if (st.cycles - last_progress > 100000)
      throw std::runtime_error("path front end made no progress for 100000 cycles (engine hung?)");
  }
  // The last record is processed; its descriptor may still sit in the
  // output register.
  for (int i = 0; i < 1000; ++i) {
    in = {};
    in.csr_addr = unsigned(PathCsr::Records);
    in.desc_ready = !(cfg.stall && cfg.stall());
    auto o = eng.step(in);
    ++st.cycles;
    if (!o.desc_valid) break;
    if (in.desc_ready) {
      ++st.descriptors;
      if (cfg.on_emit) cfg.on_emit(o.desc);
    }
  }
  return st;
}

}  // namespace hwprof::model
