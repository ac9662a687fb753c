// The scoreboard for tests that drive a Verilated top themselves (the RAP
// stage tests, tb/rap/rap_stage*_test.cpp, and the primitive tests,
// tb/prim/): built right after the test's harness (it binds to the harness
// built just before it, as Lockstep's scoreboard does), called once per
// cycle with that cycle's compares (tb::Field: name, model value, RTL value,
// care). A mismatch fails the test with the scoreboard's report (cycle,
// seed, inputs, every differing field, the last matched cycles) and leaves
// the failure waveform with rtl.* / model.* / mismatch.* / cmp.* at that
// cycle and the unit's layout (tb/common/fail_wave.h, docs/debugging.md).
//
//   tb::CycleCheck chk("fifo_sync", seed);  // right after Harness h(...)
//   ...
//   ASSERT_TRUE(chk(h.cycle(), inputs, {{"in_ready", exp.in_ready, t.in_ready_o},
//                                       {"out_data", exp.data, t.out_data_o, exp.out_valid}}));
//
// ASSERT_TRUE stops the loop at the first mismatch (the report is already
// added as a failure); EXPECT_TRUE keeps stepping, but a failed scoreboard
// compares no more (one report per harness). Field names must outlive the
// check (string literals, or a FieldNames table for per-entry fields).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scoreboard.h"

namespace hwprof::tb {

class CycleCheck {
 public:
  CycleCheck(std::string unit, uint64_t seed, size_t history = 12) : sb_(std::move(unit), seed, history) {}
  /// Compares one cycle; false at (and after) the first mismatch, which is
  /// reported once as a test failure.
  bool operator()(uint64_t cycle, const std::string& inputs, const std::vector<Field>& fields) {
    if (sb_.check(cycle, inputs, fields)) return true;
    if (!reported_) {
      reported_ = true;
      ADD_FAILURE() << sb_.report();
    }
    return false;
  }
  const Scoreboard& scoreboard() const { return sb_; }
  bool failed() const { return sb_.failed(); }

 private:
  Scoreboard sb_;
  bool reported_ = false;
};

/// Stable names "<base>_<i>" of per-entry fields ("match_3").
class FieldNames {
 public:
  FieldNames(const std::string& base, unsigned n) {
    names_.reserve(n);
    for (unsigned i = 0; i < n; ++i) names_.push_back(base + "_" + std::to_string(i));
  }
  const char* operator[](unsigned i) const { return names_[i].c_str(); }

 private:
  std::vector<std::string> names_;
};

}  // namespace hwprof::tb
