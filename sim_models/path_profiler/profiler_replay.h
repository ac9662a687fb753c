// Drives a whole path profiler engine (the PathProfiler cycle model, its
// RTL, or both in lock-step: anything with PathProfiler's step()) with a
// record stream: programs the PPCR and HPT_CTRL, offers one record per cycle
// (optionally with bubbles), waits until every record has been processed
// (read back through the registers) and its descriptor has entered the HPT,
// dumps the HPT (optionally with backpressure on the dump port)
// and reads every counter. Written once for the CLI, the benchmarks and the
// tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "feed.h"
#include "path_profiler.h"
#include "prim.h"

namespace hwprof::model {

struct ProfilerReplayConfig {
  uint32_t ppcr = Ppcr::kBl;
  uint32_t hpt_ctrl = HptCtrl::reset_value();
  /// Called before each cycle while records remain; true inserts a bubble.
  std::function<bool()> idle;
  /// Called before each dump cycle; true holds dump_ready low.
  std::function<bool()> stall;
  /// Progress (records fed so far), every 2^20 records.
  std::function<void(uint64_t)> progress;
  /// Records the engine took since its last reset before this replay (its
  /// RECORDS register counts them too).
  uint64_t records_before = 0;
};

/// Front-end counters as read back (PathCsr::Records..StallCycles).
struct FrontendCounters {
  uint32_t records = 0, emitted = 0, incomplete = 0, splits = 0, overflows = 0, empty_pops = 0, stall_cycles = 0;
};

struct ProfilerReplayResult {
  uint64_t records = 0;      ///< records fed
  uint64_t cycles = 0;       ///< every cycle, the dump included
  uint64_t feed_cycles = 0;  ///< from the first record offered to the last descriptor in the HPT
  uint64_t dump_cycles = 0;  ///< from the dump command to dump_busy falling
  std::vector<Hpt::DumpEntry> entries;  ///< in dump order
  FrontendCounters frontend;
  Hpt::Stats hpt;
};

template <typename Engine>
ProfilerReplayResult replay_profiler(Engine& eng, const RecordSource& src, const ProfilerReplayConfig& cfg) {
  ProfilerReplayResult res;
  PathProfiler::In in;
  auto write = [&](unsigned addr, uint32_t v) {
    in = {};
    in.csr_we = true;
    in.csr_addr = addr;
    in.csr_wdata = v;
    eng.step(in);
    ++res.cycles;
    in = {};
  };
  auto read = [&](unsigned addr) {
    in = {};
    in.csr_addr = addr;
    const auto o = eng.step(in);
    ++res.cycles;
    return o.csr_rdata;
  };
  write(unsigned(PathCsr::Ppcr), cfg.ppcr);
  write(hpt_csr(HptCsr::Ctrl), cfg.hpt_ctrl);

  // Feed. RECORDS is read every cycle (the read has no side effect).
  const uint64_t start = res.cycles;
  res.records = feed_stream<BranchRecord>(
      src, cfg.idle, cfg.progress, 100000, "path profiler took no record for 100000 cycles (engine hung?)",
      [&](bool valid, const BranchRecord& r) {
        in = {};
        in.rec_valid = valid;
        in.rec_data = r;
        in.csr_addr = unsigned(PathCsr::Records);
        const auto o = eng.step(in);
        ++res.cycles;
        return o.rec_ready;
      });
  // Drain: every record processed (RECORDS counts the records the path
  // stack has taken; it emits in the same edge). The last descriptor is then
  // in the stack's output register; the HPT takes it in the next cycle (its
  // in_ready is high outside a dump) and the dump's drain cycle commits it.
  const uint32_t fed = sat32(cfg.records_before + res.records);
  for (int guard = 0; read(unsigned(PathCsr::Records)) != fed; ++guard)
    if (guard > 1000) throw std::runtime_error("path profiler did not drain in 1000 cycles (engine hung?)");
  read(unsigned(PathCsr::Records));
  res.feed_cycles = res.cycles - start;

  // Dump.
  const uint64_t dump_start = res.cycles;
  write(hpt_csr(HptCsr::Cmd), kHptCmdDump);
  for (;;) {
    in = {};
    in.dump_ready = !(cfg.stall && cfg.stall());
    const auto o = eng.step(in);
    ++res.cycles;
    if (o.dump_valid && in.dump_ready) res.entries.push_back(o.dump);
    if (!o.dump_busy) break;
    if (res.cycles - dump_start > 100000000)
      throw std::runtime_error("HPT dump did not finish (engine hung?)");
  }
  res.dump_cycles = res.cycles - dump_start;

  auto& f = res.frontend;
  f.records = read(unsigned(PathCsr::Records));
  f.emitted = read(unsigned(PathCsr::Emitted));
  f.incomplete = read(unsigned(PathCsr::Incomplete));
  f.splits = read(unsigned(PathCsr::Splits));
  f.overflows = read(unsigned(PathCsr::Overflows));
  f.empty_pops = read(unsigned(PathCsr::EmptyPops));
  f.stall_cycles = read(unsigned(PathCsr::StallCycles));
  auto& h = res.hpt;
  h.descs = read(hpt_csr(HptCsr::Descs));
  h.hits = read(hpt_csr(HptCsr::Hits));
  h.fills = read(hpt_csr(HptCsr::Fills));
  h.replacements = read(hpt_csr(HptCsr::Replacements));
  h.rejects = read(hpt_csr(HptCsr::Rejects));
  h.saturations = read(hpt_csr(HptCsr::Saturations));
  h.ignored = read(hpt_csr(HptCsr::Ignored));
  h.stall_cycles = read(hpt_csr(HptCsr::StallCycles));
  return res;
}

}  // namespace hwprof::model
