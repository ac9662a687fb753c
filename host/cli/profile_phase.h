// hwprof profile --unit phase: the phase units (docs/phase.md) on a trace:
// the DCR tracker (docs/dcr.md), the path-based detector or the BBV
// detector (docs/phase_detector.md), with the cycle model or the Verilated
// RTL. Reports each interval's phase id and prediction and the phase-quality
// metrics, with the CoV of CPI within phases when a CPI file from
// `hwprof critpath --cpi-interval N --cpi-out FILE` is given.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "commands.h"
#include "dcr_replay.h"
#include "detector_replay.h"
#include "sim_options.h"
#include "symbols.h"

namespace hwprof::cli {

struct PhaseProfileOpts {
  std::string detector = "dcr";     ///< --detector dcr|path|bbv
  uint32_t interval = 1'000'000;    ///< --interval (IntervalInsns)
  uint32_t threshold = 128;         ///< --threshold (path/bbv: Manhattan distance, of a 1024 total)
  std::string cpi;                  ///< --cpi FILE
  size_t show = 0;                  ///< --show N: intervals listed in the text report (0 = all)
  // Filled from the common options.
  std::string engine = "model";
  std::string trace;
  bool json = false;
  uint64_t seed = 1;
  sim::SimOptions sim;  ///< rtl: waveform options (--wave)
  // engine "board" (hwprof board run, host/cli/cmd_board.cpp): the unit's
  // build (the board's ID block) and a hook that puts the board's readout
  // (records, results, counters) into the cycle model's run; the fields that
  // count clock cycles of a back-to-back feed stay the model's.
  std::optional<model::DcrParams> dcr_params;
  std::optional<model::DetectorParams> bbv_params;
  std::function<void(model::DcrReplayResult&)> board_dcr;
  std::function<void(model::DetectorReplayResult&)> board_detector;
  /// With json: the report goes here instead of stdout (board run --unit all).
  nlohmann::json* json_out = nullptr;
  std::string format = "text";  ///< text, json, csv
  SymOpts sym;
  std::string simpoint;  ///< --simpoint FILE (bbv): SimPoint basic-block-vector file
};

/// Registers --detector, --interval, --threshold, --cpi, --show.
void add_phase_options(CLI::App* c, PhaseProfileOpts& o);
/// Runs the unit and prints the report (throws std::runtime_error on bad input).
void run_phase(const PhaseProfileOpts& o, const Global& g);

}  // namespace hwprof::cli
