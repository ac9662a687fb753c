// hwprof subcommands. Each add_* registers a subcommand on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "sim_options.h"

namespace hwprof::cli {

/// Thrown by a subcommand that has already reported its problem and wants
/// the process to exit with `code`.
struct Exit {
  int code;
};

/// The Verilated engines' options from --wave FILE (empty: no waveform).
inline sim::SimOptions sim_options(const std::string& wave_file) {
  sim::SimOptions s;
  s.wave = !wave_file.empty();
  s.wave_file = wave_file;
  return s;
}

struct Global {
  bool quiet = false;
};

void add_trace_commands(CLI::App& app, Global& g);
void add_record_command(CLI::App& app, Global& g);
void add_profile_command(CLI::App& app, Global& g);
void add_paths_command(CLI::App& app, Global& g);
void add_kpaths_command(CLI::App& app, Global& g);
void add_fabricate_command(CLI::App& app, Global& g);
void add_overlap_command(CLI::App& app, Global& g);
void add_critpath_command(CLI::App& app, Global& g);
void add_board_command(CLI::App& app, Global& g);
void add_report_command(CLI::App& app, Global& g);
void add_soc_command(CLI::App& app, Global& g);

}  // namespace hwprof::cli
