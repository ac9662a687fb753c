#include "profile_phase.h"

#include <fmt/core.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "dcr_replay.h"
#include "dcr_rtl.h"
#include "detector_replay.h"
#include "detector_rtl.h"
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
  if (o.engine == "model" || o.engine == "board") {
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
  if (o.engine == "model" || o.engine == "board") {
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
  const size_t n = o.show ? std::min(o.show, u.rows.size()) : u.rows.size();
  // Per interval: its phase (* when it differs from the previous interval's),
  // whether the prediction made for it was right, and the prediction for
  // the next interval.
  if (n) fmt::print("\n{:>8} {:>7} {:>6} {:>9}  {}\n", "interval", "phase", "scored", "predicts", "detail");
  for (size_t i = 0; i < n; ++i) {
    const Row& r = u.rows[i];
    fmt::print("{:>8} {:>6}{} {:>6} {:>9}  {}\n", i, r.iv.phase, r.changed ? '*' : ' ',
               r.iv.scored ? (r.iv.correct ? "right" : "wrong") : "-", r.iv.predicted, r.detail);
  }
  if (n < u.rows.size()) fmt::print("  ... {} more intervals (--show 0 lists all)\n", u.rows.size() - n);
}

}  // namespace hwprof::cli
