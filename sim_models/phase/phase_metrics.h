// Phase-quality metrics shared by every phase unit (docs/phase.md
// "Metrics"; paper 003 section 5.2): number of distinct phases, average
// phase length in intervals, next-phase prediction accuracy, and the
// coefficient of variation of a per-interval metric within phases.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace hwprof::model {

/// One interval's outcome, as every phase unit reports it.
struct PhaseInterval {
  uint16_t phase = 0;      ///< phase id of the interval
  uint16_t predicted = 0;  ///< predicted phase id of the next interval
  bool scored = false;     ///< a prediction for this interval existed
  bool correct = false;    ///< ... and it was right
};

struct PhaseSummary {
  uint64_t intervals = 0;
  uint64_t phases = 0;      ///< distinct phase ids
  uint64_t runs = 0;        ///< maximal runs of equal consecutive phase ids
  double avg_length = 0;    ///< intervals / runs
  uint64_t scored = 0, correct = 0;
  double prediction_accuracy = 0;  ///< correct / scored (0 when nothing was scored)
  /// CoV (stddev / mean) of the per-interval metric within each phase,
  /// averaged over phases weighted by their intervals; and the CoV of the
  /// metric over the whole run, for comparison. Empty without a metric.
  std::optional<double> cov_within, cov_whole;
};

namespace detail {
inline double cov_of(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double sum = 0, sq = 0;
  for (double x : v) sum += x;
  const double mean = sum / double(v.size());
  for (double x : v) sq += (x - mean) * (x - mean);
  const double sd = std::sqrt(sq / double(v.size()));
  return mean != 0 ? sd / mean : 0;
}
}  // namespace detail

/// `metric`, when given, holds one value per interval (the same length as
/// `intervals`; extra values are ignored, missing ones leave the CoV empty).
inline PhaseSummary summarize_phases(const std::vector<PhaseInterval>& intervals,
                                     const std::vector<double>* metric = nullptr) {
  PhaseSummary s;
  s.intervals = intervals.size();
  std::map<uint16_t, std::vector<double>> by_phase;
  for (size_t i = 0; i < intervals.size(); ++i) {
    const PhaseInterval& iv = intervals[i];
    if (i == 0 || intervals[i - 1].phase != iv.phase) ++s.runs;
    s.scored += iv.scored;
    s.correct += iv.correct;
    auto& v = by_phase[iv.phase];
    if (metric && i < metric->size()) v.push_back((*metric)[i]);
  }
  s.phases = by_phase.size();
  s.avg_length = s.runs ? double(s.intervals) / double(s.runs) : 0;
  s.prediction_accuracy = s.scored ? double(s.correct) / double(s.scored) : 0;
  if (metric && metric->size() >= intervals.size() && !intervals.empty()) {
    double acc = 0;
    for (const auto& [id, v] : by_phase) acc += detail::cov_of(v) * double(v.size());
    s.cov_within = acc / double(intervals.size());
    s.cov_whole = detail::cov_of(std::vector<double>(metric->begin(), metric->begin() + intervals.size()));
  }
  return s;
}

}  // namespace hwprof::model
