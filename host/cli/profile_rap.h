// hwprof profile --unit rap: the RAP engine (docs/rap_engine.md) on a trace's
// code profile or val stream, with the cycle model or the Verilated RTL.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "commands.h"
#include "rap_replay.h"
#include "sim_options.h"
#include "symbols.h"

namespace hwprof::cli {

struct RapProfileOpts {
  double eps = 0.10;            ///< --eps
  uint32_t nodes = 512;         ///< --nodes (NodeCap, root included)
  unsigned buffer = 4;          ///< --buffer (0 = off)
  uint64_t merge_first = 1024;  ///< --merge-first
  unsigned tcam_slice = 4;      ///< --tcam-slice (0: flip-flop TCAM; rtl: the built 4 only)
  std::string source = "code";  ///< --source code|val
  double hot = 0.10;            ///< --hot (hot-range fraction)
  std::string plot;             ///< --plot FILE (SVG)
  // Filled from the common options.
  std::string engine = "model";
  std::string trace;
  bool json = false;
  uint64_t seed = 1;
  sim::SimOptions sim;  ///< rtl: waveform options (--wave)
  // engine "board" (hwprof board run, host/cli/cmd_board.cpp): the engine's
  // build (the board's ID block), and the board's readout (dump beats and
  // counters) for these replay settings. The fields that count clock
  // cycles of a back-to-back feed (cycles, in_stall) come from the cycle
  // model: the board's records arrive at the line's pace.
  std::optional<model::RapEngineConfig> board_cfg;
  std::function<model::RapReplayResult(const model::RapReplayConfig&)> board;
  /// With json: the report goes here instead of stdout (board run --unit all).
  nlohmann::json* json_out = nullptr;
  std::string format = "text";  ///< text, json, csv
  SymOpts sym;
};

/// Registers --eps, --nodes, --buffer, --merge-first, --source, --hot, --plot.
void add_rap_options(CLI::App* c, RapProfileOpts& o);
/// Runs the unit and prints the report (throws std::runtime_error on bad input).
void run_rap(const RapProfileOpts& o, const Global& g);

}  // namespace hwprof::cli
