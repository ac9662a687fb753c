// hwprof critpath: critical-path analysis of a trace (paper 004 section 4;
// docs/analyses.md, "Critical-path analysis" and "Per-interval CPI"). The
// trace's instructions (its branch records plus the ELF code its load map
// names) run through the out-of-order timing model tracelet by tracelet;
// each tracelet's critical path is delineated on the Fields et al.
// dependence graph, giving per static instruction its dynamic and critical
// counts (LoC, binary criticality), written as the criticality database.
// The whole trace also runs uninterrupted for the CPI and, with
// --cpi-interval, per-interval CPI.
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "alias.h"
#include "commands.h"
#include "critpath.h"
#include "fabricate.h"
#include "loadmap.h"
#include "progress.h"
#include "symbolize.h"
#include "timing.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

struct CritpathOpts {
  std::string trace;
  std::string map;
  uint64_t tracelet_len = 1000;
  uint32_t rob = 128, fetch = 4, issue = 4, commit = 4, mem_ports = 2, penalty = 10;
  uint32_t miss_latency = 150;
  double mispredict_rate = std::nan("");  // NaN: per branch from the trace's profile
  double miss_rate = 0.02;
  uint64_t seed = 1;
  size_t top = 10;
  bool json = false;
  std::string output;
  uint64_t cpi_interval = 0;
  std::string cpi_out;
  bool ignore_build_id = false;
  bool no_mem_deps = false;
  std::string aliases;
  bool no_symbols = false;
};

std::string hex(uint64_t v) { return fmt::format("0x{:x}", v); }

void write_json(const std::string& path, const nlohmann::json& j, const char* what) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error(fmt::format("{} {}: cannot create: {}", what, path, std::strerror(errno)));
    f << j.dump(1) << "\n";
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      throw std::runtime_error(fmt::format("{} {}: write error", what, path));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(fmt::format("{} {}: cannot rename into place: {}", what, path, std::strerror(err)));
  }
}

void check_options(const CritpathOpts& o) {
  auto need = [](bool ok, const std::string& msg) {
    if (!ok) throw std::runtime_error(msg);
  };
  need(o.tracelet_len >= 1, "--tracelet-len: must be at least 1");
  need(o.rob >= 1, "--rob: the reorder buffer needs at least 1 entry");
  need(o.fetch >= 1, "--fetch: the fetch (dispatch) width must be at least 1");
  need(o.issue >= 1, "--issue: the issue width must be at least 1");
  need(o.commit >= 1, "--commit: the commit width must be at least 1");
  need(o.mem_ports >= 1, "--mem-ports: at least 1 memory port");
  need(o.miss_latency >= 1, "--miss-latency: must be at least 1");
  need(std::isnan(o.mispredict_rate) || (o.mispredict_rate >= 0 && o.mispredict_rate <= 1.0),
       "--mispredict-rate: a rate in 0..1");
  need(o.miss_rate >= 0 && o.miss_rate <= 1.0, "--miss-rate: a rate in 0..1");
  need(o.cpi_interval == 0 || !o.cpi_out.empty(), "--cpi-interval: needs --cpi-out FILE");
  need(o.cpi_out.empty() || o.cpi_interval > 0, "--cpi-out: needs --cpi-interval N (N >= 1)");
}

void run_critpath(const CritpathOpts& o, const Global& g) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  check_options(o);
  analyses::CritOptions co;
  co.machine.fetch = o.fetch;
  co.machine.issue = o.issue;
  co.machine.commit = o.commit;
  co.machine.mem_ports = o.mem_ports;
  co.machine.rob = o.rob;
  co.machine.mispredict_penalty = o.penalty;
  co.machine.lat.load_miss = o.miss_latency;
  co.machine.mem_deps = !o.no_mem_deps;
  co.machine.explicit_mem_deps = !o.aliases.empty();
  if (!o.aliases.empty() && o.no_mem_deps) throw std::runtime_error("--aliases and --no-mem-deps exclude each other");
  co.tracelet_len = o.tracelet_len;
  co.seed = o.seed;
  const bool profiled_rates = std::isnan(o.mispredict_rate);
  co.rates.global_mispredict = profiled_rates ? -1.0 : o.mispredict_rate;
  co.rates.miss_rate = o.miss_rate;
  if (const std::string bad = co.machine.check(); !bad.empty()) throw std::runtime_error(bad);

  // 1. Validate the trace, read its map.
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
  if (branches == 0) throw std::runtime_error(o.trace + ": no branch records to analyse");
  const std::string map_path = o.map.empty() ? o.trace + ".map" : o.map;
  {
    struct stat st {};
    if (::stat(map_path.c_str(), &st) != 0)
      throw std::runtime_error(map_path + ": cannot open: critical-path analysis needs the trace's load map to find "
                               "the program's code (`hwprof record` and `hwprof fabricate` write it beside the "
                               "trace as TRACE.map; --map names another file)");
  }
  const record::LoadMap map = record::LoadMap::read(map_path);
  std::vector<uint64_t> segments;  // a fabricated trace: its tracelets do not follow one another
  {
    std::ifstream mf(map_path);
    const nlohmann::json mj = nlohmann::json::parse(mf, nullptr, false);
    if (!mj.is_discarded() && mj.contains("fabricated") && mj["fabricated"].contains("tracelet_records"))
      segments = mj["fabricated"]["tracelet_records"].get<std::vector<uint64_t>>();
  }
  const std::string isa = !map.isa.empty() ? map.isa : info.header.isa;
  // Abstract-execution aliases of a fabricated trace (hwprof fabricate's OUT.alias).
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> alias_pairs;
  if (!o.aliases.empty()) {
    if (segments.empty())
      throw std::runtime_error("--aliases: " + o.trace + " is not a fabricated trace (its map has no tracelet layout)");
    for (auto& t : analyses::read_alias_file(o.aliases)) alias_pairs.push_back(std::move(t.pairs));
    if (alias_pairs.size() != segments.size())
      throw std::runtime_error(fmt::format("--aliases: {} has {} tracelets, the trace {}", o.aliases,
                                           alias_pairs.size(), segments.size()));
  }

  // 2. Profile (code to load, misprediction rates).
  analyses::ProfileDb db;
  {
    Progress p("profile", g.quiet);
    db = analyses::build_profile(o.trace, analyses::Sampling{}, [&](uint64_t n) { p.update(n, info.records, "records"); },
                                 segments);
  }
  if (profiled_rates) co.rates.mispredict = analyses::profile_mispredict_rates(db);

  // 3. Code.
  analyses::CodeImage code(isa);
  std::vector<uint64_t> needed;
  needed.reserve(db.branches().size() + db.blocks().size());
  for (const auto& [pc, b] : db.branches()) needed.push_back(pc);
  for (const auto& b : db.blocks()) needed.push_back(b.start);
  analyses::load_code(code, map, map_path, needed, analyses::LoadCodeOptions{!o.ignore_build_id});
  const analyses::ProfileCheck chk = analyses::check_profile(db, code);
  if ((chk.mismatched + chk.unmapped) * 100 > chk.branches)
    throw std::runtime_error(fmt::format(
        "{} of {} branches of the trace do not match the code the map names (first: {}); is {} the load map of {}?",
        chk.mismatched + chk.unmapped, chk.branches, chk.first_bad, map_path, o.trace));

  // 4. Analyse.
  analyses::InsnDecoder dec(isa);
  analyses::InsnStream in(code, dec);
  analyses::CritAnalyzer an(co);
  analyses::TimingModel stream(co.machine);
  analyses::CritRun run;
  {
    Progress p("critpath", g.quiet);
    run = analyses::run_critpath(o.trace, in, an, stream, co, o.cpi_interval, segments,
                                 [&](uint64_t n) { p.update(n, info.records, "records"); },
                                 o.aliases.empty() ? nullptr : &alias_pairs);
  }
  if (run.modelled == 0)
    throw std::runtime_error(fmt::format("{}: no instruction could be modelled ({} records; is {} the trace's own load "
                                         "map?)",
                                         o.trace, run.records, map_path));
  const double secs = std::chrono::duration<double>(clock::now() - t0).count();

  if (!g.quiet)
    fmt::print(stderr, "hwprof critpath: {}: {} instructions modelled of {}, {} tracelets ({:.1f} s)\n", o.trace,
               run.modelled, run.instructions, an.tracelets(), secs);

  // 5. Results.
  struct Row {
    uint64_t pc;
    analyses::StaticCrit c;
  };
  std::vector<Row> rows;
  rows.reserve(an.db().size());
  uint64_t binary = 0, crit_dyn = 0, binary_dyn = 0;
  for (const auto& [pc, c] : an.db()) {
    rows.push_back({pc, c});
    binary += c.binary();
    crit_dyn += c.critical;
    if (c.binary()) binary_dyn += c.dynamic;
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.pc < b.pc; });
  std::vector<const Row*> top;
  for (const Row& r : rows) top.push_back(&r);
  std::sort(top.begin(), top.end(), [](const Row* a, const Row* b) {
    return a->c.critical != b->c.critical ? a->c.critical > b->c.critical : a->pc < b->pc;
  });
  if (top.size() > o.top) top.resize(o.top);
  // Symbols of the top instructions (ELF symbol tables and DWARF lines through
  // the load map; a bare address when unknown, never an error).
  sym::Symbolizer syms = o.no_symbols ? sym::Symbolizer() : sym::Symbolizer::from_map(map_path);
  std::map<uint64_t, sym::Location> locs;
  for (const Row* r : top) locs[r->pc] = syms.lookup(r->pc);

  const double cpi = double(run.stream_cycles) / double(run.modelled);
  const double cpi_tr = double(an.cycles()) / double(an.instructions());
  using nlohmann::json;
  json edges = json::object();
  for (int e = 0; e < analyses::kNumEdges; ++e)
    edges[analyses::to_string(analyses::Edge(e))] = {
        {"count", an.edge_count()[e]},
        {"cycles", an.edge_cycles()[e]},
        {"share", an.path_cycles() ? double(an.edge_cycles()[e]) / double(an.path_cycles()) : 0.0}};
  json skipped = json::object();
  for (int k = 0; k < analyses::kNumSkips; ++k)
    skipped[analyses::to_string(analyses::Skip(k))] = {{"records", in.skipped_records(analyses::Skip(k))},
                                                       {"insns", in.skipped_insns(analyses::Skip(k))}};
  json topj = json::array();
  for (const Row* r : top)
    topj.push_back({{"pc", hex(r->pc)}, {"disasm", dec.disasm(r->pc)}, {"dynamic", r->c.dynamic},
                    {"critical", r->c.critical}, {"loc", r->c.loc()}, {"sym", locs[r->pc].sym()},
                    {"source", locs[r->pc].source()}});
  json summary = {{"records", run.records},
                  {"instructions", run.instructions},
                  {"modelled", run.modelled},
                  {"skipped", skipped},
                  {"tracelets", an.tracelets()},
                  {"cycles", run.stream_cycles},
                  {"cpi", cpi},
                  {"tracelet_cycles", an.cycles()},
                  {"cpi_tracelets", cpi_tr},
                  {"mispredicts", an.mispredicts()},
                  {"misses", an.misses()},
                  {"critical_path", {{"cycles", an.path_cycles()}, {"edges", edges},
                                     {"mem_edges", an.mem_edges()}, {"mem_cycles", an.mem_cycles()},
                                     {"mem_share", an.path_cycles() ? double(an.mem_cycles()) / double(an.path_cycles()) : 0.0}}},
                  {"static_insns", rows.size()},
                  {"critical_dynamic", crit_dyn},
                  {"binary_critical", binary},
                  {"binary_critical_dynamic", binary_dyn},
                  {"top", topj},
                  {"seconds", secs}};
  json config = {{"tracelet_len", o.tracelet_len},
                 {"rob", o.rob},
                 {"fetch", o.fetch},
                 {"issue", o.issue},
                 {"mem_ports", o.mem_ports},
                 {"commit", o.commit},
                 {"mispredict_penalty", o.penalty},
                 {"mispredict_rate", profiled_rates ? json("profile") : json(o.mispredict_rate)},
                 {"miss_rate", o.miss_rate},
                 {"latencies",
                  {{"int_alu", co.machine.lat.int_alu}, {"int_mul", co.machine.lat.int_mul},
                   {"int_div", co.machine.lat.int_div}, {"fp", co.machine.lat.fp}, {"fp_div", co.machine.lat.fp_div},
                   {"branch", co.machine.lat.branch}, {"load_hit", co.machine.lat.load_hit},
                   {"load_miss", co.machine.lat.load_miss}, {"store", co.machine.lat.store}}},
                 {"mem_deps", !o.no_mem_deps},
                 {"mem_dep_source", o.no_mem_deps ? "none" : o.aliases.empty() ? "expression" : "aliases"},
                 {"seed", o.seed},
                 {"loc_threshold", 0.125}};

  if (!o.output.empty()) {
    json j = {{"format", "hwprof-critpath"}, {"version", 1}, {"trace", o.trace}, {"map", map_path},
              {"isa", isa},          {"config", config}, {"summary", summary}};
    json& arr = j["insns"] = json::array();
    for (const Row& r : rows)
      arr.push_back({{"pc", hex(r.pc)}, {"disasm", dec.disasm(r.pc)}, {"dynamic", r.c.dynamic},
                     {"critical", r.c.critical}, {"loc", r.c.loc()}, {"critical_binary", r.c.binary()}});
    write_json(o.output, j, "-o");
  }
  if (o.cpi_interval) {
    json cj = {{"interval_insns", o.cpi_interval}, {"trace", o.trace}};
    json& arr = cj["cpi"] = json::array();
    for (double c : run.interval_cpi) arr.push_back(std::isnan(c) ? json(nullptr) : json(c));
    cj["intervals"] = run.interval_cpi.size();
    cj["tail_insns"] = run.tail_insns;
    cj["note"] = "cpi[k]: cycles of interval k (uninterrupted timing model) / instructions modelled in it; null: "
                 "none modelled; tail_insns: after the last completed interval (not reported)";
    write_json(o.cpi_out, cj, "--cpi-out");
  }
  if (o.json) {
    fmt::print("{}\n", json({{"trace", o.trace}, {"config", config}, {"summary", summary}}).dump(1));
    return;
  }
  fmt::print("hwprof critical-path analysis (paper 004 section 4; Fields et al. graph)\n");
  fmt::print("  trace        {} ({} records, {} instructions); map {}\n", o.trace, run.records, run.instructions,
             map_path);
  fmt::print("  machine      fetch {} issue {} ({} memory) commit {}, ROB {}, refill penalty {}, load {}/{} cycles, "
             "store -> load dependences {}\n",
             o.fetch, o.issue, o.mem_ports, o.commit, o.rob, o.penalty, co.machine.lat.load_hit,
             co.machine.lat.load_miss,
             o.no_mem_deps ? "off" : o.aliases.empty() ? "on (same address expression)" : "on (from " + o.aliases + ")");
  fmt::print("  events       mispredictions {} ({}), load misses {} (rate {}), seed {}\n", an.mispredicts(),
             profiled_rates ? std::string("per-branch rates from the trace's profile")
                                   : fmt::format("rate {}", o.mispredict_rate),
             an.misses(), o.miss_rate, o.seed);
  std::string sk;
  for (int k = 0; k < analyses::kNumSkips; ++k)
    if (in.skipped_records(analyses::Skip(k)))
      sk += fmt::format("{}{} {} ({} insns)", sk.empty() ? "" : ", ", in.skipped_records(analyses::Skip(k)),
                        analyses::to_string(analyses::Skip(k)), in.skipped_insns(analyses::Skip(k)));
  fmt::print("  modelled     {} instructions in {} tracelets of {}; records skipped: {}\n", run.modelled,
             an.tracelets(), o.tracelet_len, sk.empty() ? std::string("none") : sk);
  fmt::print("  CPI          {:.4f} (whole trace in order; {:.4f} over tracelets, each from an empty machine)\n", cpi,
             cpi_tr);
  fmt::print("  critical     {} static instructions, {} binary critical (LoC > 0.125); {} of {} dynamic "
             "instructions on the path\n",
             rows.size(), binary, crit_dyn, an.instructions());
  fmt::print("  path share  ");
  for (int e = 0; e < analyses::kNumEdges; ++e)
    fmt::print(" {} {:.1f}%", analyses::to_string(analyses::Edge(e)),
               an.path_cycles() ? 100.0 * double(an.edge_cycles()[e]) / double(an.path_cycles()) : 0.0);
  fmt::print("  (of {} path cycles)\n", an.path_cycles());
  fmt::print("  memory edges {} on the path, {:.2f}% of its cycles (store -> load E-E edges)\n", an.mem_edges(),
             an.path_cycles() ? 100.0 * double(an.mem_cycles()) / double(an.path_cycles()) : 0.0);
  fmt::print("\ntop {} by critical count        dynamic   critical    LoC  disassembly / symbol  source\n", top.size());
  for (const Row* r : top) {
    const sym::Location& l = locs[r->pc];
    fmt::print("  {:<18} {:>12} {:>10} {:>6.3f}  {:<36}  {}  {}\n", hex(r->pc), r->c.dynamic, r->c.critical,
               r->c.loc(), dec.disasm(r->pc), l.sym(), l.source());
  }
  for (const std::string& n : syms.notes()) fmt::print("  note         symbols: {}\n", n);
}

}  // namespace

void add_critpath_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<CritpathOpts>();
  auto* c = app.add_subcommand("critpath", "critical-path analysis: per-static-instruction criticality (LoC) from a "
                                           "timing model and the Fields et al. dependence graph (paper 004), and "
                                           "per-interval CPI");
  c->add_option("trace", o->trace, "trace (recorded or fabricated; its load map TRACE.map names the ELF files)")
      ->required();
  c->add_option("--map", o->map, "load map of the trace (default TRACE.map)");
  c->add_flag("--no-symbols", o->no_symbols, "do not name the top instructions' functions and source lines");
  c->add_option("--tracelet-len", o->tracelet_len, "instructions per analysed tracelet")->capture_default_str();
  c->add_option("--rob", o->rob, "reorder-buffer entries")->capture_default_str();
  c->add_option("--fetch", o->fetch, "instructions fetched / dispatched per cycle")->capture_default_str();
  c->add_option("--issue", o->issue, "instructions issued per cycle")->capture_default_str();
  c->add_option("--mem-ports", o->mem_ports, "loads and stores issued per cycle")->capture_default_str();
  c->add_option("--commit", o->commit, "instructions committed per cycle")->capture_default_str();
  c->add_option("--penalty", o->penalty, "refill cycles after a mispredicted branch resolves")->capture_default_str();
  c->add_option("--miss-latency", o->miss_latency, "latency of a load that misses")->capture_default_str();
  c->add_option("--mispredict-rate", o->mispredict_rate,
                "misprediction rate of every conditional and indirect branch (default: per branch from the trace's "
                "profile, a static predictor's rate)");
  c->add_option("--miss-rate", o->miss_rate, "cache-miss rate of every load")->capture_default_str();
  c->add_option("--seed", o->seed, "random seed of the injected events (same seed and inputs = identical output)")
      ->capture_default_str();
  c->add_option("--top", o->top, "instructions listed by critical count")->capture_default_str();
  c->add_flag("--json", o->json, "the summary as JSON on stdout");
  c->add_option("-o,--output", o->output, "write the criticality database (JSON) here");
  c->add_option("--cpi-interval", o->cpi_interval, "per-interval CPI: interval length in instructions (phase "
                                                   "tracker boundary rule)");
  c->add_option("--cpi-out", o->cpi_out, "per-interval CPI output (JSON {\"interval_insns\", \"cpi\": [...]})");
  c->add_flag("--ignore-build-id", o->ignore_build_id, "use ELF files whose build id differs from the map's");
  c->add_flag("--no-mem-deps", o->no_mem_deps, "no store -> load dependences (through the same address expression)");
  c->add_option("--aliases", o->aliases, "a fabricated trace's store -> load aliases (hwprof fabricate's OUT.alias, "
                                         "abstract execution) instead of the same-expression rule");
  c->callback([o, &g] { run_critpath(*o, g); });
}

}  // namespace hwprof::cli
