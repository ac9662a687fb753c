// The options of `hwprof profile` and its path-profiler report, shared with
// `hwprof board run --unit path` (host/cli/cmd_board.cpp), which gets the
// profiler's readout from a board instead of an engine.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "commands.h"
#include "profile_phase.h"
#include "profile_rap.h"
#include "profile_rap2d.h"
#include "profiler_run.h"
#include "progress.h"
#include "symbols.h"

namespace hwprof::cli {

struct ProfileOpts {
  std::string unit = "queue";
  std::string engine = "model";
  std::string trace;
  unsigned depth = 4;
  unsigned width = 4;
  std::vector<unsigned> latency = {1, 5, 2, 3, 5};
  bool json = false;
  uint64_t seed = 1;
  std::string wave;  ///< --wave FILE (rtl)
  // --unit path
  std::string mode = "bl";
  unsigned max_ext = 1;
  unsigned stack_depth = 16;
  unsigned max_len = 32;
  unsigned sets = 128;
  unsigned ways = 4;
  std::string policy = "erode";
  std::string index = "plb";
  unsigned skew = 1;
  std::string metric = "freq";
  size_t top = 20;
  bool top_given = false;
  // symbols and output format (symbols.h)
  SymOpts sym;
  std::string format = "text";  ///< text, json or csv (--json = json)
  // --unit phase (profile_phase.h)
  PhaseProfileOpts phase;
  // --unit rap (profile_rap.h)
  RapProfileOpts rap;
  Rap2dExtraOpts rap2d;  // --unit rap2d (docs/rap2d.md)
  /// --unit path with --json: the report goes here instead of stdout
  /// (hwprof board run --unit all).
  nlohmann::json* json_out = nullptr;
};

/// Where run_path() gets the profiler's readout when set (the board); else
/// run_path_profiler() with o.engine. `branches` scales the progress report.
using PathEngine = std::function<ProfilerRun(const ProfilerOptions& cfg, uint64_t branches, Progress& progress)>;

/// `hwprof profile --unit path`: runs the path profiler and prints its report.
void run_path(const ProfileOpts& o, const Global& g, const PathEngine& engine = {});

}  // namespace hwprof::cli
