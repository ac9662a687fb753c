// hwprof fabricate: profile-guided trace fabrication (paper 004 section 3;
// docs/analyses.md, "Trace fabrication"). Builds the profile database of a
// recorded trace, walks the program's code (ELF files from the trace's load
// map) with Algorithm 1, writes the tracelets as one trace plus its load map,
// and with --report compares the BL path profiles of the real and the
// fabricated trace (M_f).
#include <fmt/core.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "alias.h"
#include "commands.h"
#include "fabricate.h"
#include "loadmap.h"
#include "progress.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

using analyses::TraceletEnd;

struct FabricateOpts {
  std::string from;
  std::string output;
  std::string map;
  uint64_t tracelets = 0;
  uint64_t tracelet_len = 1000;
  double sample_rate = 1.0;
  uint64_t sample_window = 100;
  uint64_t seed = 1;
  std::string weight = "insns";
  bool ignore_build_id = false;
  bool report = false;
  bool json = false;
  bool aliases = false;
};

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

std::string base_name(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string pct(double x) { return fmt::format("{:.2f}%", x); }
double share(uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; }

void run_fabricate(const FabricateOpts& o, const Global& g) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  if (o.output == "-") throw std::runtime_error("-o: the fabricated trace needs a file name (OUT.map is written beside it)");
  if (same_file(o.from, o.output)) throw std::runtime_error("-o: '" + o.output + "' is the source trace itself");
  const uint64_t every = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(1.0 / o.sample_rate)));

  // 1. Validate the trace, read its map.
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.from, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
  if (branches == 0) throw std::runtime_error(o.from + ": no branch records to profile");
  const std::string map_path = o.map.empty() ? o.from + ".map" : o.map;
  {
    struct stat st {};
    if (::stat(map_path.c_str(), &st) != 0)
      throw std::runtime_error(map_path + ": cannot open: fabrication needs the trace's load map (`hwprof record` "
                               "writes it beside the trace as TRACE.map; --map names another file)");
  }
  const record::LoadMap map = record::LoadMap::read(map_path);
  // A fabricated source: its tracelets do not follow one another.
  std::vector<uint64_t> segments;
  {
    std::ifstream mf(map_path);
    const nlohmann::json mj = nlohmann::json::parse(mf, nullptr, false);
    if (!mj.is_discarded() && mj.contains("fabricated") && mj["fabricated"].contains("tracelet_records"))
      segments = mj["fabricated"]["tracelet_records"].get<std::vector<uint64_t>>();
  }
  const std::string isa = !map.isa.empty() ? map.isa : info.header.isa;

  // 2. The profile database.
  analyses::ProfileDb db;
  {
    Progress p("profile", g.quiet);
    db = analyses::build_profile(o.from, analyses::Sampling{every, o.sample_window},
                                 [&](uint64_t n) { p.update(n, info.records, "records"); }, segments);
  }
  if (db.blocks().empty())
    throw std::runtime_error(o.from + ": the sampled records hold no block to seed from (raise --sample-rate)");

  // 3. The code: the ELF files of the objects the profile touches.
  analyses::CodeImage code(isa);
  std::vector<uint64_t> needed;
  needed.reserve(db.branches().size() + db.blocks().size());
  for (const auto& [pc, b] : db.branches()) needed.push_back(pc);
  for (const auto& b : db.blocks()) needed.push_back(b.start);
  const std::vector<int> loaded =
      analyses::load_code(code, map, map_path, needed, analyses::LoadCodeOptions{!o.ignore_build_id});
  const analyses::ProfileCheck chk = analyses::check_profile(db, code);
  const uint64_t bad = chk.mismatched + chk.unmapped;
  if (bad * 100 > chk.branches)
    throw std::runtime_error(fmt::format(
        "{} of {} profiled branches do not match the code the map names (first: {}); is {} the load map of {}?", bad,
        chk.branches, chk.first_bad, map_path, o.from));
  if (bad && !g.quiet)
    fmt::print(stderr, "hwprof fabricate: warning: {} of {} profiled branches do not match the code (first: {}); "
                       "the walk follows the code there\n",
               bad, chk.branches, chk.first_bad);

  // 4. The real trace's BL path profile (for --report).
  model::PathProfile real;
  if (o.report || o.json) real = analyses::bl_profile(o.from);

  // 5. Fabricate.
  analyses::FabricateOptions fo;
  fo.tracelet_len = o.tracelet_len;
  fo.seed = o.seed;
  fo.weight = o.weight == "count" ? analyses::SeedWeight::Count : analyses::SeedWeight::Insns;
  analyses::Fabricator fab(db, code, fo);
  trace::Format fmt_out;
  bool compress = false;
  trace::format_from_name(o.output, fmt_out, compress);
  trace::Writer w(o.output, fmt_out, compress, info.header.isa.empty() ? isa : info.header.isa);
  analyses::BlProfiler per_tracelet, stream;
  analyses::FabricatedMapInfo mi;
  std::vector<trace::Record> recs;
  // Memory aliasing by abstract execution (004 section 3.3): x86_64 only.
  const bool aliases = o.aliases && isa == "x86_64";
  std::unique_ptr<analyses::AbstractExec> ax;
  if (aliases) ax = std::make_unique<analyses::AbstractExec>(code);
  std::vector<analyses::TraceletAliases> alias_out;
  std::vector<analyses::InsnRef> insns;
  uint64_t alias_mismatch = 0;
  {
    Progress p("fabricate", g.quiet);
    for (uint64_t i = 0; i < o.tracelets; ++i) {
      recs.clear();
      const analyses::TraceletResult tr = fab.tracelet(i, recs);
      if (aliases) {
        if (!analyses::tracelet_insns(code, tr.seed_pc, recs.data(), recs.size(), insns)) {
          ++alias_mismatch;  // cannot happen for a walk of the same code; counted, no aliases for it
          insns.clear();
        }
        alias_out.push_back(analyses::abstract_aliases(*ax, analyses::tracelet_rng(o.seed ^ 0xa11a5ull, i)(), insns));
      }
      mi.tracelet_records.push_back(tr.records);
      if (tr.end != TraceletEnd::Length) mi.early.emplace_back(i, tr);
      if (o.report || o.json) per_tracelet.restart();
      for (const trace::Record& r : recs) {
        w.write(r);
        if (o.report || o.json) {
          per_tracelet.add(r);
          stream.add(r);
        }
      }
      if ((i & 63) == 0) p.update(i, o.tracelets, "tracelets");
    }
  }
  w.commit();
  const analyses::FabricateStats& st = fab.stats();
  mi.source_trace = o.from;
  mi.trace = base_name(o.output);
  mi.tracelets = o.tracelets;
  mi.tracelet_len = o.tracelet_len;
  mi.seed = o.seed;
  mi.sampling = db.sampling();
  mi.weight = o.weight;
  mi.instructions = st.instructions;
  mi.object_insns = st.object_insns;
  analyses::write_fabricated_map(map_path, o.output + ".map", mi);
  uint64_t alias_pairs = 0, alias_mem = 0;
  for (const auto& t : alias_out) {
    alias_pairs += t.pairs.size();
    alias_mem += t.memory_insns;
  }
  if (aliases) analyses::write_alias_file(o.output + ".alias", base_name(o.output), alias_out);
  const double secs = std::chrono::duration<double>(clock::now() - t0).count();

  uint64_t early = 0;
  for (int e = 1; e < analyses::kNumTraceletEnds; ++e) early += st.ends[e];
  if (!g.quiet)
    fmt::print(stderr, "hwprof fabricate: {}: {} tracelets ({} ended early), {} records, {} instructions ({:.1f} s)\n",
               o.output, st.tracelets, early, st.records, st.instructions, secs);
  if (!g.quiet && aliases)
    fmt::print(stderr, "hwprof fabricate: {}.alias: {} aliasing loads of {} memory instructions (abstract execution)\n",
               o.output, alias_pairs, alias_mem);
  if (!o.report && !o.json) return;

  const double mf = analyses::flow_overlap(real, per_tracelet.profile());
  const double mf_stream = analyses::flow_overlap(real, stream.profile());
  const uint64_t br_dec = st.br_profiled + st.br_static;
  uint64_t real_obj_total = 0;
  for (const auto& ob : map.objects) real_obj_total += ob.insns;
  if (o.json) {
    nlohmann::json j;
    j["source"] = o.from;
    j["output"] = o.output;
    j["map"] = map_path;
    j["config"] = {{"tracelets", o.tracelets},  {"tracelet_len", o.tracelet_len}, {"seed", o.seed},
                   {"sample_every", every},     {"sample_window", o.sample_window}, {"seed_weight", o.weight}};
    j["M_f"] = mf;
    j["M_f_stream"] = mf_stream;
    j["profile"] = {{"records", db.records()},
                    {"sampled_records", db.sampled_records()},
                    {"instructions", db.instructions()},
                    {"sampled_instructions", db.sampled_instructions()},
                    {"static_branches", db.branches().size()},
                    {"blocks", db.blocks().size()},
                    {"conflicts", db.conflicts()},
                    {"mismatched_branches", chk.mismatched},
                    {"unmapped_branches", chk.unmapped}};
    nlohmann::json ends = nlohmann::json::object();
    for (int e = 0; e < analyses::kNumTraceletEnds; ++e) ends[analyses::to_string(TraceletEnd(e))] = st.ends[e];
    nlohmann::json kinds = nlohmann::json::object();
    for (int k = 0; k < 6; ++k) kinds[std::string(trace::kind_name(trace::Kind(k)))] = st.kinds[k];
    j["stats"] = {{"records", st.records},
                  {"instructions", st.instructions},
                  {"events", st.events},
                  {"tail_insns", st.tail},
                  {"kinds", kinds},
                  {"ends", ends},
                  {"seeds", fab.seeds()},
                  {"br_profiled", st.br_profiled},
                  {"br_static", st.br_static},
                  {"indirect_guessed", st.indirect_guessed},
                  {"ret_popped", st.ret_popped},
                  {"ret_guessed", st.ret_guessed},
                  {"call_overflows", st.call_overflows},
                  {"decoded_blocks", code.cached_blocks()},
                  {"seconds", secs}};
    if (aliases) {
      const analyses::AbstractStats& as = ax->stats();
      j["aliases"] = {{"file", o.output + ".alias"},     {"pairs", alias_pairs},     {"memory_insns", alias_mem},
                      {"emulated", as.insns},             {"failed", as.failed},      {"accesses", as.accesses},
                      {"pages", as.pages},                {"refused", as.refused},    {"truncated", as.truncated},
                      {"syscalls", as.syscalls},          {"mismatched_tracelets", alias_mismatch}};
    } else {
      j["aliases"] = nullptr;
    }
    j["paths"] = {{"real_paths", real.completed()},
                  {"real_distinct", real.distinct()},
                  {"fabricated_paths", per_tracelet.profile().completed()},
                  {"fabricated_distinct", per_tracelet.profile().distinct()},
                  {"fabricated_incomplete", per_tracelet.profile().incomplete()}};
    auto& objs = j["objects"] = nlohmann::json::array();
    for (size_t i = 0; i < map.objects.size(); ++i) {
      const uint64_t fi = i < st.object_insns.size() ? st.object_insns[i] : 0;
      objs.push_back({{"path", map.objects[i].path}, {"real_insns", map.objects[i].insns}, {"fabricated_insns", fi}});
    }
    fmt::print("{}\n", j.dump(1));
    return;
  }
  fmt::print("hwprof trace fabrication (paper 004 Algorithm 1)\n");
  fmt::print("  source       {} ({} records, {} instructions); map {}\n", o.from, db.records(), db.instructions(),
             map_path);
  fmt::print("  profile      {} sampled records ({}; {}), {} static branches, {} seed blocks{}\n",
             db.sampled_records(), pct(share(db.sampled_records(), db.records())), every == 1 ? std::string("all records")
             : fmt::format("1 window in {}, windows of {} records", every, o.sample_window), db.branches().size(), fab.seeds(),
             db.conflicts() ? fmt::format(", {} conflicting records ignored", db.conflicts()) : std::string());
  std::string objs;
  for (int i : loaded) objs += (objs.empty() ? "" : ", ") + base_name(map.objects[size_t(i)].path);
  fmt::print("  code         {} ELF objects ({}), {} KiB of code, {} blocks decoded\n", loaded.size(), objs,
             code.mapped_bytes() / 1024, code.cached_blocks());
  fmt::print("  fabricated   {} tracelets of {} instructions (seed {}, seeds weighted by {}): {} records, {} "
             "instructions in records, {} after the last record of a tracelet\n",
             st.tracelets, o.tracelet_len, o.seed, o.weight, st.records, st.instructions, st.tail);
  std::string ends;
  for (int e = 1; e < analyses::kNumTraceletEnds; ++e)
    if (st.ends[e]) ends += fmt::format(", {} {}", st.ends[e], analyses::to_string(TraceletEnd(e)));
  fmt::print("  tracelets    {} full length{}\n", st.ends[0], ends.empty() ? std::string(", none ended early") : ends);
  fmt::print("  walk         conditional branches: {} by profile, {} static guesses ({}); indirect successors "
             "guessed: {}; returns: {} from the call stack, {} guessed\n",
             st.br_profiled, st.br_static, pct(share(st.br_static, br_dec)), st.indirect_guessed, st.ret_popped,
             st.ret_guessed);
  fmt::print("  paths        real {} BL paths ({} distinct); fabricated {} ({} distinct, {} incomplete not counted)\n",
             real.completed(), real.distinct(), per_tracelet.profile().completed(), per_tracelet.profile().distinct(),
             per_tracelet.profile().incomplete());
  if (aliases) {
    const analyses::AbstractStats& as = ax->stats();
    fmt::print("  aliases      {} aliasing loads in {} memory instructions by abstract execution ({} emulated, {} "
               "stopped by the emulator, {} pages seeded); {}.alias\n",
               alias_pairs, alias_mem, as.insns, as.failed, as.pages, o.output);
  } else {
    fmt::print("  aliases      none ({})\n", !o.aliases ? "without --aliases" : "abstract execution is x86_64 only");
  }
  fmt::print("  M_f          {}  (BL path-profile overlap, real vs fabricated tracelets; paper 004 Fig. 5: about 95%)\n",
             pct(mf));
  fmt::print("  M_f stream   {}  (the output as one stream, as `hwprof paths OUT` sees it)\n", pct(mf_stream));
  fmt::print("\ninstructions per object      real   fabricated\n");
  for (size_t i = 0; i < map.objects.size(); ++i) {
    const uint64_t fi = i < st.object_insns.size() ? st.object_insns[i] : 0;
    fmt::print("  {:<24} {:>8} {:>10}\n", base_name(map.objects[i].path),
               pct(share(map.objects[i].insns, real_obj_total)), pct(share(fi, st.instructions)));
  }
}

}  // namespace

void add_fabricate_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<FabricateOpts>();
  auto* c = app.add_subcommand("fabricate", "profile-guided trace fabrication: random tracelets walked through the "
                                            "program's ELF code by a recorded trace's profile (paper 004)");
  c->add_option("--from", o->from, "recorded trace to profile (its load map TRACE.map names the ELF files)")
      ->required();
  c->add_option("-o,--output", o->output, "fabricated trace (format from the name, as hwprof trace convert); "
                                          "OUT.map is written beside it")
      ->required();
  c->add_option("--tracelets", o->tracelets, "number of tracelets")->required()->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  c->add_option("--tracelet-len", o->tracelet_len, "instructions per tracelet")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32))
      ->capture_default_str();
  c->add_option("--sample-rate", o->sample_rate, "fraction of the trace profiled: every round(1/R)-th window of "
                                                 "records contributes")
      ->check(CLI::Range(1e-9, 1.0))
      ->capture_default_str();
  c->add_option("--sample-window", o->sample_window, "records per sampling window")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
      ->capture_default_str();
  c->add_option("--seed", o->seed, "random seed (same seed and inputs = identical output)")->capture_default_str();
  c->add_option("--seed-weight", o->weight, "seed blocks chosen by instructions executed in them (as 004's PC "
                                            "samples) or by executions")
      ->check(CLI::IsMember({"insns", "count"}))
      ->capture_default_str();
  c->add_option("--map", o->map, "load map of the trace (default TRACE.map)");
  c->add_flag("--ignore-build-id", o->ignore_build_id, "use ELF files whose build id differs from the map's");
  c->add_flag("--aliases", o->aliases, "also write OUT.alias: the store -> load aliases of each tracelet by abstract "
                                      "execution (paper 004 section 3.3; x86_64)");
  c->add_flag("--report", o->report, "print the fabrication report with M_f, the path-profile overlap");
  c->add_flag("--json", o->json, "the report as JSON (M_f, M_f_stream, config, profile, stats, paths, objects)");
  c->callback([o, &g] { run_fabricate(*o, g); });
}

}  // namespace hwprof::cli
