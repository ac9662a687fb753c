// hwprof kpaths: k-iteration path profiling (paper 002; docs/analyses.md).
// The BL path stream of a trace (path-stack model or Verilated RTL), cut into
// routine activations by the emitting depth, or a raw stream of ids and `*`
// markers (--ids), goes through the k-slab forest (Fig. 11) and comes out as
// the k-iteration path forest (Fig. 12).
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.h"
#include "kpaths.h"
#include "path_run.h"
#include "progress.h"
#include "symbols.h"
#include "trace.h"

namespace hwprof::cli {

namespace {

using analyses::KIpf;
using analyses::Label;

bool g_quiet = false;  // -q: no notes on stderr

struct KpathsOpts {
  unsigned k = 0;
  double prune = 0;
  std::string engine = "model";
  std::string trace;
  std::string ids;
  unsigned depth = 16;
  unsigned max_len = 32;
  unsigned queue_depth = 4;
  size_t top = 0;
  bool json = false;
  uint64_t seed = 1;
  std::string format = "text";
  std::string folded;  ///< --folded FILE
  SymOpts sym;
};

// How a label is shown: the dense id, or the raw stream's own value.
struct Labels {
  const std::vector<uint64_t>* values = nullptr;  // --ids
  uint64_t operator()(Label l) const { return values ? (*values)[l] : uint64_t{l}; }
};

nlohmann::json node_json(const KIpf& f, uint32_t i, const Labels& lab) {
  const auto& n = f.node(i);
  nlohmann::json j = {{"id", lab(n.label)},
                      {"count", n.count},
                      {"share_parent", f.share_parent(i)},
                      {"share_root", f.share_root(i)}};
  auto& ch = j["children"] = nlohmann::json::array();
  for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) ch.push_back(node_json(f, c, lab));
  return j;
}

std::string path_str(const KIpf& f, uint32_t i, const Labels& lab) {
  std::string s;
  for (Label l : f.path(i)) s += (s.empty() ? "" : " ") + std::to_string(lab(l));
  return s;
}

std::string pct(double x) { return fmt::format("{:.2f}%", 100.0 * x); }

void print_forest(const KIpf& f, uint32_t i, const Labels& lab, std::set<Label>& used) {
  const auto& n = f.node(i);
  used.insert(n.label);
  const std::string indent(2 * (n.level - 1), ' ');
  if (n.parent == analyses::kNil)
    fmt::print("{}{}  {}\n", indent, lab(n.label), n.count);
  else
    fmt::print("{}{}  {}  {} ({})\n", indent, lab(n.label), n.count, pct(f.share_parent(i)), pct(f.share_root(i)));
  for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) print_forest(f, c, lab, used);
}

struct Report {
  nlohmann::json j;                    // source-specific fields, stats
  std::vector<std::string> header;     // text lines
  KIpf full;                           // the k-IPF before pruning
  Labels labels;
  const std::vector<model::PathKey>* keys = nullptr;  // trace: keys[id]
  AddrNames* names = nullptr;                         // trace: names of the path starts
};

// A label as a folded-stack frame: the BL path's start symbol and its id
// (trace), or the raw stream's value (--ids).
std::string frame(const Report& r, Label l) {
  if (!r.keys || !r.names) return std::to_string(r.labels(l));
  const auto& n = r.names->of((*r.keys)[l].start);
  return folded_frame((r.names->symbols() ? n.loc.sym() : "0x" + n.full_hex()) + "#" + std::to_string(l));
}

// Folded stacks of the k-IPF: one line per node with its own count (its
// count minus its children's), the frames the BL paths from the root.
size_t write_folded(const KIpf& f, const Report& r, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot write");
  size_t lines = 0;
  for (uint32_t i = 0; i < f.size(); ++i) {
    const auto& n = f.node(i);
    uint64_t kids = 0;
    for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) kids += f.node(c).count;
    if (n.count <= kids) continue;
    std::string line;
    for (Label l : f.path(i)) line += (line.empty() ? "" : ";") + frame(r, l);
    out << line << ' ' << (n.count - kids) << '\n';
    ++lines;
  }
  out.close();
  if (!out) throw std::runtime_error(path + ": write failed");
  return lines;
}

std::string path_syms(const KIpf& f, uint32_t i, const Report& r) {
  std::string s;
  for (Label l : f.path(i)) s += (s.empty() ? "" : ";") + frame(r, l);
  return s;
}

void emit(const KpathsOpts& o, Report& r) {
  const KIpf shown = r.full.pruned(o.prune);
  const uint32_t roots = o.top ? std::min<uint32_t>(uint32_t(o.top), shown.num_roots()) : shown.num_roots();
  const auto levels = r.full.level_sizes();
  if (r.names) {  // resolve the shown paths' names first: the notes come before the tables
    for (uint32_t i = 0; i < r.full.num_roots(); ++i) r.names->of((*r.keys)[r.full.node(i).label].start);
    if (o.format != "text") r.names->print_notes(g_quiet);
  }
  if (!o.folded.empty()) {
    const size_t n = write_folded(shown, r, o.folded);
    if (!g_quiet) fmt::print(stderr, "hwprof: {}: {} k-iteration path stacks (folded)\n", o.folded, n);
  }
  if (o.format == "csv") {
    csv_row({"rank", "count", "share_parent", "share_root", "ids", "frames"});
    const auto hot = shown.hottest(o.k, o.top);
    for (size_t i = 0; i < hot.size(); ++i)
      csv_row({std::to_string(i + 1), std::to_string(shown.node(hot[i]).count),
               fmt::format("{:.6f}", shown.share_parent(hot[i])), fmt::format("{:.6f}", shown.share_root(hot[i])),
               path_str(shown, hot[i], r.labels), path_syms(shown, hot[i], r)});
    return;
  }
  if (o.json) {
    nlohmann::json& j = r.j;
    j["k"] = o.k;
    j["prune"] = o.prune;
    j["stats"]["ipf_nodes"] = r.full.size();
    j["stats"]["ipf_levels"] = levels;
    j["stats"]["ipf_nodes_shown"] = shown.size();
    if (r.keys) {
      auto& arr = j["paths"] = nlohmann::json::array();
      for (uint32_t i = 0; i < r.full.num_roots(); ++i) {
        const auto& n = r.full.node(i);
        const auto& key = (*r.keys)[n.label];
        nlohmann::json e = {{"id", n.label},
                            {"start", fmt::format("{:x}", key.start)},
                            {"length", key.length},
                            {"dirs", fmt::format("{:x}", key.dirs)},
                            {"count", n.count}};
        if (r.names) r.names->add_json(e, r.names->of(key.start), "start");
        arr.push_back(e);
      }
      if (r.names) j["symbols"] = r.names->summary();
      std::sort(arr.begin(), arr.end(),
                [](const nlohmann::json& a, const nlohmann::json& b) { return a["id"] < b["id"]; });
    }
    auto& arr = j["roots"] = nlohmann::json::array();
    for (uint32_t i = 0; i < roots; ++i) arr.push_back(node_json(shown, i, r.labels));
    fmt::print("{}\n", j.dump(1));
    return;
  }
  for (const auto& l : r.header) fmt::print("{}\n", l);
  if (r.names)
    for (const auto& n : r.names->notes()) fmt::print("  note         {}\n", n);
  std::string lv;
  for (auto v : levels) lv += (lv.empty() ? "" : " ") + std::to_string(v);
  fmt::print("  k-IPF        {} nodes (per level: {}){}\n", r.full.size(), lv.empty() ? "-" : lv,
             o.prune > 0 ? fmt::format("; {} after pruning at {}", shown.size(), pct(o.prune)) : std::string());
  std::set<Label> used;
  const auto hot = shown.hottest(o.k, o.top);
  fmt::print("\nhottest {}-iteration paths ({} BL paths each; share of the parent path and of the root path)\n", o.k,
             o.k);
  if (hot.empty()) fmt::print("  (none: no activation ran {} paths)\n", o.k);
  else fmt::print("{:>6} {:>12} {:>10} {:>10}  path\n", "rank", "count", "of parent", "of root");
  for (size_t i = 0; i < hot.size(); ++i) {
    fmt::print("{:>6} {:>12} {:>10} {:>10}  {}\n", i + 1, shown.node(hot[i]).count, pct(shown.share_parent(hot[i])),
               pct(shown.share_root(hot[i])), path_str(shown, hot[i], r.labels));
    for (Label l : shown.path(hot[i])) used.insert(l);
  }
  fmt::print("\nforest ({} of {} roots{}; a node shows id, count, share of parent (share of root))\n", roots,
             shown.num_roots(), o.prune > 0 ? fmt::format(", pruned at {}", pct(o.prune)) : std::string());
  for (uint32_t i = 0; i < roots; ++i) print_forest(shown, i, r.labels, used);
  if (r.keys && !used.empty()) {
    const bool syms = r.names && r.names->symbols();
    fmt::print("\nids (BL paths; id = rank - 1 in `hwprof paths`)\n{:>6} {:>12} {:>4} {:>10} {:>12}  {}\n", "id",
               "start", "len", "dirs", "count", syms ? "symbol  source" : "");
    for (Label l : used) {
      const auto& key = (*r.keys)[l];
      const auto& n = r.names->of(key.start);
      fmt::print("{:>6} {:>12} {:>4} {:>10x} {:>12}  {}\n", l, n.full_hex(), key.length, key.dirs,
                 r.full.node(r.full.find({l})).count,
                 syms ? n.loc.sym() + (n.loc.file.empty() ? "" : "  " + n.loc.source()) : "");
    }
  }
}

void run_ids(const KpathsOpts& o) {
  const auto items = analyses::read_id_stream_file(o.ids);
  analyses::RawKpaths kp(o.k);
  uint64_t markers = 0;
  for (const auto& it : items) {
    markers += it.marker;
    kp.add(it);
  }
  auto res = kp.result();
  Report r;
  r.full = std::move(res.ipf);
  r.labels.values = &res.values;
  const auto& st = kp.forest().stats();
  r.j["source"] = "ids";
  r.j["ids"] = o.ids;
  r.j["stats"] = {{"items", st.items},
                  {"markers", markers},
                  {"distinct_ids", res.values.size()},
                  {"ksf_nodes", kp.forest().size()},
                  {"ksf_roots", kp.forest().roots().size()},
                  {"ksf_root_lookups", st.root_lookups}};
  r.header = {fmt::format("hwprof k-iteration path profile (k = {}, raw id stream)", o.k),
              fmt::format("  ids          {}", o.ids),
              fmt::format("  stream       {} ids ({} distinct), {} markers", st.items, res.values.size(), markers),
              fmt::format("  k-SF         {} nodes, {} roots, {} root lookups", kp.forest().size(),
                          kp.forest().roots().size(), st.root_lookups)};
  emit(o, r);
}

void run_trace(const KpathsOpts& o, const Global& g) {
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];

  analyses::KpathsProfiler prof(o.k);
  Progress p("kpaths " + o.engine, g.quiet);
  const PathRun run =
      run_path_frontend(o.trace, o.engine, model::Ppcr::kBl, sim::PathConfig{o.queue_depth, o.depth, o.max_len}, sim::SimOptions{},
                        o.seed, branches, p, [&](const model::Emission& e) { prof.add(e); });
  const model::PathStackStats& st = run.stats;
  const uint64_t cycles = run.cycles;
  p.finish();

  auto res = prof.result();
  const auto a = prof.stats();
  const auto& ks = prof.forest().stats();
  Report r;
  r.full = std::move(res.ipf);
  r.keys = &res.keys;
  AddrNames names(o.trace, o.sym);
  r.names = &names;
  r.j["source"] = "trace";
  r.j["trace"] = o.trace;
  r.j["engine"] = o.engine;
  r.j["config"] = {{"ppcr", fmt::format("{:08x}", model::Ppcr::kBl)}, {"depth", o.depth}, {"max_len", o.max_len}};
  r.j["stats"] = {{"records", st.records},
                  {"descriptors", a.descriptors},
                  {"paths", a.paths},
                  {"incomplete", a.incomplete},
                  {"activations", a.activations},
                  {"discarded_cursors", a.discarded},
                  {"max_depth", a.max_depth},
                  {"splits", st.splits},
                  {"overflows", st.overflows},
                  {"distinct_paths", res.keys.size()},
                  {"ksf_nodes", prof.forest().size()},
                  {"ksf_roots", prof.forest().roots().size()},
                  {"ksf_root_lookups", ks.root_lookups}};
  if (cycles) r.j["stats"]["cycles"] = cycles;
  r.header = {
      fmt::format("hwprof k-iteration path profile (k = {}, BL paths, {} engine)", o.k, o.engine),
      fmt::format("  trace        {}", o.trace),
      fmt::format("  setup        PPCR {:08x}, stack depth {}, MaxLen {}", model::Ppcr::kBl, o.depth, o.max_len),
      fmt::format("  stream       {} branch records -> {} completed paths ({} distinct) in {} activations; "
                  "{} incomplete (skipped); {} splits; {} stack overflows{}",
                  st.records, a.paths, res.keys.size(), a.activations, a.incomplete, st.splits, st.overflows,
                  st.overflows ? " (depths shift after an overflow; a larger --depth avoids it)" : ""),
      fmt::format("  k-SF         {} nodes, {} roots, {} root lookups ({:.3f} per path)", prof.forest().size(),
                  prof.forest().roots().size(), ks.root_lookups,
                  a.paths ? double(ks.root_lookups) / double(a.paths) : 0.0)};
  emit(o, r);
}

}  // namespace

void add_kpaths_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<KpathsOpts>();
  auto* c = app.add_subcommand("kpaths", "k-iteration path profile: hottest concatenations of up to k BL paths "
                                         "per routine activation (paper 002)");
  c->add_option("-k", o->k, "longest concatenation profiled, in BL paths")->required()->check(
      CLI::Range(1u, analyses::kMaxK));
  c->add_option("--prune", o->prune, "drop nodes below this fraction of their parent's or root's count "
                                     "(as 002 section 3.1; 0 keeps all)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  c->add_option("--engine", o->engine, "path stack: functional model or Verilated RTL")
      ->check(CLI::IsMember({"model", "rtl"}))
      ->capture_default_str();
  c->add_option("--depth", o->depth, "path stack depth (rtl: 16 or 4)")->check(CLI::Range(1u, 255u))->capture_default_str();
  c->add_option("--max-len", o->max_len, "branches per path before a split (rtl: 32 or 8)")
      ->check(CLI::Range(1u, 32u))
      ->capture_default_str();
  c->add_option("--queue-depth", o->queue_depth, "rtl: branch queue depth (4 with depth 16, 2 with depth 4)")
      ->capture_default_str();
  c->add_option("--top", o->top, "show only the N hottest roots and N hottest k-paths (0 = all)")
      ->capture_default_str();
  c->add_option("--seed", o->seed, "seed for the RTL's random initial state")->capture_default_str();
  c->add_flag("--json", o->json, "JSON: roots (nested nodes: id, count, share_parent, share_root, children), "
                                 "paths (trace: id -> start, length, dirs), stats");
  auto* ids = c->add_option("--ids", o->ids, "read a raw stream instead of a trace: whitespace-separated "
                                             "non-negative integers, '*' = routine entry");
  add_format_option(c, o->format);
  add_symbol_options(c, o->sym);
  c->add_option("--folded", o->folded, "also write the k-IPF as folded stacks (frame;frame;... count lines, "
                                       "flamegraph.pl / speedscope) to FILE");
  auto* tr = c->add_option("TRACE", o->trace, "trace file");
  ids->excludes(tr);
  tr->excludes(ids);
  c->callback([o, &g, c] {
    if (o->format == "json") o->json = true;
    if (o->json) o->format = "json";
    g_quiet = g.quiet;
    if (o->trace.empty() && o->ids.empty()) throw CLI::RequiredError("TRACE or --ids");
    if (!o->ids.empty()) {
      for (const char* opt : {"--engine", "--depth", "--max-len", "--queue-depth", "--seed"})
        if (c->count(opt)) throw CLI::ValidationError(opt, "applies to a trace, not to --ids");
      run_ids(*o);
    } else {
      run_trace(*o, g);
    }
  });
}

}  // namespace hwprof::cli
