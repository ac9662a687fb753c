// hwprof profile --unit rap2d (docs/rap2d.md, docs/cli.md): feeds the
// (pc, address) pairs of a trace's val records that carry a pc, as
// bit-interleaved 64-bit keys, to the RAP engine at RangeW = 64 -- its cycle
// model (model::RapEngine64, --engine model) or its Verilated RTL (--engine
// rtl) -- with the merging buffer off, so the engine's tree is the 2-D RAP
// tree (Rap2dTree) of the raw pair stream; reads the tree back as
// rectangles, prints the hot rectangles, and with --json every node as a
// rectangle; --plot draws paper 001 Fig. 13; --exact adds each hot
// rectangle's exact weight (brute force over the distinct pairs,
// independent of the tree).
#include "profile_rap2d.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "progress.h"
#include "rap_engine.h"
#include "rap_engine_rtl.h"
#include "rap_replay.h"
#include "rap_tree2d.h"
#include "symbols.h"
#include "trace.h"
#include "trace_source.h"

namespace hwprof::cli {

void add_rap2d_options(CLI::App* c, Rap2dExtraOpts& o) {
  c->add_flag("--exact", o.exact,
              "rap2d: add each hot rectangle's exact weight (brute force over the trace's pairs) to the report");
}

namespace {

constexpr unsigned kDimBits = 32;  // K: the low 32 bits of the pc and of the address

struct Pairs {
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> exact;  // --exact only
  std::vector<uint64_t> pcs;                                  // distinct full pcs, sorted
};

uint64_t exact_of(const Pairs& p, const model::Rap2dRect& r) {
  uint64_t s = 0;
  for (auto it = p.exact.lower_bound({r.code_lo, 0}); it != p.exact.end() && it->first.first <= r.code_hi; ++it)
    if (r.contains(it->first.first, it->first.second)) s += it->second;
  return s;
}

/// The lowest full pc of the trace whose low K bits lie in [lo, hi], if any.
std::optional<uint64_t> first_pc(const Pairs& p, uint32_t lo, uint32_t hi) {
  std::optional<uint64_t> best;
  for (const uint64_t pc : p.pcs) {
    const uint32_t f = static_cast<uint32_t>(pc);
    if (f >= lo && f <= hi && (!best || static_cast<uint32_t>(*best) > f)) best = pc;
  }
  return best;
}

/// An ordinal axis: every distinct rectangle edge is a tick, and the
/// intervals between consecutive ticks get equal length, so a small hot
/// rectangle next to a large one stays visible (the labels give the addresses).
struct Axis {
  std::vector<uint64_t> ticks;  // sorted edges (first value, or last + 1)
  double pos(uint64_t v, double len) const {
    const auto it = std::lower_bound(ticks.begin(), ticks.end(), v);
    const double i = static_cast<double>(it - ticks.begin());
    return ticks.size() < 2 ? 0.0 : len * i / static_cast<double>(ticks.size() - 1);
  }
};

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

void write_plot(const std::string& path, const model::Rap2dTree& t, const std::vector<model::Rap2dHot>& hot,
                const std::vector<std::string>& code_syms, const std::string& title) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("--plot " + path + ": cannot write");
  Axis xa, ya;
  std::set<uint64_t> xs, ys;
  for (const auto& h : hot) {
    xs.insert(h.rect.data_lo);
    xs.insert(uint64_t{h.rect.data_hi} + 1);
    ys.insert(h.rect.code_lo);
    ys.insert(uint64_t{h.rect.code_hi} + 1);
  }
  xa.ticks.assign(xs.begin(), xs.end());
  ya.ticks.assign(ys.begin(), ys.end());
  const double W = 900, H = 600, x0 = 260, y0 = 40, mb = 130;
  f << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\">\n",
                   x0 + W + 40, y0 + H + mb);
  f << fmt::format("<text x=\"{}\" y=\"24\" font-size=\"14\">{}</text>\n", x0, esc(title));
  f << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\" stroke=\"black\"/>\n", x0, y0, W,
                   H);
  const double n = t.n() ? static_cast<double>(t.n()) : 1.0;
  uint64_t maxc = 1;
  for (const auto& h : hot) maxc = std::max(maxc, h.carry);
  // Opaque shades from light (cold) to dark blue (the hottest carry), so a
  // nested hot rectangle shows its own heat, not the sum of the layers.
  auto shade = [](double heat) {
    auto mix = [heat](int lo, int hi) { return static_cast<int>(lo + (hi - lo) * (0.12 + 0.88 * heat) + 0.5); };
    return fmt::format("#{:02x}{:02x}{:02x}", mix(0xf7, 0x08), mix(0xfb, 0x30), mix(0xff, 0x6b));
  };
  // Outer rectangles first (pre-order lists ancestors first), so nested hot
  // rectangles are drawn on top of the ones that exclude them.
  for (const auto& h : hot) {
    const double xa0 = x0 + xa.pos(h.rect.data_lo, W), xa1 = x0 + xa.pos(uint64_t{h.rect.data_hi} + 1, W);
    const double yb = y0 + H - ya.pos(h.rect.code_lo, H), yt = y0 + H - ya.pos(uint64_t{h.rect.code_hi} + 1, H);
    const double heat = static_cast<double>(h.carry) / static_cast<double>(maxc);
    const double pct = 100.0 * static_cast<double>(h.carry) / n;
    f << fmt::format(
        "<rect class=\"hot\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
        "stroke=\"black\" stroke-width=\"0.8\"><title>code {}-{} x data {}-{} d{}: {:.2f}% (total {:.2f}%)</title></rect>\n",
        xa0, yt, std::max(xa1 - xa0, 1.0), std::max(yb - yt, 1.0), shade(heat), t.hex(h.rect.code_lo),
        t.hex(h.rect.code_hi), t.hex(h.rect.data_lo), t.hex(h.rect.data_hi), h.rect.depth, pct,
        100.0 * static_cast<double>(h.subtree) / n);
    f << fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\" fill=\"{}\">{:.1f}%</text>\n", xa0 + 3,
                     yt + 12, heat > 0.5 ? "white" : "black", pct);
  }
  // Axes: ticks in hex; the code axis adds the function of the lowest pc of
  // the trace in each interval when a load map names it.
  for (size_t i = 0; i < ya.ticks.size(); ++i) {
    const double y = y0 + H - ya.pos(ya.ticks[i], H);
    std::string lab = fmt::format("{:08x}", ya.ticks[i] & 0xffffffffu);
    if (i + 1 < ya.ticks.size() && !code_syms[i].empty()) lab += " " + code_syms[i];
    f << fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"gray\"/>\n", x0 - 5, y, x0, y);
    f << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"10\" text-anchor=\"end\">{}</text>\n", x0 - 7, y + 3,
                     esc(lab.size() > 44 ? lab.substr(0, 43) + "~" : lab));
  }
  for (size_t i = 0; i < xa.ticks.size(); ++i) {
    const double x = x0 + xa.pos(xa.ticks[i], W);
    f << fmt::format("<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"gray\"/>\n", x, y0 + H, x,
                     y0 + H + 5);
    f << fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" transform=\"rotate(60 {:.1f} {})\">{:08x}</text>\n", x,
        y0 + H + 10, x, y0 + H + 10, xa.ticks[i] & 0xffffffffu);
  }
  f << fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">data address (x), code address (y); edges of the hot "
                   "rectangles, equally spaced; darker = hotter (carry % of n = {})</text>\n",
                   x0, y0 + H + mb - 8, t.n());
  f << "</svg>\n";
}

}  // namespace

void run_rap2d(const RapProfileOpts& o, const Rap2dExtraOpts& x, const Global& g) {
  uint32_t eps_q16 = 0, hot_q16 = 0;
  try {
    eps_q16 = model::RapParams::q16(o.eps);
  } catch (const std::exception&) {
    throw std::runtime_error(fmt::format("--eps {}: must be in [0, 1)", o.eps));
  }
  try {
    hot_q16 = model::RapParams::q16(o.hot);
  } catch (const std::exception&) {
    throw std::runtime_error(fmt::format("--hot {}: must be in [0, 1)", o.hot));
  }
  if (o.nodes < 1) throw std::runtime_error("--nodes 0: the tree needs at least the root (1..)");
  if (o.merge_first < 1 || o.merge_first > 0xffffffffu)
    throw std::runtime_error(fmt::format("--merge-first {}: must be 1..4294967295", o.merge_first));
  if (o.format == "csv") throw std::runtime_error("--format csv: not available for rap2d (use --json)");
  if (o.engine != "model" && o.engine != "rtl")
    throw std::runtime_error("--engine " + o.engine + ": rap2d runs on the engine's model or its RTL (model, rtl)");
  // The engine at RangeW = 2K = 64 (the CLI's build, sim::kRap2dDefault).
  model::RapEngineConfig cfg = sim::kRap2dDefault;
  if (o.engine == "rtl" && o.nodes > cfg.cap_max())
    throw std::runtime_error(fmt::format("--nodes {}: the RTL build has {} groups, at most {} nodes", o.nodes,
                                         cfg.groups, cfg.cap_max()));
  if (o.nodes > cfg.cap_max()) cfg.groups = (o.nodes - 1) / 4 + 1;  // model only: pass length does not depend on it

  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  if (info.val_pcs == 0)
    throw std::runtime_error(o.trace + ": the trace holds no val records with a pc (val VALUE WEIGHT PC; "
                                       "scripts/record_val_trace.sh --pc)");

  model::Rap2dParams p;
  p.dim_bits = kDimBits;
  p.eps_q16 = eps_q16;
  p.node_cap = o.nodes;
  p.merge_first = o.merge_first;
  // The pcs (symbols) and, with --exact, the exact weight of every pair
  // (the engine's 16-bit saturated event weights, as the tree counts them).
  Pairs pairs;
  std::set<uint64_t> pcs;
  trace::for_each(o.trace, [&](const trace::Record& r) {
    if (r.kind != trace::Kind::Val || !r.has_pc) return;
    pcs.insert(r.pc);
    if (x.exact)
      pairs.exact[{static_cast<uint32_t>(r.pc), static_cast<uint32_t>(r.value)}] += std::min<uint32_t>(r.weight, 0xffffu);
  });

  // The engine: buffer off (the 2-D tree is defined on the raw pairs).
  model::RapReplayConfig rc;
  rc.eps_q16 = eps_q16;
  rc.node_cap = o.nodes;
  rc.merge_first = static_cast<uint32_t>(o.merge_first);
  rc.buffer = 0;
  Progress pr("rap2d " + o.engine, g.quiet);
  rc.progress = [&](uint64_t k) { pr.update(k, info.val_pcs, "pairs"); };
  const auto src = trace::rap_source(o.trace, trace::RapSourceKind::Pair);
  model::RapReplayResult r;
  std::vector<std::tuple<uint64_t, unsigned, uint64_t>> nodes;
  if (o.engine == "model") {
    model::RapEngine64 eng(cfg);
    r = model::replay_rap(eng, src, rc);
    for (const auto& nd : model::rap_tree_nodes(eng.tree())) nodes.emplace_back(nd.prefix, nd.depth, nd.count);
  } else {
    auto eng = sim::make_rap64_rtl(cfg, o.sim, "hwprof_profile_rap2d", o.seed);
    r = model::replay_rap(*eng, src, rc);
    for (const auto& nd : model::rap_dump_nodes(r.beats, cfg.range_bits))
      nodes.emplace_back(nd.prefix, nd.depth, nd.count);
  }
  pr.finish();
  const model::Rap2dTree t = model::Rap2dTree::from_nodes(p, r.counters.n, nodes);
  pairs.pcs.assign(pcs.begin(), pcs.end());
  const auto hot = t.hot_rects(hot_q16);
  const auto& c = r.counters;
  const double epc = r.feed_cycles ? double(r.events) / double(r.feed_cycles) : 0.0;
  const double n_d = t.n() ? static_cast<double>(t.n()) : 1.0;

  // Symbols of the code ranges: the function of the lowest pc of the trace
  // in the range, when a load map places it (--map, default TRACE.map).
  AddrNames names(o.trace, o.sym);
  auto code_sym = [&](uint32_t lo, uint32_t hi) -> std::string {
    if (!names.symbols()) return "";
    const auto pc = first_pc(pairs, lo, hi);
    if (!pc) return "";
    const sym::Location l = names.lookup_full(*pc);
    return l.object.empty() ? "" : l.sym();  // "obj!fn+off", or "obj+0xELF" in a stripped object
  };
  std::vector<std::string> hot_syms;
  for (const auto& h : hot) hot_syms.push_back(code_sym(h.rect.code_lo, h.rect.code_hi));

  if (!o.plot.empty()) {
    std::set<uint64_t> ys;
    for (const auto& h : hot) {
      ys.insert(h.rect.code_lo);
      ys.insert(uint64_t{h.rect.code_hi} + 1);
    }
    const std::vector<uint64_t> yt(ys.begin(), ys.end());
    std::vector<std::string> syms;
    for (size_t i = 0; i + 1 < yt.size(); ++i)
      syms.push_back(code_sym(static_cast<uint32_t>(yt[i]), static_cast<uint32_t>(yt[i + 1] - 1)));
    syms.emplace_back();
    write_plot(o.plot, t, hot, syms,
               fmt::format("2-D RAP: hot code x data rectangles of {} (eps {}, NodeCap {}, hot > {:.0f}%)", o.trace,
                           o.eps, o.nodes, 100.0 * o.hot));
  }

  if (o.json) {
    nlohmann::json j;
    j["unit"] = "rap2d";
    j["trace"] = o.trace;
    j["params"] = {{"eps_q16", eps_q16}, {"nodes", o.nodes},          {"merge_first", o.merge_first},
                   {"hot_q16", hot_q16}, {"dim_bits", kDimBits},      {"range_bits", cfg.range_bits},
                   {"tcam_slice", cfg.tcam_slice}};
    j["n"] = t.n();
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& r : t.rects())
      nodes.push_back({{"code_lo", t.hex(r.code_lo)}, {"code_hi", t.hex(r.code_hi)}, {"data_lo", t.hex(r.data_lo)},
                       {"data_hi", t.hex(r.data_hi)}, {"depth", r.depth}, {"count", r.count}});
    j["nodes"] = nodes;
    nlohmann::json hj = nlohmann::json::array();
    for (size_t i = 0; i < hot.size(); ++i) {
      const auto& h = hot[i];
      nlohmann::json e = {{"code_lo", t.hex(h.rect.code_lo)}, {"code_hi", t.hex(h.rect.code_hi)},
                          {"data_lo", t.hex(h.rect.data_lo)}, {"data_hi", t.hex(h.rect.data_hi)},
                          {"depth", h.rect.depth},             {"carry", h.carry},
                          {"subtree", h.subtree},              {"ancestors", h.rect.ancestors},
                          {"level", h.hot_level}};
      if (!hot_syms[i].empty()) e["code_sym"] = hot_syms[i];
      if (x.exact) e["exact"] = exact_of(pairs, h.rect);
      hj.push_back(e);
    }
    j["hot"] = hj;
    j["stats"] = {{"pairs", r.events},             {"splits", c.splits},
                  {"splits_skipped", c.skipped},      {"scheduled_passes", c.sched},
                  {"capacity_passes", c.cap},         {"merges", c.merges},
                  {"nodes", c.nodes},                 {"peak_nodes", c.peak},
                  {"cycles", r.feed_cycles},          {"stall_flush", c.stall_flush},
                  {"stall_cap", c.stall_cap},         {"stall_sched", c.stall_sched},
                  {"stall_tcam", c.stall_tcam},       {"in_stall", c.in_stall},
                  {"events_per_clock", epc}};
    fmt::print("{}\n", j.dump(1));
    return;
  }
  fmt::print("rap2d profile of {} (code x data pairs, engine {})\n", o.trace, o.engine);
  fmt::print("  params       eps {} (E = {}), NodeCap {}, MergeFirst {}, hot {} ({}), K = {} bits per address\n", o.eps,
             eps_q16, o.nodes, o.merge_first, o.hot, hot_q16, kDimBits);
  fmt::print("  stream       {} pairs, n = {}\n", r.events, t.n());
  fmt::print("  tree         {} rectangles (peak {}), {} splits, {} skipped, {} scheduled + {} capacity passes, {} "
             "merges\n",
             c.nodes, c.peak, c.splits, c.skipped, c.sched, c.cap, c.merges);
  fmt::print("  throughput   {:.4f} pairs/clock over {} cycles (RangeW {}, {} groups, TcamSlice {}); stalls: {} "
             "replay, {} capacity-pass, {} scheduled-pass, {} TCAM-write cycles; {} ingress cycles waited\n",
             epc, r.feed_cycles, cfg.range_bits, cfg.groups, cfg.tcam_slice, c.stall_flush, c.stall_cap,
             c.stall_sched, c.stall_tcam, c.in_stall);
  fmt::print("\nhot rectangles (carry > {:.2f}% of n; indented under hot ancestors):\n", 100.0 * o.hot);
  for (size_t i = 0; i < hot.size(); ++i) {
    const auto& h = hot[i];
    std::string line = fmt::format("{}code {}-{} data {}-{} d{} {:.2f}% (total {:.2f}%)",
                                   std::string(2 * h.hot_level, ' '), t.hex(h.rect.code_lo), t.hex(h.rect.code_hi),
                                   t.hex(h.rect.data_lo), t.hex(h.rect.data_hi), h.rect.depth,
                                   100.0 * static_cast<double>(h.carry) / n_d,
                                   100.0 * static_cast<double>(h.subtree) / n_d);
    if (x.exact) {
      const uint64_t e = exact_of(pairs, h.rect);
      line += fmt::format(" exact {:.2f}% (bound {:.2f}..{:.2f}%)", 100.0 * static_cast<double>(e) / n_d,
                          100.0 * static_cast<double>(h.subtree) / n_d,
                          100.0 * static_cast<double>(h.subtree + h.rect.ancestors) / n_d);
    }
    fmt::print("{}{}\n", line, hot_syms[i].empty() ? "" : "  " + hot_syms[i]);
  }
}

}  // namespace hwprof::cli
