#include "profile_phase.h"

#include <fmt/core.h>

#include <fstream>
#include <map>
#include <unordered_map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "dcr_replay.h"
#include "dcr_rtl.h"
#include "detector_replay.h"
#include "detector_rtl.h"
#include "interval.h"
#include "phase_metrics.h"
#include "progress.h"
#include "trace.h"
#include "trace_source.h"

namespace hwprof::cli {

namespace {

/// One interval as the report shows it, whatever the unit.
struct Row {
  model::PhaseInterval iv;
  bool changed = false;
  std::string detail;  ///< unit-specific, text report only
  nlohmann::json extra;
};

struct UnitRun {
  std::vector<Row> rows;
  uint64_t records = 0, cycles = 0, feed_cycles = 0;
  nlohmann::json stats;
};

UnitRun run_dcr(const PhaseProfileOpts& o, const Global& g, uint64_t branches) {
  model::DcrReplayConfig cfg;
  cfg.interval = o.interval;
  Progress p("phase dcr " + o.engine, g.quiet);
  cfg.progress = [&](uint64_t n) { p.update(n, branches, "records"); };
  model::DcrReplayResult r;
  if (o.engine == "model" || o.engine == "board" || o.engine == "soc") {
    model::DcrTracker eng(o.dcr_params ? *o.dcr_params : sim::DcrConfig{}.params());
    r = model::replay_dcr(eng, trace::branch_source(o.trace), cfg);
    if (o.board_dcr) o.board_dcr(r);
  } else {
    auto eng = sim::make_dcr_rtl(sim::DcrConfig{}, o.sim, "hwprof_profile_phase_dcr", o.seed);
    r = model::replay_dcr(*eng, trace::branch_source(o.trace), cfg);
  }
  p.finish();
  UnitRun u;
  u.records = r.records;
  u.cycles = r.cycles;
  u.feed_cycles = r.feed_cycles;
  namespace f = model::dcr_flag;
  for (const auto& x : r.results) {
    Row row;
    row.iv = {x.phase, x.predicted, (x.flags & f::kScored) != 0, (x.flags & f::kCorrect) != 0};
    row.changed = (x.flags & f::kChanged) != 0;
    row.detail = fmt::format("depth {:2}{}{}{}{}", unsigned(x.sig_depth), x.flags & f::kNew ? " new" : "",
                             x.flags & f::kRecursion ? " recursion" : "", x.flags & f::kOverflow ? " overflow" : "",
                             x.flags & f::kSkip ? " skip" : "");
    row.extra = {{"sig_depth", x.sig_depth}, {"flags", x.flags}, {"sig_hash", fmt::format("{:08x}", x.sig_hash)}};
    u.rows.push_back(std::move(row));
  }
  const auto& s = r.stats;
  u.stats = {{"records", s.records},       {"intervals", s.intervals},   {"pushes", s.pushes},
             {"pops", s.pops},             {"overflows", s.overflows},   {"recursions", s.recursions},
             {"resyncs", s.resyncs},       {"new_phases", s.new_phases}, {"evictions", s.evictions},
             {"scored", s.scored},         {"correct", s.correct},       {"stall_cycles", s.stall_cycles}};
  return u;
}

UnitRun run_detector(const PhaseProfileOpts& o, const Global& g, uint64_t branches) {
  const model::DetectorMode mode = model::detector_mode(o.detector);
  sim::DetectorConfig hw = sim::detector_default(mode);
  if (o.bbv_params) hw.params = *o.bbv_params;
  if (!hw.params.legal_threshold(o.threshold))
    throw std::runtime_error(fmt::format("--threshold {}: must be 1..{} (signature elements sum to {})", o.threshold,
                                         1u << (hw.params.sig_w + 1), 1u << hw.params.sig_w));
  model::DetectorReplayConfig cfg;
  cfg.interval = o.interval;
  cfg.threshold = o.threshold;
  Progress p("phase " + o.detector + " " + o.engine, g.quiet);
  cfg.progress = [&](uint64_t n) { p.update(n, branches, "records"); };
  model::DetectorReplayResult r;
  if (o.engine == "model" || o.engine == "board" || o.engine == "soc") {
    model::PhaseDetector eng(hw.params, hw.depth, hw.max_len);
    r = model::replay_detector(eng, trace::branch_source(o.trace), cfg, mode);
    if (o.board_detector) o.board_detector(r);
  } else {
    auto eng = sim::make_detector_rtl(hw, o.sim, "hwprof_profile_phase_" + o.detector, o.seed);
    r = model::replay_detector(*eng, trace::branch_source(o.trace), cfg, mode);
  }
  p.finish();
  UnitRun u;
  u.records = r.records;
  u.cycles = r.cycles;
  u.feed_cycles = r.feed_cycles;
  for (const auto& x : r.intervals) {
    Row row;
    row.iv = {x.phase, x.predicted, x.scored, x.correct};
    row.changed = x.changed;
    const bool none = x.distance == hw.params.no_distance();
    row.detail = none ? std::string("distance  -") : fmt::format("distance {:4}{}", x.distance, x.matched ? "" : " new");
    row.extra = {{"matched", x.matched}};
    if (!none) row.extra["distance"] = x.distance;
    u.rows.push_back(std::move(row));
  }
  const auto& c = r.counters;
  u.stats = {{"records", c.records},     {"features", c.features},         {"ignored", c.ignored},
             {"intervals", c.intervals}, {"phases", c.phases},             {"stall_cycles", c.stall_cycles},
             {"busy_cycles", c.busy_cycles}};
  return u;
}

/// CPI per interval from `hwprof critpath --cpi-out`.
std::vector<double> read_cpi(const std::string& path, uint32_t interval) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open the CPI file");
  nlohmann::json j;
  try {
    f >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not JSON: " + e.what());
  }
  if (!j.contains("interval_insns") || !j.contains("cpi") || !j["cpi"].is_array())
    throw std::runtime_error(path + ": expected {\"interval_insns\": N, \"cpi\": [...]} (hwprof critpath --cpi-out)");
  if (j["interval_insns"].get<uint64_t>() != interval)
    throw std::runtime_error(fmt::format("{}: CPI intervals of {} instructions, but --interval is {}", path,
                                         j["interval_insns"].get<uint64_t>(), interval));
  return j["cpi"].get<std::vector<double>>();
}

/// The trace's basic blocks per interval, with the units' boundary rule
/// (model::IntervalCounter on the records' saturated insns): a block is
/// identified by its first instruction (the previous branch record's next),
/// weighted by the instructions up to and including its branch.
struct HostIntervals {
  std::vector<uint64_t> blocks;                           // full start address of block id i + 1
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> bbv;  // per interval: (id, insns), by id
  std::vector<uint32_t> hottest;                          // per interval: block id with the most insns (0: none)
};

HostIntervals host_intervals(const std::string& path, uint32_t interval) {
  HostIntervals h;
  std::unordered_map<uint64_t, uint32_t> id_of;
  std::map<uint32_t, uint64_t> cur;
  model::IntervalCounter ic(interval);
  auto rd = trace::Reader::open(path);
  trace::Record r;
  bool first = true;
  uint64_t block = 0;
  while (rd->next(r)) {
    if (!r.is_branch()) continue;
    if (first) block = r.pc;
    first = false;
    auto [it, fresh] = id_of.emplace(block, uint32_t(h.blocks.size() + 1));
    if (fresh) h.blocks.push_back(block);
    cur[it->second] += r.insns;
    if (ic.step(trace::branch_record(r).insns)) {
      h.bbv.emplace_back(cur.begin(), cur.end());
      uint32_t best = 0;
      uint64_t bw = 0;
      for (const auto& [id, w] : cur)
        if (w > bw) {
          bw = w;
          best = id;
        }
      h.hottest.push_back(best);
      cur.clear();
    }
    block = r.next();
  }
  return h;
}

/// SimPoint's frequency-vector file: one line per interval, "T" then
/// ":id:count" per basic block executed in it (ids from 1; count =
/// instructions executed in the block), as SimPoint's -loadFVFile reads it.
void write_simpoint(const std::string& path, const HostIntervals& h, AddrNames& names) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("--simpoint " + path + ": cannot write");
  for (const auto& iv : h.bbv) {
    f << 'T';
    for (const auto& [id, w] : iv) f << ':' << id << ':' << w << ' ';
    f << '\n';
  }
  f.close();
  std::ofstream b(path + ".blocks", std::ios::binary);
  if (!b) throw std::runtime_error("--simpoint " + path + ".blocks: cannot write");
  b << "# block id, start address, symbol (hwprof profile --unit phase --simpoint)\n";
  for (size_t i = 0; i < h.blocks.size(); ++i)
    b << (i + 1) << ' ' << sym::hex(h.blocks[i]) << ' ' << names.lookup_full(h.blocks[i]).sym() << '\n';
  if (!f || !b) throw std::runtime_error("--simpoint " + path + ": write failed");
}

}  // namespace

void add_phase_options(CLI::App* c, PhaseProfileOpts& o) {
  c->add_option("--detector", o.detector,
                "phase: dcr (call/loop stack), path (path-based) or bbv (basic-block vectors)")
      ->check(CLI::IsMember({"dcr", "path", "bbv"}))
      ->capture_default_str();
  c->add_option("--interval", o.interval, "phase: instructions per interval (IntervalInsns, >= 1)")
      ->check(CLI::Range(1u, 0xffffffffu))
      ->capture_default_str();
  c->add_option("--threshold", o.threshold,
                "phase, path/bbv: Manhattan distance under which a signature matches (signatures sum to 1024; "
                "102 = 10%, 410 = 40%)")
      ->capture_default_str();
  c->add_option("--cpi", o.cpi, "phase: per-interval CPI (hwprof critpath --cpi-interval N --cpi-out FILE) for "
                                "the CoV of CPI within phases");
  c->add_option("--simpoint", o.simpoint,
                "phase: write the intervals' basic-block vectors as a SimPoint frequency-vector file (T:id:count "
                ":id:count ... per interval; FILE.blocks names the ids)");
  c->add_option("--show", o.show, "phase: intervals listed in the text report (0 = all)")->capture_default_str();
}

void run_phase(const PhaseProfileOpts& o, const Global& g) {
  if (o.interval == 0) throw std::runtime_error("--interval 0: an interval must hold at least one instruction");
  trace::Info info;
  {
    Progress p("validate", g.quiet);
    info = trace::scan(o.trace, [&](uint64_t d, uint64_t t) { p.update(d, t, "bytes"); });
  }
  const uint64_t branches = info.records - info.kinds[static_cast<int>(trace::Kind::Val)];
  if (branches == 0) throw std::runtime_error(o.trace + ": the trace holds no branch records");
  std::vector<double> cpi;
  if (!o.cpi.empty()) cpi = read_cpi(o.cpi, o.interval);

  const UnitRun u = o.detector == "dcr" ? run_dcr(o, g, branches) : run_detector(o, g, branches);
  std::vector<model::PhaseInterval> ivs;
  for (const auto& r : u.rows) ivs.push_back(r.iv);
  if (!cpi.empty() && cpi.size() < ivs.size())
    throw std::runtime_error(fmt::format("{}: {} CPI values for {} intervals (same trace and interval?)", o.cpi,
                                         cpi.size(), ivs.size()));
  const model::PhaseSummary s = model::summarize_phases(ivs, cpi.empty() ? nullptr : &cpi);

  // The intervals' code on the host (same boundary rule): the hottest
  // block's function per interval, and the SimPoint file.
  const HostIntervals hi = host_intervals(o.trace, o.interval);
  if (hi.bbv.size() != u.rows.size())
    throw std::logic_error(fmt::format("host intervals {} != unit intervals {}", hi.bbv.size(), u.rows.size()));
  AddrNames names(o.trace, o.sym);
  std::vector<sym::Location> hot_loc;
  for (uint32_t id : hi.hottest) {
    sym::Location l;
    if (id) l = names.lookup_full(hi.blocks[id - 1]);
    hot_loc.push_back(l);
  }
  auto hot_name = [&](size_t i) -> std::string {
    const auto& l = hot_loc[i];
    if (!hi.hottest[i]) return "";
    if (!l.function.empty()) return l.object + "!" + l.function;
    return l.sym();
  };
  if (!o.simpoint.empty()) write_simpoint(o.simpoint, hi, names);
  if (o.format != "text") names.print_notes(g.quiet);
  if (o.format == "csv") {
    csv_row({"interval", "phase", "changed", "scored", "correct", "predicted", "hot_block", "hot_sym", "hot_file",
             "hot_line"});
    for (size_t i = 0; i < u.rows.size(); ++i) {
      const Row& r = u.rows[i];
      const auto& l = hot_loc[i];
      csv_row({std::to_string(i), std::to_string(r.iv.phase), r.changed ? "1" : "0", r.iv.scored ? "1" : "0",
               r.iv.correct ? "1" : "0", std::to_string(r.iv.predicted),
               hi.hottest[i] ? sym::hex(hi.blocks[hi.hottest[i] - 1]) : "", names.symbols() ? hot_name(i) : "",
               l.file, l.file.empty() ? "" : std::to_string(l.line)});
    }
    return;
  }

  if (o.json) {
    nlohmann::json j;
    j["unit"] = "phase";
    j["detector"] = o.detector;
    j["engine"] = o.engine;
    j["trace"] = o.trace;
    j["interval"] = o.interval;
    if (o.detector != "dcr") j["threshold"] = o.threshold;
    j["records"] = u.records;
    j["cycles"] = u.cycles;
    j["feed_cycles"] = u.feed_cycles;
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : u.rows) {
      nlohmann::json e = {{"phase", r.iv.phase},   {"predicted", r.iv.predicted}, {"changed", r.changed},
                          {"scored", r.iv.scored}, {"correct", r.iv.correct}};
      e.update(r.extra);
      const size_t i = a.size();
      if (hi.hottest[i]) {
        e["hot_block_full"] = sym::hex(hi.blocks[hi.hottest[i] - 1]);
        if (names.symbols()) {
          e["hot_sym"] = hot_name(i);
          if (!hot_loc[i].file.empty()) {
            e["hot_file"] = hot_loc[i].file;
            e["hot_line"] = hot_loc[i].line;
          }
        }
      }
      a.push_back(std::move(e));
    }
    j["intervals"] = std::move(a);
    nlohmann::json sum = {{"intervals", s.intervals},
                          {"phases", s.phases},
                          {"runs", s.runs},
                          {"avg_length", s.avg_length},
                          {"scored", s.scored},
                          {"correct", s.correct},
                          {"prediction_accuracy", s.prediction_accuracy}};
    if (s.cov_within) {
      sum["cov_cpi_within"] = *s.cov_within;
      sum["cov_cpi_whole"] = *s.cov_whole;
    }
    j["summary"] = std::move(sum);
    j["stats"] = u.stats;
    j["symbols"] = names.summary();
    if (o.json_out) {
      *o.json_out = std::move(j);
      return;
    }
    fmt::print("{}\n", j.dump(1));
    return;
  }

  fmt::print("phase tracking: {} detector, {} engine, {}\n", o.detector, o.engine, o.trace);
  fmt::print("  interval     {} instructions{}\n", o.interval,
             o.detector == "dcr" ? std::string() : fmt::format(", threshold {} of 1024", o.threshold));
  fmt::print("  records      {} branch records{}\n", u.records,
             u.cycles ? fmt::format(" in {} clock cycles", u.cycles) : std::string());
  fmt::print("  intervals    {} ({} instructions in the trace)\n", s.intervals, info.instructions);
  fmt::print("  phases       {} distinct, {} runs, average phase length {:.2f} intervals\n", s.phases, s.runs,
             s.avg_length);
  fmt::print("  prediction   {:.1f}% ({} of {} scored intervals; 256-entry Markov predictor)\n",
             100.0 * s.prediction_accuracy, s.correct, s.scored);
  if (s.cov_within)
    fmt::print("  CoV of CPI   {:.3f} within phases (weighted by intervals), {:.3f} over the whole run\n",
               *s.cov_within, *s.cov_whole);
  fmt::print("  counters     {}\n", u.stats.dump());
  for (const auto& nt : names.notes()) fmt::print("  note         {}\n", nt);
  const size_t n = o.show ? std::min(o.show, u.rows.size()) : u.rows.size();
  // Per interval: its phase (* when it differs from the previous interval's),
  // whether the prediction made for it was right, and the prediction for
  // the next interval.
  if (n)
    fmt::print("\n{:>8} {:>7} {:>6} {:>9}  {:<24}  {}\n", "interval", "phase", "scored", "predicts", "detail",
               names.symbols() ? "hottest block's function" : "hottest block");
  for (size_t i = 0; i < n; ++i) {
    const Row& r = u.rows[i];
    std::string hot = names.symbols() ? hot_name(i) : (hi.hottest[i] ? sym::hex(hi.blocks[hi.hottest[i] - 1]) : "");
    if (names.symbols() && !hot_loc[i].file.empty()) hot += "  " + hot_loc[i].source();
    fmt::print("{:>8} {:>6}{} {:>6} {:>9}  {:<24}  {}\n", i, r.iv.phase, r.changed ? '*' : ' ',
               r.iv.scored ? (r.iv.correct ? "right" : "wrong") : "-", r.iv.predicted, r.detail, hot);
  }
  if (n < u.rows.size()) fmt::print("  ... {} more intervals (--show 0 lists all)\n", u.rows.size() - n);
}

}  // namespace hwprof::cli
