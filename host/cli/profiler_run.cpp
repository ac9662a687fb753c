#include "profiler_run.h"

#include <stdexcept>

#include "path_profiler_rtl.h"
#include "path_run.h"
#include "profiler_replay.h"
#include "trace_source.h"

namespace hwprof::cli {

namespace {

ProfilerRun run_model(const std::string& trace, const ProfilerOptions& cfg, uint64_t seed, uint64_t branches,
                      Progress& progress) {
  ProfilerRun run;
  model::HptAlgo hpt(cfg.sets, cfg.ways);
  const model::HptCtrl ctrl = model::HptCtrl::unpack(cfg.hpt_ctrl);
  if (cfg.want_exact) run.exact.emplace();
  const PathRun fe = run_path_frontend(trace, "model", cfg.ppcr, cfg.frontend, cfg.sim, seed, branches, progress,
                                       [&](const model::Emission& e) {
                                         hpt.insert(e, ctrl);
                                         if (run.exact) run.exact->add(e);
                                       });
  run.frontend = fe.stats;
  run.entries = hpt.contents();
  run.stats = hpt.stats();
  return run;
}

// The Verilated path profiler: records in, the dump and the registers out.
// The exact profile is not visible to it (the caller rebuilds it).
ProfilerRun run_rtl(const std::string& trace, const ProfilerOptions& cfg, uint64_t seed, uint64_t branches,
                    Progress& progress) {
  const sim::ProfilerConfig pc{cfg.frontend, cfg.sets, cfg.ways};
  auto eng = sim::make_path_profiler_rtl(pc, cfg.sim, "hwprof_profile_path", seed);
  model::ProfilerReplayConfig rc;
  rc.ppcr = cfg.ppcr;
  rc.hpt_ctrl = cfg.hpt_ctrl;
  rc.progress = [&](uint64_t n) { progress.update(n, branches, "records"); };
  const auto res = model::replay_profiler(*eng, trace::branch_source(trace), rc);
  ProfilerRun run;
  for (const auto& d : res.entries) run.entries.push_back({true, d.key, d.acc});
  run.stats = {res.hpt.descs, res.hpt.hits, res.hpt.fills, res.hpt.replacements,
               res.hpt.rejects, res.hpt.saturations, res.hpt.ignored};
  run.frontend.records = res.frontend.records;
  run.frontend.emitted = res.frontend.emitted;
  run.frontend.incomplete = res.frontend.incomplete;
  run.frontend.splits = res.frontend.splits;
  run.frontend.overflows = res.frontend.overflows;
  run.frontend.empty_pops = res.frontend.empty_pops;
  run.cycles = res.cycles;
  run.feed_cycles = res.feed_cycles;
  run.dump_cycles = res.dump_cycles;
  return run;
}

}  // namespace

ProfilerRun run_path_profiler(const std::string& trace, const std::string& engine, const ProfilerOptions& cfg,
                              uint64_t seed, uint64_t branches, Progress& progress) {
  if (!model::HptCtrl::legal(cfg.hpt_ctrl)) throw std::invalid_argument("illegal HPT CTRL value");
  if (engine == "model") return run_model(trace, cfg, seed, branches, progress);
  if (engine == "rtl") return run_rtl(trace, cfg, seed, branches, progress);
  throw std::invalid_argument("unknown engine '" + engine + "' (model, rtl)");
}

}  // namespace hwprof::cli
