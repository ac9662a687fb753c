// Phase-quality metrics (sim_models/phase/phase_metrics.h) by hand.
#include <boost/test/unit_test.hpp>

#include "phase_metrics.h"

using hwprof::model::PhaseInterval;
using hwprof::model::summarize_phases;

BOOST_AUTO_TEST_SUITE(phase_metrics)

BOOST_AUTO_TEST_CASE(counts_runs_phases_and_accuracy) {
  // Phases 0 0 1 1 1 0 2: 3 phases, 4 runs, avg length 7/4; 6 scored, 4 right.
  const std::vector<PhaseInterval> iv = {{0, 0, false, false}, {0, 1, true, true},  {1, 1, true, false},
                                         {1, 1, true, true},   {1, 0, true, true},  {0, 0, true, true},
                                         {2, 2, true, false}};
  const auto s = summarize_phases(iv);
  BOOST_TEST(s.intervals == 7u);
  BOOST_TEST(s.phases == 3u);
  BOOST_TEST(s.runs == 4u);
  BOOST_TEST(s.avg_length == 1.75);
  BOOST_TEST(s.scored == 6u);
  BOOST_TEST(s.correct == 4u);
  BOOST_TEST(s.prediction_accuracy == 4.0 / 6.0);
  BOOST_TEST(!s.cov_within.has_value());
}

BOOST_AUTO_TEST_CASE(cov_within_phases_is_weighted_by_intervals) {
  // Phase 0: CPI 1, 3 (mean 2, sd 1, CoV 0.5); phase 1: CPI 4, 4 (CoV 0).
  // Within = (0.5 * 2 + 0 * 2) / 4 = 0.25. Whole: 1 3 4 4, mean 3,
  // variance (4 + 0 + 1 + 1) / 4 = 1.5.
  const std::vector<PhaseInterval> iv = {{0}, {0}, {1}, {1}};
  const std::vector<double> cpi = {1, 3, 4, 4};
  const auto s = summarize_phases(iv, &cpi);
  BOOST_REQUIRE(s.cov_within.has_value());
  BOOST_TEST(*s.cov_within == 0.25, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*s.cov_whole == std::sqrt(1.5) / 3.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(empty_run) {
  const auto s = summarize_phases({});
  BOOST_TEST(s.phases == 0u);
  BOOST_TEST(s.avg_length == 0.0);
  BOOST_TEST(s.prediction_accuracy == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
