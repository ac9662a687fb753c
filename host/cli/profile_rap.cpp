// hwprof profile --unit rap (docs/cli.md, docs/rap_engine.md): replays a
// trace's code profile (or its val records) through the RAP engine's cycle
// model or its RTL with replay_rap, rebuilds the tree from the engine (the
// model's RapTree, or the RTL's dump port) and prints the hot ranges as an
// indented tree, the counters and the throughput; --json writes the nodes
// (docs/formats.md, "RAP profile (JSON)"); --plot writes an SVG of the hot
// ranges over the address space.
#include "profile_rap.h"

#include <fmt/core.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "progress.h"
#include "rap_engine.h"
#include "rap_engine_rtl.h"
#include "rap_replay.h"
#include "rap_tree.h"
#include "trace.h"
#include "trace_source.h"

namespace hwprof::cli {

void add_rap_options(CLI::App* c, RapProfileOpts& o) {
  c->add_option("--eps", o.eps, "rap: split threshold fraction eps in [0, 1) (rounded to Q0.16)")
      ->capture_default_str();
  c->add_option("--nodes", o.nodes, "rap: NodeCap, tree nodes with the root (rtl: at most 512)")
      ->capture_default_str();
  c->add_option("--buffer", o.buffer, "rap: merging event buffer depth 0..8 (0 = off: the raw stream)")
      ->capture_default_str();
  c->add_option("--merge-first", o.merge_first, "rap: n of the first scheduled merge pass (1..2^32-1)")
      ->capture_default_str();
  c->add_option("--source", o.source, "rap: code (basic-block starts weighted by instructions) or val records")
      ->capture_default_str();
  c->add_option("--hot", o.hot, "rap: hot-range fraction in [0, 1)")->capture_default_str();
  c->add_option("--plot", o.plot, "rap: write an SVG plot of the hot ranges over the address space");
  c->add_option("--tcam-slice", o.tcam_slice,
                "rap: TCAM of the engine's cycle count: 0 flip-flop, 1..8 RAM TCAM slice bits (rtl: 4, the build)")
      ->capture_default_str();
}

namespace {

void write_plot(const std::string& path, const model::RapTree& t, uint32_t hot_q16) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("--plot " + path + ": cannot write");
  const double w = 1000, h = 300, x0 = 50, y0 = 20;
  const double span = t.params().range_bits == 32 ? 4294967296.0 : double(1ull << t.params().range_bits);
  f << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n", w + 2 * x0,
                   h + 2 * y0 + 20);
  f << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", x0, y0,
                   w, h);
  const double n = t.n() ? double(t.n()) : 1.0;
  for (const auto& r : t.hot_ranges(hot_q16)) {
    const double a = x0 + w * double(r.prefix) / span;
    const double b = x0 + w * (double(r.last) + 1.0) / span;
    const double bh = h * double(r.carry) / n;
    f << fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"steelblue\" "
        "fill-opacity=\"0.6\"><title>{}-{} d{} {:.2f}%</title></rect>\n",
        a, y0 + h - bh, std::max(b - a, 1.0), bh, t.hex(r.prefix), t.hex(r.last), r.depth, 100.0 * double(r.carry) / n);
  }
  f << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">0</text>\n", x0, y0 + h + 15);
  f << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>\n", x0 + w, y0 + h + 15,
                   t.hex(static_cast<uint32_t>(span - 1)));
  f << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">hot ranges (carry % of n = {}) over the address space</text>\n",
                   x0, y0 + h + 32, t.n());
  f << "</svg>\n";
}

}  // namespace

void run_rap(const RapProfileOpts& o, const Global& g) {
  // Options.
  uint32_t eps_q16 = 0, hot_q16 = 0;
  try {
    eps_q16 = model::RapParams::q16(o.eps);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("--eps {}: must be in [0, 1)", o.eps));
  }
  try {
    hot_q16 = model::RapParams::q16(o.hot);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("--hot {}: must be in [0, 1)", o.hot));
  }
  if (o.buffer > model::kRapBufMaxDepth)
    throw std::runtime_error(fmt::format("--buffer {}: must be 0..{}", o.buffer, model::kRapBufMaxDepth));
  if (o.nodes < 1) throw std::runtime_error("--nodes 0: the engine needs at least the root (1..)");
  if (o.merge_first < 1 || o.merge_first > 0xffffffffu)
    throw std::runtime_error(fmt::format("--merge-first {}: must be 1..4294967295", o.merge_first));
  if (o.source != "code" && o.source != "val")
    throw std::runtime_error(fmt::format("--source {}: must be code or val", o.source));
  model::RapEngineConfig cfg = o.board_cfg ? *o.board_cfg : sim::kRapDefault;
  if (o.tcam_slice > 8 || (o.tcam_slice != 0 && cfg.range_bits % o.tcam_slice != 0))
    throw std::runtime_error(fmt::format("--tcam-slice {}: must be 0 or 1..8 dividing {}", o.tcam_slice,
                                         cfg.range_bits));
  if (o.engine == "rtl" && o.tcam_slice != cfg.tcam_slice)
    throw std::runtime_error(fmt::format("--tcam-slice {}: the RTL build has TcamSlice {} (the model takes any)",
                                         o.tcam_slice, cfg.tcam_slice));
  cfg.tcam_slice = o.tcam_slice;
  if (o.engine != "model" && o.nodes > cfg.cap_max())
    throw std::runtime_error(fmt::format("--nodes {}: the {} build has {} groups, at most {} nodes", o.nodes,
                                         o.engine == "rtl" ? "RTL" : o.engine == "soc" ? "SoC's" : "board's", cfg.groups, cfg.cap_max()));
  if (o.nodes > cfg.cap_max()) cfg.groups = (o.nodes - 1) / 4 + 1;  // model only: pass length does not depend on it

  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t vals = info.kinds[static_cast<int>(trace::Kind::Val)];
  const uint64_t branches = info.records - vals;
  const auto kind = o.source == "val" ? trace::RapSourceKind::Val : trace::RapSourceKind::Code;
  const uint64_t total = kind == trace::RapSourceKind::Val ? vals : (branches ? branches - 1 : 0);
  if (total == 0)
    throw std::runtime_error(o.trace + (kind == trace::RapSourceKind::Val
                                            ? ": the trace holds no val records (--source val)"
                                            : ": the trace holds fewer than two branch records (--source code)"));

  model::RapReplayConfig rc;
  rc.eps_q16 = eps_q16;
  rc.node_cap = o.nodes;
  rc.merge_first = static_cast<uint32_t>(o.merge_first);
  rc.buffer = o.buffer;
  Progress p("replay " + o.engine, g.quiet);
  rc.progress = [&](uint64_t k) { p.update(k, total, "events"); };
  model::RapParams params;
  params.range_bits = cfg.range_bits;
  params.eps_q16 = eps_q16;
  params.node_cap = o.nodes;
  params.merge_first = o.merge_first;

  model::RapReplayResult r;
  std::unique_ptr<model::RapTree> tree;
  if (o.engine == "model") {
    model::RapEngine eng(cfg);
    r = model::replay_rap(eng, trace::rap_source(o.trace, kind), rc);
    tree = std::make_unique<model::RapTree>(eng.tree());
  } else if (o.engine == "board" || o.engine == "soc") {  // the readout of a board or of hwprof soc run
    model::RapEngine eng(cfg);
    const model::RapReplayResult m = model::replay_rap(eng, trace::rap_source(o.trace, kind), rc);
    r = o.board(rc);
    r.cycles = m.cycles;
    r.feed_cycles = m.feed_cycles;
    r.counters.in_stall = m.counters.in_stall;
    std::vector<std::tuple<uint32_t, unsigned, uint64_t>> nodes;
    for (const auto& x : model::rap_dump_nodes(r.beats, cfg.range_bits)) nodes.emplace_back(x.prefix, x.depth, x.count);
    tree = std::make_unique<model::RapTree>(model::RapTree::from_nodes(params, r.counters.n, nodes));
  } else {
    auto eng = sim::make_rap_rtl(cfg, o.sim, "hwprof_profile_rap", o.seed);
    r = model::replay_rap(*eng, trace::rap_source(o.trace, kind), rc);
    std::vector<std::tuple<uint32_t, unsigned, uint64_t>> nodes;
    for (const auto& x : model::rap_dump_nodes(r.beats, cfg.range_bits)) nodes.emplace_back(x.prefix, x.depth, x.count);
    tree = std::make_unique<model::RapTree>(model::RapTree::from_nodes(params, r.counters.n, nodes));
  }
  p.finish();
  const model::RapTree& t = *tree;
  const auto& c = r.counters;
  const double epc = r.feed_cycles ? double(r.events) / double(r.feed_cycles) : 0.0;

  if (!o.plot.empty()) write_plot(o.plot, t, hot_q16);

  // Full addresses and symbols of the hot ranges (the engine's addresses are
  // the trace's folded to RangeW bits).
  AddrNames names(o.trace, o.sym);
  const auto hot_ranges = t.hot_ranges(hot_q16);
  std::vector<AddrNames::Name> hot_names;
  for (const auto& h : hot_ranges) hot_names.push_back(names.range(h.prefix, h.last));
  if (o.format != "text") names.print_notes(g.quiet);
  const double n_d = t.n() ? double(t.n()) : 1.0;
  auto last_full = [&](const AddrNames::Name& nm, const model::RapHotRange& h) {
    return sym::hex(nm.full + (uint64_t{h.last} - h.prefix)) + (nm.candidates > 1 ? "?" : "");
  };
  if (o.format == "csv") {
    csv_row({"level", "prefix", "last", "prefix_full", "last_full", "depth", "carry", "carry_percent", "subtree",
             "subtree_percent", "sym", "file", "line", "sym_last"});
    for (size_t i = 0; i < hot_ranges.size(); ++i) {
      const auto& h = hot_ranges[i];
      const auto& nm = hot_names[i];
      csv_row({std::to_string(h.hot_level), t.hex(h.prefix), t.hex(h.last), nm.full_hex(), last_full(nm, h),
               std::to_string(h.depth), std::to_string(h.carry), fmt::format("{:.4f}", 100.0 * double(h.carry) / n_d),
               std::to_string(h.subtree), fmt::format("{:.4f}", 100.0 * double(h.subtree) / n_d),
               names.symbols() && nm.candidates ? nm.loc.sym() : "", nm.loc.file,
               nm.loc.file.empty() ? "" : std::to_string(nm.loc.line), names.symbols() ? nm.last_fn : ""});
    }
    return;
  }

  if (o.json) {
    nlohmann::json j;
    j["unit"] = "rap";
    j["trace"] = o.trace;
    j["source"] = o.source;
    j["params"] = {{"eps_q16", eps_q16}, {"nodes", o.nodes},     {"buffer", o.buffer},
                   {"merge_first", o.merge_first}, {"hot_q16", hot_q16}, {"range_bits", cfg.range_bits},
                   {"tcam_slice", cfg.tcam_slice}};
    j["n"] = t.n();
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& x : t.nodes()) nodes.push_back({{"prefix", t.hex(x.prefix)}, {"depth", x.depth}, {"count", x.count}});
    j["nodes"] = nodes;
    nlohmann::json hot = nlohmann::json::array();
    for (size_t i = 0; i < hot_ranges.size(); ++i) {
      const auto& h = hot_ranges[i];
      nlohmann::json e = {{"prefix", t.hex(h.prefix)}, {"last", t.hex(h.last)}, {"depth", h.depth},
                          {"carry", h.carry},          {"subtree", h.subtree},  {"level", h.hot_level}};
      names.add_json(e, hot_names[i], "prefix");
      e["last_full"] = sym::hex(hot_names[i].full + (uint64_t{h.last} - h.prefix));
      if (!hot_names[i].candidates) e.erase("sym");
      if (!hot_names[i].last_fn.empty() && names.symbols()) e["sym_last"] = hot_names[i].last_fn;
      hot.push_back(e);
    }
    j["hot"] = hot;
    j["symbols"] = names.summary();
    j["stats"] = {{"events", r.events},         {"pairs", c.pairs},          {"splits", c.splits},
                  {"splits_skipped", c.skipped}, {"scheduled_passes", c.sched}, {"capacity_passes", c.cap},
                  {"merges", c.merges},         {"nodes", c.nodes},          {"peak_nodes", c.peak},
                  {"cycles", r.feed_cycles},    {"stall_flush", c.stall_flush}, {"stall_cap", c.stall_cap},
                  {"stall_sched", c.stall_sched}, {"stall_tcam", c.stall_tcam}, {"in_stall", c.in_stall},
                  {"events_per_clock", epc}};
    if (o.json_out) {
      *o.json_out = std::move(j);
      return;
    }
    fmt::print("{}\n", j.dump(1));
    return;
  }
  fmt::print("rap profile of {} ({} source, engine {})\n", o.trace, o.source, o.engine);
  fmt::print("  params       eps {} (E = {}), NodeCap {}, buffer {}, MergeFirst {}, hot {} ({})\n", o.eps, eps_q16,
             o.nodes, o.buffer, o.merge_first, o.hot, hot_q16);
  fmt::print("  stream       {} events -> {} pairs, n = {}\n", r.events, c.pairs, t.n());
  fmt::print("  tree         {} nodes (peak {}), {} splits, {} skipped, {} scheduled + {} capacity passes, {} merges\n",
             c.nodes, c.peak, c.splits, c.skipped, c.sched, c.cap, c.merges);
  fmt::print("  throughput   {:.4f} events/clock over {} cycles; stalls: {} replay (splits/pass starts), {} capacity-pass, "
             "{} scheduled-pass, {} TCAM-write cycles; {} ingress cycles waited\n",
             epc, r.feed_cycles, c.stall_flush, c.stall_cap, c.stall_sched, c.stall_tcam, c.in_stall);
  for (const auto& nt : names.notes()) fmt::print("  note         {}\n", nt);
  fmt::print("\nhot ranges (carry > {:.2f}% of n; indented under hot ancestors; full addresses{}):\n",
             100.0 * o.hot, names.symbols() ? "; symbols of the lowest and highest addresses of the trace in the range" : "");
  for (size_t i = 0; i < hot_ranges.size(); ++i) {
    const auto& h = hot_ranges[i];
    const auto& nm = hot_names[i];
    const std::string line = fmt::format("{}{}-{} d{} {:.2f}% (total {:.2f}%)", std::string(2 * h.hot_level, ' '),
                                         nm.full_hex(), last_full(nm, h), h.depth, 100.0 * double(h.carry) / n_d,
                                         100.0 * double(h.subtree) / n_d);
    std::string s = names.symbols() && nm.candidates ? nm.loc.sym() : "";
    if (!nm.loc.file.empty()) s += "  " + nm.loc.source();
    if (names.symbols() && !nm.last_fn.empty()) s += " .. " + nm.last_fn;
    fmt::print("{:<48}  {}\n", line, s);
  }
}

}  // namespace hwprof::cli
