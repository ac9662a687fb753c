// hwprof profile: replays a trace through a profiling core and prints its
// report.
//   --unit queue: the branch queue (model or RTL) behind a W-wide retire
//     stage and a profiler with the paper's per-class service latencies;
//     reports the retire overhead.
//   --unit path: the whole path profiler (path-stack front end -> hot path
//     table, docs/hpt.md); reports the hot paths the HPT holds, its
//     statistics and the overlap with the exact profile of the same run.
#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "branch_queue.h"
#include "branch_queue_rtl.h"
#include "commands.h"
#include "hpt_algo.h"
#include "profile_opts.h"
#include "profile_phase.h"
#include "profiler_run.h"
#include "profile_rap.h"
#include "profile_rap2d.h"
#include "progress.h"
#include "retire_replay.h"
#include "symbols.h"
#include "trace.h"
#include "trace_source.h"

namespace hwprof::cli {

namespace {


void run_queue(const ProfileOpts& o, const Global& g) {
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
  if (branches == 0) throw std::runtime_error(o.trace + ": the trace holds no branch records");
  model::ReplayConfig cfg;
  cfg.retire_width = o.width;
  for (int i = 0; i < model::kNumClasses; ++i) cfg.latency[i] = o.latency[i];
  Progress p("replay " + o.engine, g.quiet);
  cfg.progress = [&](uint64_t n) { p.update(n, branches, "records"); };
  model::ReplayStats st;
  uint64_t rtl_cycles = 0;
  if (o.engine == "model") {
    model::BranchQueue q(o.depth);
    st = model::replay(q, trace::branch_source(o.trace), trace::branch_source(o.trace), cfg);
  } else {
    auto q = sim::make_branch_queue_rtl(o.depth, sim_options(o.wave), "hwprof_profile_queue", o.seed);
    st = model::replay(*q, trace::branch_source(o.trace), trace::branch_source(o.trace), cfg);
    rtl_cycles = q->cycles();
  }
  p.finish();

  double mean_occ = 0;
  for (size_t i = 0; i < st.occupancy.size(); ++i) mean_occ += double(i) * double(st.occupancy[i]);
  if (st.cycles) mean_occ /= double(st.cycles);
  if (o.json) {
    nlohmann::json j;
    j["unit"] = "queue";
    j["engine"] = o.engine;
    j["trace"] = o.trace;
    j["config"] = {{"depth", o.depth}, {"retire_width", o.width}, {"latency", o.latency}};
    j["overhead_percent"] = 100.0 * st.overhead();
    j["retire_cycles"] = st.retire_cycles;
    j["ideal_retire_cycles"] = st.ideal_retire_cycles;
    j["instructions"] = st.instructions;
    j["occupancy"] = st.occupancy;
    nlohmann::json cls;
    for (int c = 0; c < model::kNumClasses; ++c)
      cls[model::class_name(static_cast<model::BranchClass>(c))] = st.per_class[c];
    j["classes"] = cls;
    j["stats"] = {{"records", st.records},
                  {"cycles", st.cycles},
                  {"enq_stall_cycles", st.enq_stall_cycles},
                  {"consumer_busy_cycles", st.consumer_busy_cycles},
                  {"max_occupancy", st.max_occupancy},
                  {"records_per_cycle", st.cycles ? double(st.records) / double(st.cycles) : 0.0}};
    if (o.engine == "rtl") j["stats"]["rtl_cycles"] = rtl_cycles;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("hwprof branch-queue report ({} engine)\n", o.engine);
  fmt::print("  trace              {}\n", o.trace);
  fmt::print("  records            {} branch records, {} instructions ({:.2f} per branch)\n", st.records,
             st.instructions, double(st.instructions) / double(st.records));
  fmt::print("  setup              queue depth {}, {}-wide retire, profiler busy cycles per class: "
             "fwd {} bwd {} call {} ret {} ind {}\n",
             o.depth, o.width, o.latency[0], o.latency[1], o.latency[2], o.latency[3], o.latency[4]);
  fmt::print("  classes           ");
  for (int c = 0; c < model::kNumClasses; ++c)
    fmt::print(" {} {:.1f}%", model::class_name(static_cast<model::BranchClass>(c)),
               100.0 * double(st.per_class[c]) / double(st.records));
  fmt::print("\n");
  fmt::print("  retire cycles      {} (ideal {}), profiling overhead {:.2f}%\n", st.retire_cycles,
             st.ideal_retire_cycles, 100.0 * st.overhead());
  fmt::print("  cycles simulated   {}{}, {:.3f} records per cycle\n", st.cycles,
             o.engine == "rtl" ? fmt::format(" (RTL clock edges {})", rtl_cycles) : std::string(),
             double(st.records) / double(st.cycles));
  fmt::print("  retire stalls      {} cycles with the queue full ({:.2f}% of cycles)\n", st.enq_stall_cycles,
             100.0 * double(st.enq_stall_cycles) / double(st.cycles));
  fmt::print("  occupancy          mean {:.2f}, max {}; cycles at each count:", mean_occ, st.max_occupancy);
  for (size_t i = 0; i < st.occupancy.size(); ++i)
    fmt::print(" {}:{:.1f}%", i, 100.0 * double(st.occupancy[i]) / double(st.cycles));
  fmt::print("\n");
  fmt::print("  paper 000 Fig. 18  0.6% overhead with a 4-entry queue, 8.04% with none (SPEC2000, 4-wide)\n");
}

uint64_t branch_records(const std::string& trace, const Global& g) {
  trace::Info info;
  Progress p("validate", g.quiet);
  info = trace::scan(trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  return info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
}

}  // namespace

void run_path(const ProfileOpts& o, const Global& g, const PathEngine& engine) {
  const uint64_t branches = branch_records(o.trace, g);
  model::HptCtrl ctrl;
  ctrl.index = model::HptCtrl::parse_index(o.index);
  ctrl.skew = o.skew != 0;
  ctrl.metric = model::HptCtrl::parse_metric(o.metric);
  ctrl.policy = model::HptCtrl::parse_policy(o.policy);
  ProfilerOptions cfg;
  cfg.ppcr = model::Ppcr::preset(o.mode, o.max_ext);
  cfg.frontend = sim::PathConfig{o.depth, o.stack_depth, o.max_len};
  cfg.sim = sim_options(o.wave);
  cfg.sets = o.sets;
  cfg.ways = o.ways;
  cfg.hpt_ctrl = ctrl.pack();

  Progress p("profile path " + o.engine, g.quiet);
  ProfilerRun run = engine ? engine(cfg, branches, p) : run_path_profiler(o.trace, o.engine, cfg, o.seed, branches, p);
  p.finish();
  if (!run.exact) {
    // The engine did not see the descriptor stream: the exact profile from
    // the front end's model on the same trace (the front end is exact, so
    // model = RTL, tests/cli/paths.sh).
    ProfilerOptions ec = cfg;
    ec.want_exact = true;
    Progress pe("exact profile", g.quiet);
    run.exact = run_path_profiler(o.trace, "model", ec, o.seed, branches, pe).exact;
    pe.finish();
  }

  // The HPT's entries, hottest first (accumulator descending, then key).
  std::vector<model::HptEntry> hot = run.entries;
  std::sort(hot.begin(), hot.end(), [](const model::HptEntry& a, const model::HptEntry& b) {
    if (a.acc != b.acc) return a.acc > b.acc;
    return a.key < b.key;
  });
  uint64_t hpt_total = 0;
  std::vector<model::WeightedPath> measured;
  for (const auto& x : hot) {
    hpt_total += x.acc;
    measured.push_back({x.key, x.acc});
  }
  const auto exact = model::exact_weights(*run.exact, ctrl.metric);
  std::unordered_map<model::PathKey, uint64_t, model::PathKeyHash> exact_of;
  uint64_t exact_total = 0;
  for (const auto& w : exact) {
    exact_of[w.key] = w.weight;
    exact_total += w.weight;
  }
  const size_t entries = size_t{o.sets} * o.ways;
  const double overlap = model::path_overlap(exact, measured);
  const double oracle = model::oracle_overlap(exact, entries);
  const size_t shown = (o.json || o.format == "csv") && !o.top_given ? hot.size() : (o.top ? std::min(o.top, hot.size()) : hot.size());
  const model::HptStats& hs = run.stats;
  const model::PathStackStats& fs = run.frontend;
  AddrNames names(o.trace, o.sym);
  for (size_t i = 0; i < shown; ++i) names.of(hot[i].key.start);  // resolve first: the notes come before the table
  if (o.format != "text") names.print_notes(g.quiet);
  auto pct = [](uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; };

  if (o.format == "csv") {
    csv_row({"rank", "start", "start_full", "length", "dirs", "acc", "share_percent", "exact", "exact_share_percent",
             "sym", "file", "line"});
    for (size_t i = 0; i < shown; ++i) {
      const auto& x = hot[i];
      const auto it = exact_of.find(x.key);
      const uint64_t ex = it == exact_of.end() ? 0 : it->second;
      const auto& n = names.of(x.key.start);
      csv_row({std::to_string(i + 1), fmt::format("{:x}", x.key.start), n.full_hex(), std::to_string(x.key.length),
               fmt::format("{:x}", x.key.dirs), std::to_string(x.acc), fmt::format("{:.4f}", pct(x.acc, hpt_total)),
               std::to_string(ex), fmt::format("{:.4f}", pct(ex, exact_total)),
               names.symbols() ? n.loc.sym() : "", n.loc.file, n.loc.file.empty() ? "" : std::to_string(n.loc.line)});
    }
    return;
  }

  if (o.json) {
    nlohmann::json j;
    j["unit"] = "path";
    j["trace"] = o.trace;
    j["mode"] = o.mode;
    j["engine"] = o.engine;
    j["config"] = {{"ppcr", fmt::format("{:08x}", cfg.ppcr)},
                   {"depth", o.stack_depth},
                   {"max_len", o.max_len},
                   {"max_ext", o.mode == "ext" ? o.max_ext : 0}};
    j["records"] = fs.records;
    j["incomplete"] = run.exact->incomplete();
    j["hpt"] = {{"config",
                 {{"sets", o.sets},
                  {"ways", o.ways},
                  {"entries", entries},
                  {"policy", o.policy},
                  {"index", o.index},
                  {"skew", o.skew},
                  {"metric", model::to_string(ctrl.metric)},
                  {"ctrl", fmt::format("{:02x}", cfg.hpt_ctrl)}}},
                {"stats",
                 {{"descs", hs.descs},
                  {"hits", hs.hits},
                  {"fills", hs.fills},
                  {"replacements", hs.replacements},
                  {"rejects", hs.rejects},
                  {"saturations", hs.saturations},
                  {"ignored", hs.ignored}}},
                {"valid_entries", hot.size()},
                {"total", hpt_total}};
    j["overlap"] = {{"metric", model::to_string(ctrl.metric)},
                    {"complete_percent", overlap},
                    {"oracle_percent", oracle},
                    {"exact_paths", exact.size()},
                    {"exact_total", exact_total}};
    j["stats"] = {{"records", fs.records},   {"emitted", fs.emitted},     {"incomplete", fs.incomplete},
                  {"splits", fs.splits},     {"overflows", fs.overflows}, {"empty_pops", fs.empty_pops},
                  {"hpt_descs", hs.descs},   {"hpt_hits", hs.hits},       {"hpt_fills", hs.fills},
                  {"hpt_replacements", hs.replacements}, {"hpt_rejects", hs.rejects},
                  {"hpt_ignored", hs.ignored}};
    if (run.cycles) {
      j["stats"]["cycles"] = run.cycles;
      j["stats"]["feed_cycles"] = run.feed_cycles;
      j["stats"]["dump_cycles"] = run.dump_cycles;
    }
    const char* metric_field = ctrl.metric == model::HptMetric::Insns    ? "insns"
                               : ctrl.metric == model::HptMetric::Events ? "events"
                                                                         : nullptr;
    auto& arr = j["paths"] = nlohmann::json::array();
    for (size_t i = 0; i < shown; ++i) {
      const auto& x = hot[i];
      nlohmann::json e = {{"start", fmt::format("{:x}", x.key.start)},
                          {"length", x.key.length},
                          {"dirs", fmt::format("{:x}", x.key.dirs)},
                          {"count", x.acc}};
      if (metric_field) e[metric_field] = x.acc;
      const auto ex = exact_of.find(x.key);
      e["exact"] = ex == exact_of.end() ? 0 : ex->second;  // the path's weight in the exact profile (same metric)
      names.add_json(e, names.of(x.key.start), "start");
      arr.push_back(e);
    }
    j["symbols"] = names.summary();
    if (o.json_out) {
      *o.json_out = std::move(j);
      return;
    }
    fmt::print("{}\n", j.dump(1));
    return;
  }
  const double entries_d = double(entries);
  fmt::print("hwprof path profiler report ({} paths, {} engine)\n", o.mode, o.engine);
  fmt::print("  trace        {}\n", o.trace);
  fmt::print("  front end    PPCR {:08x}, stack depth {}, MaxLen {}{}\n", cfg.ppcr, o.stack_depth, o.max_len,
             o.mode == "ext" ? fmt::format(", max_ext {}", o.max_ext) : std::string());
  fmt::print("  HPT          {} sets x {} ways = {} entries, policy {}, index {}{}, metric {} (CTRL {:02x})\n",
             o.sets, o.ways, entries, o.policy, o.index, o.skew ? " skewed" : "", o.metric, cfg.hpt_ctrl);
  fmt::print("  records      {} branch records{}, {} descriptors ({} incomplete)\n", fs.records,
             run.cycles ? fmt::format(" in {} clock cycles ({:.4f} records/clock)", run.cycles,
                                      double(fs.records) / double(run.cycles))
                        : std::string(),
             fs.emitted,
             fs.incomplete);
  fmt::print("  HPT stats    {} inserted: {} hits ({:.1f}%), {} fills, {} replacements, {} rejects; "
             "{} saturations, {} incomplete ignored; {} of {} entries valid\n",
             hs.descs, hs.hits, pct(hs.hits, hs.descs), hs.fills, hs.replacements, hs.rejects, hs.saturations,
             hs.ignored, hot.size(), entries);
  fmt::print("  overlap      {:.2f}% complete overlap with the exact profile of this run ({} distinct paths), "
             "metric {}\n",
             overlap, exact.size(), o.metric);
  fmt::print("  oracle       {:.2f}% (the {:.0f} heaviest paths with exact weights)\n", oracle, entries_d);
  for (const auto& n : names.notes()) fmt::print("  note         {}\n", n);
  fmt::print("\n{:>6} {:>12} {:>4} {:>10} {:>12} {:>7} {:>12} {:>7}  {}\n", "rank", "start", "len", "dirs", "acc",
             "share", "exact", "share", names.symbols() ? "symbol  source" : "");
  for (size_t i = 0; i < shown; ++i) {
    const auto& x = hot[i];
    const auto it = exact_of.find(x.key);
    const uint64_t ex = it == exact_of.end() ? 0 : it->second;
    const auto& n = names.of(x.key.start);
    fmt::print("{:>6} {:>12} {:>4} {:>10x} {:>12} {:>6.2f}% {:>12} {:>6.2f}%  {}\n", i + 1, n.full_hex(),
               x.key.length, x.key.dirs, x.acc, pct(x.acc, hpt_total), ex, pct(ex, exact_total),
               names.symbols() ? n.loc.sym() + (n.loc.file.empty() ? "" : "  " + n.loc.source()) : "");
  }
  if (shown < hot.size()) fmt::print("  ... {} more entries (--top 0 shows all)\n", hot.size() - shown);
}

void add_profile_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<ProfileOpts>();
  auto* c = app.add_subcommand("profile", "replay a trace through a profiling core and print its report");
  c->add_option("--unit", o->unit, "core to run: queue (branch queue), path (path profiler: front end + HPT), "
                 "phase (DCR tracker, path-based or BBV phase detector), "
                 "rap (range-adaptive profiler), rap2d (2-D RAP on code x data pairs, docs/rap2d.md)")
      ->check(CLI::IsMember({"queue", "path", "phase", "rap", "rap2d"}))
      ->capture_default_str();
  c->add_option("--engine", o->engine, "golden model or Verilated RTL")
      ->check(CLI::IsMember({"model", "rtl"}))
      ->capture_default_str();
  c->add_option("--depth", o->depth, "branch queue depth (model: any, 0 = no queue; rtl: 1, 2, 4, 8)")
      ->capture_default_str();
  // --unit path (docs/hpt.md)
  c->add_option("--mode", o->mode, "path: paths to detect, bl, wpp or ext (as hwprof paths)")
      ->check(CLI::IsMember({"bl", "wpp", "ext"}))
      ->capture_default_str();
  c->add_option("--max-ext", o->max_ext, "path, ext mode: back edges a path may span")
      ->check(CLI::Range(0u, 3u))
      ->capture_default_str();
  c->add_option("--stack-depth", o->stack_depth, "path: path stack depth")
      ->check(CLI::Range(1u, 255u))
      ->capture_default_str();
  c->add_option("--max-len", o->max_len, "path: branches per path before a split")
      ->check(CLI::Range(1u, 32u))
      ->capture_default_str();
  c->add_option("--sets", o->sets, "path: HPT sets (a power of two, 1..65536)")->capture_default_str();
  c->add_option("--ways", o->ways, "path: HPT ways")->check(CLI::Range(1u, 4096u))->capture_default_str();
  c->add_option("--policy", o->policy, "path: HPT replacement policy: lfu (paper), ss (Space-Saving), erode")
      ->check(CLI::IsMember({"lfu", "ss", "erode"}))
      ->capture_default_str();
  c->add_option("--index", o->index, "path: HPT index fold: plb (start, length, dirs) or pb (no length)")
      ->check(CLI::IsMember({"plb", "pb"}))
      ->capture_default_str();
  c->add_option("--skew", o->skew, "path: 1 = skewed index (each way its own fold), 0 = set-associative")
      ->check(CLI::Range(0u, 1u))
      ->capture_default_str();
  c->add_option("--metric", o->metric, "path: HPT accumulator metric: freq, events or insns")
      ->check(CLI::IsMember({"freq", "events", "insns"}))
      ->capture_default_str();
  auto* top = c->add_option("--top", o->top, "path: show the N hottest HPT entries (0 = all; default 20 in the "
                                             "text report, all with --json)");
  c->add_option("--retire-width", o->width, "instructions retired per cycle")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  c->add_option("--latency", o->latency, "profiler busy cycles for fwd,bwd,call,ret,ind records")
      ->delimiter(',')
      ->expected(5)
      ->check(CLI::Range(1u, 1000u));
  c->add_option("--seed", o->seed, "seed for the RTL's random initial state")->capture_default_str();
  c->add_option("--wave", o->wave, "rtl: write an FST waveform of the run to FILE");
  add_rap_options(c, o->rap);
  add_rap2d_options(c, o->rap2d);
  add_phase_options(c, o->phase);
  c->add_flag("--json", o->json, "machine-readable report (includes a stats object)");
  add_format_option(c, o->format);
  add_symbol_options(c, o->sym);
  c->add_option("TRACE", o->trace, "trace file")->required();
  c->callback([o, top, &g] {
    if (o->format == "json") o->json = true;
    if (o->json) o->format = "json";
    if (o->unit == "phase") {
      o->phase.engine = o->engine;
      o->phase.trace = o->trace;
      o->phase.json = o->json;
      o->phase.seed = o->seed;
      o->phase.sim = sim_options(o->wave);
      o->phase.format = o->format;
      o->phase.sym = o->sym;
      run_phase(o->phase, g);
      return;
    }
    if (o->unit == "rap") {
      o->rap.engine = o->engine;
      o->rap.trace = o->trace;
      o->rap.json = o->json;
      o->rap.seed = o->seed;
      o->rap.sim = sim_options(o->wave);
      o->rap.format = o->format;
      o->rap.sym = o->sym;
      run_rap(o->rap, g);
      return;
    }
    if (o->unit == "rap2d") {
      o->rap.engine = o->engine;
      o->rap.trace = o->trace;
      o->rap.json = o->json;
      o->rap.format = o->format;
      o->rap.sym = o->sym;
      o->rap.seed = o->seed;
      o->rap.sim = sim_options(o->wave);
      run_rap2d(o->rap, o->rap2d, g);
      return;
    }
    if (o->unit == "path") {
      if (o->sets == 0 || (o->sets & (o->sets - 1)) != 0 || o->sets > 65536)
        throw std::runtime_error(fmt::format("--sets {}: must be a power of two in 1..65536", o->sets));
      if (o->depth == 0) throw std::runtime_error("--depth 0: the path profiler's front end needs a branch queue");
      o->top_given = top->count() > 0;
      run_path(*o, g);
      return;
    }
    if (o->format == "csv")
      throw std::runtime_error("--format csv: the queue report has no table (use --json)");
    if (o->engine == "rtl" && o->depth == 0) throw std::runtime_error("--depth 0 (no queue) exists only in the model");
    run_queue(*o, g);
  });
}

}  // namespace hwprof::cli
