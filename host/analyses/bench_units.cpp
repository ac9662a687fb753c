// bench_units: records per clock and stall cycles of the path-profiler
// units and the Markov predictor on a trace, from their cycle models (which
// are cycle-exact with the RTL: the lock-step tests check it), for
// scripts/bench_units.py (`make bench`, docs/results.md "Units").
//
// Per trace:
//   * path_frontend: PathFrontend (queue 4, stack 16, MaxLen 32, BL), one
//     record offered per cycle, descriptors always taken (replay_frontend);
//     cycles from the PPCR write to the last descriptor; its STALL_CYCLES.
//   * path_profiler: PathProfiler (the same front end + HPT 128 x 4, default
//     CTRL) through replay_profiler; feed cycles (first record to the last
//     descriptor in the HPT), the front end's and the HPT's STALL_CYCLES.
//   * hpt: the HPT inside that run: descriptors over the same feed cycles
//     and its STALL_CYCLES.
//   * markov: MarkovPredictor (256 slots) with one update per cycle, the
//     phase of each update the record's pc bits [17:2] (a stress stream:
//     the units update it once per interval); results per clock. It has no
//     ready signal, so it cannot stall.
//
// Usage: bench_units TRACE...   One JSON object per line per (trace, unit):
//   {"trace":..., "unit":..., "records":N, "cycles":N, "stall_cycles":N|null}
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "branch_record.h"
#include "frontend_replay.h"
#include "hpt_regs.h"
#include "markov.h"
#include "path_frontend.h"
#include "path_profiler.h"
#include "path_regs.h"
#include "profiler_replay.h"
#include "trace_source.h"

namespace {

using namespace hwprof;

void emit(const std::string& trace, const char* unit, uint64_t records, uint64_t cycles, int64_t stall) {
  std::printf("{\"trace\":\"%s\",\"unit\":\"%s\",\"records\":%llu,\"cycles\":%llu,\"stall_cycles\":", trace.c_str(),
              unit, static_cast<unsigned long long>(records), static_cast<unsigned long long>(cycles));
  if (stall < 0)
    std::printf("null}\n");
  else
    std::printf("%lld}\n", static_cast<long long>(stall));
  std::fflush(stdout);
}

void frontend(const std::string& trace) {
  model::PathFrontend fe(4, 16, 32);
  model::FrontendReplayConfig rc;
  rc.ppcr = model::Ppcr::kBl;
  const auto st = model::replay_frontend(fe, trace::branch_source(trace), rc);
  model::PathFrontend::In in;
  in.csr_addr = unsigned(model::PathCsr::StallCycles);
  const uint32_t stall = fe.step(in).csr_rdata;
  emit(trace, "path_frontend", st.records, st.cycles, stall);
}

void profiler(const std::string& trace) {
  model::PathProfiler pp(4, 16, 32, 128, 4);
  model::ProfilerReplayConfig rc;
  rc.ppcr = model::Ppcr::kBl;
  const auto res = model::replay_profiler(pp, trace::branch_source(trace), rc);
  emit(trace, "path_profiler", res.records, res.feed_cycles,
       int64_t{res.frontend.stall_cycles} + int64_t{res.hpt.stall_cycles});
  emit(trace, "hpt", res.hpt.descs, res.feed_cycles, res.hpt.stall_cycles);
}

void markov(const std::string& trace) {
  model::MarkovPredictor mk(256);
  auto src = trace::branch_source(trace);
  model::BranchRecord r;
  uint64_t updates = 0, results = 0, cycles = 0;
  model::MarkovPredictor::In in;
  while (src(r)) {
    in.upd_valid = true;
    in.upd_phase = static_cast<uint16_t>(r.pc >> 2);
    results += mk.step(in).res_valid;
    ++updates;
    ++cycles;
  }
  in = {};
  results += mk.step(in).res_valid;  // the last result
  ++cycles;
  if (results != updates) throw std::runtime_error("markov: a result went missing");
  emit(trace, "markov", updates, cycles, -1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_units TRACE...\n");
    return 2;
  }
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string t = argv[i];
      frontend(t);
      profiler(t);
      markov(t);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_units: %s\n", e.what());
    return 1;
  }
  return 0;
}
