// hwprof paths: the exact path profile of a trace, from the path-stack
// front end (functional model, Verilated RTL, or both in lock-step).
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "path_profile.h"
#include "path_run.h"
#include "progress.h"
#include "symbols.h"
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
  std::string format = "text";
  std::string folded;  ///< --folded FILE: call-path stacks
  SymOpts sym;
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
  AddrNames names(o.trace, o.sym);
  for (size_t i = 0; i < shown; ++i) names.of(paths[i].key.start);  // resolve first: notes before the table
  if (!o.folded.empty()) {
    const size_t n = write_call_folded(o.trace, names, o.folded);
    if (!g.quiet) fmt::print(stderr, "hwprof: {}: {} call-path stacks (folded, weights = instructions)\n", o.folded, n);
  }
  if (o.format != "text") names.print_notes(g.quiet);
  auto pct = [&](uint64_t v) { return total_insns ? 100.0 * double(v) / double(total_insns) : 0.0; };
  if (o.format == "csv") {
    csv_row({"rank", "start", "start_full", "length", "dirs", "count", "insns", "insns_percent", "events", "sym",
             "file", "line"});
    for (size_t i = 0; i < shown; ++i) {
      const auto& e = paths[i];
      const auto& n = names.of(e.key.start);
      csv_row({std::to_string(i + 1), fmt::format("{:x}", e.key.start), n.full_hex(), std::to_string(e.key.length),
               fmt::format("{:x}", e.key.dirs), std::to_string(e.counts.count), std::to_string(e.counts.insns),
               fmt::format("{:.4f}", pct(e.counts.insns)), std::to_string(e.counts.events),
               names.symbols() ? n.loc.sym() : "", n.loc.file, n.loc.file.empty() ? "" : std::to_string(n.loc.line)});
    }
    return;
  }
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
      nlohmann::json x = {{"start", fmt::format("{:x}", e.key.start)},
                          {"length", e.key.length},
                          {"dirs", fmt::format("{:x}", e.key.dirs)},
                          {"count", e.counts.count},
                          {"insns", e.counts.insns},
                          {"events", e.counts.events}};
      names.add_json(x, names.of(e.key.start), "start");
      arr.push_back(x);
    }
    j["symbols"] = names.summary();
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
  for (const auto& n : names.notes()) fmt::print("  note         {}\n", n);
  fmt::print("\n{:>6} {:>12} {:>4} {:>10} {:>12} {:>14} {:>7} {:>10}  {}\n", "rank", "start", "len", "dirs", "count",
             "insns", "insns%", "events", names.symbols() ? "symbol  source" : "");
  for (size_t i = 0; i < shown; ++i) {
    const auto& e = paths[i];
    const auto& n = names.of(e.key.start);
    fmt::print("{:>6} {:>12} {:>4} {:>10x} {:>12} {:>14} {:>6.2f}% {:>10}  {}\n", i + 1, n.full_hex(), e.key.length,
               e.key.dirs, e.counts.count, e.counts.insns, pct(e.counts.insns), e.counts.events,
               names.symbols() ? n.loc.sym() + (n.loc.file.empty() ? "" : "  " + n.loc.source()) : "");
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
  add_format_option(c, o->format);
  add_symbol_options(c, o->sym);
  c->add_option("--folded", o->folded, "also write the trace's call-path stacks (frame;frame;... insns lines, "
                                       "flamegraph.pl / speedscope folded format) to FILE");
  c->add_option("TRACE", o->trace, "trace file")->required();
  c->callback([o, &g] {
    if (o->format == "json") o->json = true;
    if (o->json) o->format = "json";
    run_paths(*o, g);
  });
}

}  // namespace hwprof::cli
