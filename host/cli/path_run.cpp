#include "path_run.h"

#include <stdexcept>

#include "frontend_replay.h"
#include "trace_source.h"

namespace hwprof::cli {

namespace {

// Reads every counter back from the hardware (or the lock-step pair).
template <typename Engine>
model::PathStackStats read_stats(Engine& eng) {
  auto rd = [&](model::PathCsr a) {
    model::PathFrontend::In in;
    in.csr_addr = unsigned(a);
    return uint64_t{eng.step(in).csr_rdata};
  };
  model::PathStackStats st;
  st.records = rd(model::PathCsr::Records);
  st.emitted = rd(model::PathCsr::Emitted);
  st.incomplete = rd(model::PathCsr::Incomplete);
  st.splits = rd(model::PathCsr::Splits);
  st.overflows = rd(model::PathCsr::Overflows);
  st.empty_pops = rd(model::PathCsr::EmptyPops);
  return st;
}

}  // namespace

PathRun run_path_frontend(const std::string& trace, const std::string& engine, uint32_t ppcr,
                          const sim::PathConfig& cfg, const sim::SimOptions& sim, uint64_t seed, uint64_t branches,
                          Progress& progress,
                          const std::function<void(const model::Emission&)>& on_emit) {
  PathRun run;
  if (engine == "model") {
    model::PathStackAlgo algo(cfg.depth, cfg.max_len);
    const model::Ppcr reg{ppcr};
    auto src = trace::branch_source(trace);
    model::BranchRecord r;
    while (src(r)) {
      if (auto e = algo.process(model::PathRecord::classify(r, reg))) on_emit(*e);
      if ((algo.stats().records & 0xfffff) == 0) progress.update(algo.stats().records, branches, "records");
    }
    run.stats = algo.stats();
    return run;
  }
  if (engine != "rtl") throw std::invalid_argument("unknown engine '" + engine + "' (model, rtl)");
  model::FrontendReplayConfig rc;
  rc.ppcr = ppcr;
  rc.on_emit = on_emit;
  rc.progress = [&](uint64_t n) { progress.update(n, branches, "records"); };
  auto eng = sim::make_path_frontend_rtl(cfg, sim, "hwprof_paths", seed);
  run.cycles = model::replay_frontend(*eng, trace::branch_source(trace), rc).cycles;
  run.stats = read_stats(*eng);
  return run;
}

}  // namespace hwprof::cli
