// RtlBase<Model, V>: the part of every Verilated engine that does not depend
// on the ports (the harness and its cycle count and waveform), shared by the
// path profiler engines (path_frontend_rtl.cpp, hpt_rtl.cpp,
// path_profiler_rtl.cpp). Include only from .cpp files that include the
// Verilated headers.
#pragma once

#include <cstdint>
#include <string>

#include "harness.h"
#include "path_frontend_rtl.h"  // RtlEngine

namespace hwprof::tb {

template <typename Model, typename V>
class RtlBase : public RtlEngine<Model> {
 public:
  RtlBase(const SimEnv& env, const std::string& name, uint64_t seed) : h_(env, name, seed) {}
  uint64_t cycles() const override { return h_.cycle(); }
  void flush_wave() override { h_.flush(); }
  std::string wave_path() const override { return h_.wave_path(); }

 protected:
  Harness<V> h_;
};

}  // namespace hwprof::tb
