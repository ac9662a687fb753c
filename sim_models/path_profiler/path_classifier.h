// Cycle model of rtl/path_profiler/hwprof_path_classifier.sv: one register stage
// that classifies a branch record and decodes its PPCR operations
// (PathRecord::classify, the functional model, does the work).
//   in_ready = !valid | out_ready (combinational from the path stack);
//   a record taken at edge t is on the output from edge t until taken.
#pragma once

#include "path_stack_algo.h"

namespace hwprof::model {

class PathClassifier {
 public:
  /// Mirrors the ports without suffixes.
  struct In {
    uint32_t ppcr = Ppcr::kBl;
    bool in_valid = false;
    BranchRecord in_data{};
    bool out_ready = false;
  };
  struct Out {
    bool in_ready = false;
    bool out_valid = false;
    PathRecord out_data{};  ///< meaningful only when out_valid
  };

  void reset() { valid_ = false; }
  bool out_valid() const { return valid_; }
  /// in_ready as a function of the downstream ready (combinational path).
  bool in_ready(bool out_ready) const { return !valid_ || out_ready; }

  Out step(const In& in) {
    Out o{in_ready(in.out_ready), valid_, data_};
    if (in.in_valid && o.in_ready) {
      data_ = PathRecord::classify(in.in_data, Ppcr{in.ppcr});
      valid_ = true;
    } else if (in.out_ready) {
      valid_ = false;
    }
    return o;
  }

 private:
  bool valid_ = false;
  PathRecord data_{};
};

}  // namespace hwprof::model
