// Shared pieces of the RAP engine's lock-step tests (rap_engine_test.cpp,
// rap_val_test.cpp): the model and the Verilated engine in lock-step behind
// RapEngine's step() (so the replay driver runs both), and the reference
// tree (RapTree fed with the merging buffer's pairs) that every dumped tree
// is compared with.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rap_engine_lockstep.h"
#include "rap_event_buffer.h"
#include "rap_replay.h"
#include "trace_source.h"

namespace hwprof::tb {

/// Keeps the RTL's last outputs (the dump beat data) for the driver.
class RapRecording final : public RapEngineRtl {
 public:
  explicit RapRecording(std::unique_ptr<RapEngineRtl> in) : in_(std::move(in)) {}
  void reset() override { in_->reset(); }
  model::RapEngine::Out step(const model::RapEngine::In& i) override { return last_ = in_->step(i); }
  uint64_t cycles() const override { return in_->cycles(); }
  void flush_wave() override { in_->flush_wave(); }
  std::string wave_path() const override { return in_->wave_path(); }
  model::RapEngine::Out last_;

 private:
  std::unique_ptr<RapEngineRtl> in_;
};

/// Model and RTL in lock-step with RapEngine's step() (the replay driver's
/// engine): returns the model's outputs with the RTL's dump beat. Keep one
/// alive at a time: two live instances of one Verilated model deadlock in
/// their destructors.
class RapBoth {
 public:
  RapBoth(const model::RapEngineConfig& cfg, uint64_t seed, const std::string& name = current_test_name())
      : env_(SimEnv::from_env()), cfg_(cfg) {
    auto rec = std::make_unique<RapRecording>(make_rap_rtl(cfg, env_, name, seed));
    rec_ = rec.get();
    ls_ = std::make_unique<Lockstep<model::RapEngine, RapRecording>>(model::RapEngine(cfg), std::move(rec),
                                                                     "rap_engine", seed, env_);
  }
  model::RapEngine::Out step(const model::RapEngine::In& in) {
    model::RapEngine::Out o = ls_->step(in);
    o.dump = rec_->last_.dump;
    return o;
  }
  void reset() { ls_->reset(); }
  model::RapEngine& model() { return ls_->model(); }
  const model::RapEngineConfig& cfg() const { return cfg_; }
  const SimEnv& env() const { return env_; }
  uint64_t cycles() const { return ls_->cycles(); }

  void write(model::RapCsr a, uint32_t v) {
    model::RapEngine::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    step(in);
  }
  uint32_t read(model::RapCsr a) {
    model::RapEngine::In in;
    in.csr_addr = unsigned(a);
    return step(in).csr_rdata;
  }

 private:
  SimEnv env_;
  model::RapEngineConfig cfg_;
  RapRecording* rec_ = nullptr;
  std::unique_ptr<Lockstep<model::RapEngine, RapRecording>> ls_;
};

/// The tree parameters of a replay on a build.
inline model::RapParams rap_params_of(const model::RapEngineConfig& c, const model::RapReplayConfig& rc) {
  model::RapParams p;
  p.range_bits = c.range_bits;
  p.eps_q16 = rc.eps_q16;
  p.node_cap = rc.node_cap ? rc.node_cap : c.cap_max();
  p.merge_first = rc.merge_first;
  return p;
}

/// RapTree fed with the merging buffer's pairs (flushed at the end): the
/// tree every dump is compared with.
inline model::RapTree rap_reference(const model::RapParams& p, unsigned depth, const model::RapEventSource& src) {
  model::RapTree t(p);
  model::RapEventBuffer b(depth);
  const uint32_t m = p.range_bits == 32 ? 0xffffffffu : (1u << p.range_bits) - 1;
  model::RapEvent e;
  while (src(e))
    if (auto q = b.push(e.value & m, e.weight)) t.add(q->value, q->weight);
  while (auto q = b.pop_oldest()) t.add(q->value, q->weight);
  return t;
}

/// " prefix/depth=count" per node, hex prefixes.
inline std::string rap_nodes_str(const std::vector<model::RapDumpNode>& v) {
  std::string s;
  for (const auto& n : v) {
    char b[64];
    std::snprintf(b, sizeof b, " %x/%u=%llu", n.prefix, n.depth, static_cast<unsigned long long>(n.count));
    s += b;
  }
  return s;
}

}  // namespace hwprof::tb
