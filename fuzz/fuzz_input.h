// Shared by the libFuzzer harnesses (docs/verification.md "Fuzzing"): the
// readers under test open files by path, so each input is written to one
// temporary file per process and harness, reused for every input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace hwprof::fuzz {

/// Path of this process's scratch file for `tag` (under $TMPDIR or /tmp).
inline std::string scratch_path(const char* tag) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/hwprof-fuzz-" +
         std::to_string(::getpid()) + "-" + tag;
}

/// Writes `size` bytes to the scratch file for `tag` and returns its path.
/// Aborts if the file cannot be written (a broken fuzzing setup, not a
/// finding).
inline std::string write_input(const char* tag, const uint8_t* data, size_t size) {
  const std::string path = scratch_path(tag);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror(path.c_str());
    std::abort();
  }
  return path;
}

}  // namespace hwprof::fuzz
