// libFuzzer harness: ChampSim import (docs/champsim.md) on arbitrary bytes
// (raw 64-byte instructions or an xz stream). Properties: the import either
// succeeds or throws TraceError (any other exception or a crash is a
// finding); a failed import leaves no output file; a successful one writes a
// trace that passes scan().
#include <cstdio>
#include <cstdlib>

#include <sys/stat.h>

#include "champsim.h"
#include "fuzz_input.h"
#include "trace.h"

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_champsim: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in = hwprof::fuzz::write_input("champsim", data, size);
  const std::string out = hwprof::fuzz::scratch_path("champsim-out.hwpt");
  std::remove(out.c_str());
  try {
    hwprof::trace::import_champsim(in, out);
  } catch (const hwprof::trace::TraceError&) {
    if (exists(out)) finding("a failed import left its output file");
    return 0;
  }
  try {
    hwprof::trace::scan(out);
  } catch (const hwprof::trace::TraceError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("the imported trace does not pass scan()");
  }
  std::remove(out.c_str());
  return 0;
}
