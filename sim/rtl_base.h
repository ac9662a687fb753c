// RtlBase<Model, V>: the part of every Verilated engine that does not depend
// on the ports (the harness, its cycle count and waveform). Include only from
// engine adapters (*_rtl_impl.h), which include the Verilated headers.
#pragma once

#include <cstdint>
#include <string>

#include "rtl_engine.h"
#include "rtl_harness.h"

namespace hwprof::sim {

template <typename Model, typename V>
class RtlBase : public RtlEngine<Model> {
 public:
  RtlBase(const SimOptions& opt, const std::string& name, uint64_t seed) : h_(opt, name, seed) {}
  uint64_t cycles() const override { return h_.cycle(); }
  void flush_wave() override { h_.flush(); }
  std::string wave_path() const override { return h_.wave_path(); }

 protected:
  Harness<V> h_;
};

}  // namespace hwprof::sim
