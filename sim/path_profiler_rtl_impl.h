// Adapter of a Verilated path_profiler. Include only from the registries (it
// needs the Verilated headers).
#pragma once

#include "path_profiler_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

template <typename V>
class PathProfilerRtlT final : public RtlBase<model::PathProfiler, V> {
 public:
  using RtlBase<model::PathProfiler, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  model::PathProfiler::Out step(const model::PathProfiler::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec_data.pack();
    for (size_t i = 0; i < w.size(); ++i) t.rec_data_i[i] = w[i];
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0x1f;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    model::PathProfiler::Out o;
    o.rec_ready = t.rec_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump = read_dump_port(t);
    o.dump_busy = t.dump_busy_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entry of a generated configuration X(Vprefix, QueueDepth, Depth,
/// MaxLen, Sets, Ways) into `reg`.
#define HWPROF_PATH_PROFILER_RTL_ADD(V, q, d, l, s, w)                             \
  reg.add(::hwprof::sim::ProfilerConfig{{q, d, l}, s, w}.name(),                   \
          &::hwprof::sim::make_rtl<::hwprof::sim::PathProfilerRtl, ::hwprof::sim::PathProfilerRtlT<V>>);
