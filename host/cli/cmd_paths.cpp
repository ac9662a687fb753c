// hwprof paths: the exact path profile of a trace, from the path-stack
// front end (functional model, Verilated RTL, or both in lock-step).
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "path_profile.h"
#include "path_run.h"
#include "progress.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

struct PathsOpts {
  std::string mode = "bl";
  unsigned max_ext = 1;
  std::string engine = "model";
  std::string trace;
  unsigned depth = 16;
  unsigned max_len = 32;
  unsigned queue_depth = 4;
  size_t top = 0;
  bool json = false;
  uint64_t seed = 1;
  std::string wave;  ///< --wave FILE (rtl)
};

void run_paths(const PathsOpts& o, const Global& g) {
  const uint32_t ppcr = model::Ppcr::preset(o.mode, o.max_ext);
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];

  model::PathProfile profile;
  Progress p("paths " + o.engine, g.quiet);
  const PathRun run = run_path_frontend(o.trace, o.engine, ppcr, sim::PathConfig{o.queue_depth, o.depth, o.max_len},
                                        sim_options(o.wave),
                                        o.seed, branches, p, [&](const model::Emission& e) { profile.add(e); });
  const model::PathStackStats& st = run.stats;
  const uint64_t cycles = run.cycles;
  p.finish();

  const auto paths = profile.sorted();
  const size_t shown = o.top ? std::min(o.top, paths.size()) : paths.size();
  uint64_t total_insns = 0;
  for (const auto& e : paths) total_insns += e.counts.insns;
  if (o.json) {
    nlohmann::json j;
    j["trace"] = o.trace;
    j["mode"] = o.mode;
    j["engine"] = o.engine;
    j["config"] = {{"ppcr", fmt::format("{:08x}", ppcr)},
                   {"depth", o.depth},
                   {"max_len", o.max_len},
                   {"max_ext", o.mode == "ext" ? o.max_ext : 0}};
    j["records"] = st.records;
    j["incomplete"] = profile.incomplete();
    j["stats"] = {{"records", st.records},         {"emitted", st.emitted},       {"incomplete", st.incomplete},
                  {"splits", st.splits},           {"overflows", st.overflows},   {"empty_pops", st.empty_pops},
                  {"distinct_paths", paths.size()}, {"completed_paths", profile.completed()}};
    if (cycles) j["stats"]["cycles"] = cycles;
    auto& arr = j["paths"] = nlohmann::json::array();
    for (size_t i = 0; i < shown; ++i) {
      const auto& e = paths[i];
      arr.push_back({{"start", fmt::format("{:x}", e.key.start)},
                     {"length", e.key.length},
                     {"dirs", fmt::format("{:x}", e.key.dirs)},
                     {"count", e.counts.count},
                     {"insns", e.counts.insns},
                     {"events", e.counts.events}});
    }
    fmt::print("{}\n", j.dump(1));
    return;
  }
  fmt::print("hwprof path profile ({} paths, {} engine)\n", o.mode, o.engine);
  fmt::print("  trace        {}\n", o.trace);
  fmt::print("  setup        PPCR {:08x}, stack depth {}, MaxLen {}{}\n", ppcr, o.depth, o.max_len,
             o.mode == "ext" ? fmt::format(", max_ext {}", o.max_ext) : std::string());
  fmt::print("  records      {} branch records{}\n", st.records,
             cycles ? fmt::format(" in {} clock cycles", cycles) : std::string());
  fmt::print("  descriptors  {} emitted: {} complete ({} distinct paths), {} incomplete, {} splits; "
             "{} stack overflows, {} empty pops\n",
             st.emitted, profile.completed(), paths.size(), profile.incomplete(), st.splits, st.overflows,
             st.empty_pops);
  fmt::print("\n{:>6} {:>10} {:>4} {:>10} {:>12} {:>14} {:>7} {:>10}\n", "rank", "start", "len", "dirs", "count",
             "insns", "insns%", "events");
  for (size_t i = 0; i < shown; ++i) {
    const auto& e = paths[i];
    fmt::print("{:>6} {:>10x} {:>4} {:>10x} {:>12} {:>14} {:>6.2f}% {:>10}\n", i + 1, e.key.start, e.key.length,
               e.key.dirs, e.counts.count, e.counts.insns,
               total_insns ? 100.0 * double(e.counts.insns) / double(total_insns) : 0.0, e.counts.events);
  }
  if (shown < paths.size()) fmt::print("  ... {} more paths (--top 0 shows all)\n", paths.size() - shown);
}

}  // namespace

void add_paths_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<PathsOpts>();
  auto* c = app.add_subcommand("paths", "the exact path profile of a trace (path-stack front end)");
  c->add_option("--mode", o->mode, "paths to detect: bl (Ball-Larus, Table 1), wpp (WPP subpaths, Table 2), "
                                   "ext (BL with loop extension)")
      ->check(CLI::IsMember({"bl", "wpp", "ext"}))
      ->capture_default_str();
  c->add_option("--max-ext", o->max_ext, "ext mode: back edges a path may span (PPCR max_ext)")
      ->check(CLI::Range(0u, 3u))
      ->capture_default_str();
  c->add_option("--engine", o->engine, "functional model or Verilated RTL")
      ->check(CLI::IsMember({"model", "rtl"}))
      ->capture_default_str();
  c->add_option("--depth", o->depth, "path stack depth (rtl: 16 or 4)")->check(CLI::Range(1u, 255u))->capture_default_str();
  c->add_option("--max-len", o->max_len, "branches per path before a split (rtl: 32 or 8)")
      ->check(CLI::Range(1u, 32u))
      ->capture_default_str();
  c->add_option("--queue-depth", o->queue_depth, "branch queue depth (rtl: 4 with depth 16, 2 with depth 4)")
      ->capture_default_str();
  c->add_option("--top", o->top, "show only the N hottest paths (0 = all)")->capture_default_str();
  c->add_option("--seed", o->seed, "seed for the RTL's random initial state")->capture_default_str();
  c->add_option("--wave", o->wave, "rtl: write an FST waveform of the run to FILE");
  c->add_flag("--json", o->json, "JSON: paths (start, length, dirs as hex; count, insns, events), "
                                 "incomplete, records, stats");
  c->add_option("TRACE", o->trace, "trace file")->required();
  c->callback([o, &g] { run_paths(*o, g); });
}

}  // namespace hwprof::cli
