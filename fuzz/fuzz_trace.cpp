// libFuzzer harness: trace::Reader on arbitrary bytes (text v1, HWPT binary,
// either inside zstd: the format is detected from the content).
// Properties: the reader either returns records or throws TraceError (any
// other exception or a crash is a finding); every record it returns passes
// check_record(); a trace it accepts survives a round trip through the
// writer in both formats unchanged.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_input.h"
#include "trace.h"

namespace {

using hwprof::trace::Format;
using hwprof::trace::Reader;
using hwprof::trace::Record;
using hwprof::trace::TraceError;

// Inputs are at most a few kB (-max_len), so this only bounds a reader that
// would loop forever.
constexpr size_t kMaxRecords = 1u << 20;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_trace: %s\n", what);
  std::abort();
}

std::vector<Record> read_all(const std::string& path) {
  std::vector<Record> out;
  auto reader = Reader::open(path);
  Record r;
  while (reader->next(r)) {
    if (!hwprof::trace::check_record(r).empty()) finding("the reader returned an invalid record");
    out.push_back(r);
    if (out.size() > kMaxRecords) finding("more records than the input can hold");
  }
  return out;
}

void round_trip(const std::vector<Record>& recs, const std::string& isa, Format fmt, bool compress) {
  const std::string path = hwprof::fuzz::scratch_path(fmt == Format::Text ? "rt.trace" : "rt.hwpt");
  {
    hwprof::trace::Writer w(path, fmt, compress, isa);
    for (const Record& r : recs) w.write(r);
    w.commit();
  }
  std::vector<Record> back;
  try {
    if (Reader::open(path)->header().isa != isa) finding("round trip through the writer changed the isa name");
    back = read_all(path);
  } catch (const TraceError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("the reader rejects what the writer wrote");
  }
  std::remove(path.c_str());
  if (back != recs) finding("round trip through the writer changed the records");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = hwprof::fuzz::write_input("trace", data, size);
  std::vector<Record> recs;
  std::string isa;
  try {
    auto reader = Reader::open(path);
    isa = reader->header().isa;
    recs = read_all(path);
  } catch (const TraceError&) {
    return 0;  // rejected with a located error: the expected outcome for bad input
  }
  round_trip(recs, isa, Format::Text, false);
  round_trip(recs, isa, Format::Binary, true);
  return 0;
}
