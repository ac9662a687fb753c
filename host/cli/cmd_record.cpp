// hwprof record: see host/record/ and docs/recorder.md.
#include "commands.h"

namespace hwprof::cli {

void add_record_command(CLI::App& app, Global& g) {
  (void)app;
  (void)g;
}

}  // namespace hwprof::cli
