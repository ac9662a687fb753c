// libFuzzer harness: the recorder's load map reader (LoadMap::read,
// docs/recorder.md) on arbitrary bytes. Property: a malformed map is a
// std::runtime_error naming the file (any other exception or a crash is a
// finding); a map it accepts is written back and read again unchanged in
// its object list.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "fuzz_input.h"
#include "loadmap.h"

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_loadmap: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using hwprof::record::LoadMap;
  const std::string path = hwprof::fuzz::write_input("loadmap.json", data, size);
  LoadMap m;
  try {
    m = LoadMap::read(path);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find(path) == std::string::npos) finding("the error does not name the file");
    return 0;
  }
  const std::string again = hwprof::fuzz::scratch_path("loadmap-rt.json");
  m.write(again);
  LoadMap back;
  try {
    back = LoadMap::read(again);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("the reader rejects what the writer wrote");
  }
  std::remove(again.c_str());
  if (back.objects.size() != m.objects.size() || back.isa != m.isa || back.argv != m.argv)
    finding("round trip through write() changed the map");
  for (size_t i = 0; i < m.objects.size(); ++i)
    if (back.objects[i].path != m.objects[i].path || back.objects[i].bias != m.objects[i].bias)
      finding("round trip through write() changed an object");
  return 0;
}
