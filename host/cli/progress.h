// Progress reports on stderr for long runs: a rewritten line on a terminal,
// a line every 10 s otherwise; silent with --quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hwprof::cli {

class Progress {
 public:
  Progress(std::string what, bool quiet);
  ~Progress();
  /// Reports `done` of `total` units (total 0 = unknown) named `unit`.
  void update(uint64_t done, uint64_t total, const char* unit);
  void finish();

 private:
  std::string what_;
  bool quiet_, tty_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace hwprof::cli
