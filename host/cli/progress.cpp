#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace hwprof::cli {

Progress::Progress(std::string what, bool quiet)
    : what_(std::move(what)), quiet_(quiet), tty_(isatty(2) != 0) {
  start_ = last_ = std::chrono::steady_clock::now();
}

Progress::~Progress() { finish(); }

void Progress::update(uint64_t done, uint64_t total, const char* unit) {
  if (quiet_) return;
  auto now = std::chrono::steady_clock::now();
  auto since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.5 : 10.0)) return;
  last_ = now;
  double el = std::chrono::duration<double>(now - start_).count();
  char buf[200];
  if (total)
    std::snprintf(buf, sizeof buf, "[%s] %5.1f%%  %.3g %s  %.1f s", what_.c_str(), 100.0 * double(done) / double(total),
                  double(done), unit, el);
  else
    std::snprintf(buf, sizeof buf, "[%s] %.3g %s  %.1f s", what_.c_str(), double(done), unit, el);
  std::fprintf(stderr, tty_ ? "\r%s\033[K" : "%s\n", buf);
  shown_ = true;
}

void Progress::finish() {
  if (shown_ && tty_) std::fprintf(stderr, "\n");
  shown_ = false;
}

}  // namespace hwprof::cli
