// GoogleTest helpers for lock-step tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

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

}  // namespace hwprof::tb
