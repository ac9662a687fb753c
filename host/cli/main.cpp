// hwprof: host tool for the hwprof profiling cores (docs/cli.md).
#include <cstdio>
#include <stdexcept>

#include "commands.h"
#include "trace.h"

int main(int argc, char** argv) {
  CLI::App app{"hwprof: record program traces and replay them through the profiling cores (models or RTL)"};
  app.require_subcommand(1);
  hwprof::cli::Global g;
  app.add_flag("-q,--quiet", g.quiet, "no progress reports on stderr");
  hwprof::cli::add_trace_commands(app, g);
  hwprof::cli::add_record_command(app, g);
  hwprof::cli::add_profile_command(app, g);
  hwprof::cli::add_paths_command(app, g);
  hwprof::cli::add_kpaths_command(app, g);
  hwprof::cli::add_fabricate_command(app, g);
  hwprof::cli::add_overlap_command(app, g);
  hwprof::cli::add_critpath_command(app, g);
  hwprof::cli::add_board_command(app, g);
  hwprof::cli::add_report_command(app, g);
  hwprof::cli::add_soc_command(app, g);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const hwprof::cli::Exit& e) {
    return e.code;
  } catch (const hwprof::trace::TraceError& e) {
    std::fprintf(stderr, "hwprof: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hwprof: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
