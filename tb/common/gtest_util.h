// GoogleTest helpers for lock-step tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
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

/// The real traces the trace tests replay: every *.hwpt, *.hwpt.zst, *.trace
/// and *.trace.zst in HWPROF_TRACE_DIR (set at compile time: the shipped
/// ones), sorted. The environment variable HWPROF_TRACES, when set, replaces
/// that list with its own: ':'-separated trace files or directories (each
/// directory's traces sorted), in the order given. make soak uses it to run
/// the same lock-step tests over the long traces (tests/traces/long).
inline std::vector<std::string> shipped_traces() {
  std::vector<std::string> v;
  auto is_trace = [](const std::string& p) {
    auto ends = [&p](const std::string& s) {
      return p.size() >= s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0;
    };
    return ends(".hwpt") || ends(".hwpt.zst") || ends(".trace") || ends(".trace.zst");
  };
  auto add_dir = [&](const std::string& dir) {
    std::vector<std::string> d;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (is_trace(e.path().string())) d.push_back(e.path().string());
    std::sort(d.begin(), d.end());
    v.insert(v.end(), d.begin(), d.end());
  };
  if (const char* env = std::getenv("HWPROF_TRACES"); env && *env) {
    std::string list = env;
    for (size_t b = 0; b <= list.size();) {
      const size_t e = std::min(list.find(':', b), list.size());
      const std::string item = list.substr(b, e - b);
      if (!item.empty()) {
        if (std::filesystem::is_directory(item)) add_dir(item);
        else v.push_back(item);  // a missing file fails in the test that opens it, naming it
      }
      b = e + 1;
    }
    return v;
  }
#ifdef HWPROF_TRACE_DIR
  add_dir(HWPROF_TRACE_DIR);
#endif
  return v;
}

/// shipped_traces() and the long gcc trace tests/traces/long/cc1_full (the
/// stall-fraction tests' worst case) when it exists and is not already in
/// the list (HWPROF_TRACES may name it).
inline std::vector<std::string> shipped_traces_and_cc1_full() {
  std::vector<std::string> v = shipped_traces();
#ifdef HWPROF_TRACE_DIR
  const std::filesystem::path full = std::filesystem::path(HWPROF_TRACE_DIR) / "long" / "cc1_full.hwpt.zst";
  std::error_code ec;
  const bool listed = std::any_of(v.begin(), v.end(), [&](const std::string& p) {
    return std::filesystem::equivalent(p, full, ec);
  });
  if (!listed && std::filesystem::exists(full, ec)) v.push_back(full.string());
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
