// hwprof profile --unit rap2d: two-dimensional RAP (docs/rap2d.md) on a
// trace's code x data pairs (val records with a pc), reported as rectangles;
// --plot draws paper 001 Fig. 13 (code on y, data on x, shade by heat).
#pragma once

#include <CLI/CLI.hpp>

#include "commands.h"
#include "profile_rap.h"

namespace hwprof::cli {

/// Options of rap2d beyond the ones it shares with rap (--eps, --nodes,
/// --merge-first, --hot, --plot).
struct Rap2dExtraOpts {
  bool exact = false;  ///< --exact: add the brute-force exact weight of every hot rectangle
};

/// Registers --exact.
void add_rap2d_options(CLI::App* c, Rap2dExtraOpts& o);
/// Runs the unit and prints the report (throws std::runtime_error on bad input).
void run_rap2d(const RapProfileOpts& o, const Rap2dExtraOpts& x, const Global& g);

}  // namespace hwprof::cli
