// GoogleTest helpers for lock-step tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

namespace hwprof::tb {

/// "Suite.Name" of the running test with '/' replaced, for waveform names.
inline std::string current_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return "sim";
  std::string n = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : n)
    if (c == '/' || c == ' ') c = '_';
  return n;
}

/// The shipped real traces (HWPROF_TRACE_DIR, set at compile time): every
/// *.hwpt, *.hwpt.zst, *.trace and *.trace.zst, sorted.
inline std::vector<std::string> shipped_traces() {
  std::vector<std::string> v;
#ifdef HWPROF_TRACE_DIR
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(HWPROF_TRACE_DIR, ec)) {
    const std::string p = e.path().string();
    auto ends = [&p](const std::string& s) {
      return p.size() >= s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0;
    };
    if (ends(".hwpt") || ends(".hwpt.zst") || ends(".trace") || ends(".trace.zst")) v.push_back(p);
  }
  std::sort(v.begin(), v.end());
#endif
  return v;
}

/// Test-name form of a trace path: its base name up to the first '.'.
inline std::string trace_test_name(const std::string& path) {
  std::string n = std::filesystem::path(path).filename().string();
  n = n.substr(0, n.find('.'));
  std::replace_if(n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return n;
}

}  // namespace hwprof::tb
