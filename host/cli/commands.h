// hwprof subcommands. Each add_* registers a subcommand on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace hwprof::cli {

/// Thrown by a subcommand that has already reported its problem and wants
/// the process to exit with `code`.
struct Exit {
  int code;
};

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

}  // namespace hwprof::cli
