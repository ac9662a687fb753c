// Adapters of the Verilated path_classifier, path_stack and path_frontend.
// Include only from the registries (they need the Verilated headers).
#pragma once

#include <array>

#include "path_frontend_rtl.h"
#include "rtl_base.h"

namespace hwprof::sim {

namespace detail {

template <typename W>
void put_words(W& dst, const std::array<uint32_t, 3>& w) {
  for (int i = 0; i < 3; ++i) dst[i] = w[i];
}
template <typename W>
void put_words(W& dst, const std::array<uint32_t, 4>& w) {
  for (int i = 0; i < 4; ++i) dst[i] = w[i];
}

// The descriptor ports: out_* on path_stack, desc_* on path_frontend.
#define HWPROF_READ_DESC(t, p)                                                         \
  [&] {                                                                                \
    model::Emission e;                                                                 \
    e.path.start = t.p##start_o;                                                       \
    e.path.length = static_cast<uint8_t>(t.p##length_o);                               \
    e.path.dirs = static_cast<uint32_t>(t.p##dirs_o);                                  \
    e.path.events = static_cast<uint16_t>(t.p##events_o);                              \
    e.path.insns = t.p##insns_o;                                                       \
    e.path.ext = static_cast<uint8_t>(t.p##ext_o);                                     \
    e.path.incomplete = t.p##incomplete_o;                                             \
    e.split = t.p##split_o;                                                            \
    e.frame_end = t.p##frame_end_o;                                                    \
    e.depth = t.p##depth_o;                                                            \
    return e;                                                                          \
  }()

}  // namespace detail

template <typename V>
class PathClassifierRtlT final : public RtlBase<model::PathClassifier, V> {
 public:
  using RtlBase<model::PathClassifier, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    this->h_.reset();
  }
  model::PathClassifier::Out step(const model::PathClassifier::In& in) override {
    auto& t = this->h_.top();
    t.ppcr_i = in.ppcr;
    t.in_valid_i = in.in_valid;
    detail::put_words(t.in_data_i, in.in_data.pack());
    t.out_ready_i = in.out_ready;
    this->h_.eval();
    model::PathClassifier::Out o;
    o.in_ready = t.in_ready_o;
    o.out_valid = t.out_valid_o;
    o.out_data = model::PathRecord::unpack({t.out_data_o[0], t.out_data_o[1], t.out_data_o[2], t.out_data_o[3]});
    this->h_.tick();
    return o;
  }
};

template <typename V>
class PathStackRtlT final : public RtlBase<model::PathStack, V> {
 public:
  using RtlBase<model::PathStack, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    this->h_.reset();
  }
  model::PathStack::Out step(const model::PathStack::In& in) override {
    auto& t = this->h_.top();
    t.in_valid_i = in.in_valid;
    detail::put_words(t.in_data_i, in.in_data.pack());
    t.out_ready_i = in.out_ready;
    this->h_.eval();
    model::PathStack::Out o;
    o.in_ready = t.in_ready_o;
    o.out_valid = t.out_valid_o;
    o.out = HWPROF_READ_DESC(t, out_);
    o.count = t.count_o;
    o.stats = {t.stat_records_o,  t.stat_emitted_o,    t.stat_incomplete_o,  t.stat_splits_o,
               t.stat_overflows_o, t.stat_empty_pops_o, t.stat_stall_cycles_o};
    this->h_.tick();
    return o;
  }
};

template <typename V>
class PathFrontendRtlT final : public RtlBase<model::PathFrontend, V> {
 public:
  using RtlBase<model::PathFrontend, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.desc_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  model::PathFrontend::Out step(const model::PathFrontend::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    detail::put_words(t.rec_data_i, in.rec_data.pack());
    t.desc_ready_i = in.desc_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    model::PathFrontend::Out o;
    o.rec_ready = t.rec_ready_o;
    o.desc_valid = t.desc_valid_o;
    o.desc = HWPROF_READ_DESC(t, desc_);
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace hwprof::sim

/// Registry entries of generated configurations into `reg`:
/// X(Vprefix), X(Vprefix, Depth, MaxLen), X(Vprefix, QueueDepth, Depth, MaxLen).
#define HWPROF_PATH_CLASSIFIER_RTL_ADD(V)                                                                      \
  reg.add("path_classifier",                                                                                   \
          &::hwprof::sim::make_rtl<::hwprof::sim::PathClassifierRtl, ::hwprof::sim::PathClassifierRtlT<V>>);
#define HWPROF_PATH_STACK_RTL_ADD(V, depth, max_len)                         \
  reg.add("d" + std::to_string(depth) + "_l" + std::to_string(max_len),      \
          &::hwprof::sim::make_rtl<::hwprof::sim::PathStackRtl, ::hwprof::sim::PathStackRtlT<V>>);
#define HWPROF_PATH_FRONTEND_RTL_ADD(V, queue_depth, depth, max_len)        \
  reg.add(::hwprof::sim::PathConfig{queue_depth, depth, max_len}.name(),   \
          &::hwprof::sim::make_rtl<::hwprof::sim::PathFrontendRtl, ::hwprof::sim::PathFrontendRtlT<V>>);
