// libFuzzer harness: the path profile reader of `hwprof overlap`
// (host/cli/cmd_overlap.cpp, load_profile; docs/formats.md "Path profile
// (JSON)") on arbitrary bytes. The reader is file-local to the command, so
// this harness compiles the command's source into itself.
//
// Properties, for each metric (count, insns, events):
//   * a profile the reader refuses is a std::runtime_error naming the file
//     (any other exception or a crash is a finding);
//   * an accepted profile has lengths <= 32, and merging repeated keys keeps
//     its total weight and leaves each key once;
//   * the overlap of an accepted profile with itself is exactly 100 % when
//     its total is not 0 (0 otherwise), and the overlap and the oracle
//     overlap are within [0, 100].
#include "../host/cli/cmd_overlap.cpp"  // NOLINT(bugprone-suspicious-include)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "fuzz_input.h"

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_overlap: %s\n", what);
  std::abort();
}

bool in_range(double v) { return std::isfinite(v) && v >= 0.0 && v <= 100.0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace cli = hwprof::cli;
  namespace model = hwprof::model;
  const std::string path = hwprof::fuzz::write_input("profile.json", data, size);
  for (const char* metric : {"count", "insns", "events"}) {
    cli::LoadedProfile lp;
    try {
      lp = cli::load_profile(path, metric);
    } catch (const std::runtime_error& e) {
      if (std::string(e.what()).find(path) == std::string::npos) finding("the error does not name the file");
      continue;
    }
    uint64_t total = 0;
    for (const auto& p : lp.paths) {
      if (p.key.length > model::kMaxMaxLen) finding("accepted a path longer than 32 branches");
      total += p.weight;
    }
    if (total != lp.total) finding("the total is not the sum of the weights");
    const auto m = cli::merged(lp.paths);
    uint64_t mtotal = 0;
    std::unordered_set<model::PathKey, model::PathKeyHash> keys;
    for (const auto& p : m) {
      mtotal += p.weight;
      if (!keys.insert(p.key).second) finding("merged() left a key twice");
    }
    if (mtotal != lp.total) finding("merged() changed the total weight");
    const double self = model::path_overlap(m, m);
    if (lp.total != 0 && self != 100.0) finding("a profile's overlap with itself is not exactly 100");
    if (lp.total == 0 && self != 0.0) finding("an empty profile's overlap is not 0");
    if (!in_range(model::path_overlap(lp.paths, m)) || !in_range(model::oracle_overlap(m, m.size() / 2)))
      finding("an overlap outside [0, 100]");
  }
  return 0;
}
