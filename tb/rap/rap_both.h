// Shared pieces of the RAP engine's lock-step tests (rap_engine_test.cpp,
// rap_val_test.cpp, rap2d_engine_test.cpp): the model and the Verilated
// engine in lock-step behind RapEngineT's step() (so the replay driver runs
// both), the reference tree (RapTreeT fed with the merging buffer's pairs)
// that every dumped tree is compared with, and the whole check of one
// stream. Templated on the cycle model: model::RapEngine (RangeW <= 32) or
// model::RapEngine64 (the 2-D engine, RangeW = 64).
#pragma once

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "prim.h"
#include "rap_engine_lockstep.h"
#include "rap_event_buffer.h"
#include "rap_replay.h"
#include "sim_env.h"
#include "trace_source.h"

namespace hwprof::tb {

/// Keeps the RTL's last outputs (the dump beat data) for the driver.
template <typename Model>
class RapRecordingT final : public sim::RtlEngine<Model> {
 public:
  using Rtl = sim::RtlEngine<Model>;
  explicit RapRecordingT(std::unique_ptr<Rtl> in) : in_(std::move(in)) {}
  void reset() override { in_->reset(); }
  typename Model::Out step(const typename Model::In& i) override { return last_ = in_->step(i); }
  uint64_t cycles() const override { return in_->cycles(); }
  void flush_wave() override { in_->flush_wave(); }
  std::string wave_path() const override { return in_->wave_path(); }
  typename Model::Out last_;

 private:
  std::unique_ptr<Rtl> in_;
};
using RapRecording = RapRecordingT<model::RapEngine>;

/// Model and RTL in lock-step with RapEngineT's step() (the replay driver's
/// engine): returns the model's outputs with the RTL's dump beat. Keep one
/// alive at a time: two live instances of one Verilated model deadlock in
/// their destructors.
template <typename Model>
class RapBothT {
 public:
  using In = typename Model::In;
  using Out = typename Model::Out;
  RapBothT(const model::RapEngineConfig& cfg, uint64_t seed, const std::string& name = current_test_name())
      : env_(SimEnv::from_env()), cfg_(cfg) {
    auto rec = std::make_unique<RapRecordingT<Model>>(make_rap_rtl_for<Model>(cfg, env_, name, seed));
    rec_ = rec.get();
    ls_ = std::make_unique<Lockstep<Model, RapRecordingT<Model>>>(Model(cfg), std::move(rec), "rap_engine", seed,
                                                                   env_);
  }
  Out step(const In& in) {
    Out o = ls_->step(in);
    o.dump = rec_->last_.dump;
    return o;
  }
  void reset() { ls_->reset(); }
  Model& model() { return ls_->model(); }
  const model::RapEngineConfig& cfg() const { return cfg_; }
  const SimEnv& env() const { return env_; }
  uint64_t cycles() const { return ls_->cycles(); }

  void write(model::RapCsr a, uint32_t v) {
    In in;
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    step(in);
  }
  uint32_t read(model::RapCsr a) {
    In in;
    in.csr_addr = unsigned(a);
    return step(in).csr_rdata;
  }

 private:
  SimEnv env_;
  model::RapEngineConfig cfg_;
  RapRecordingT<Model>* rec_ = nullptr;
  std::unique_ptr<Lockstep<Model, RapRecordingT<Model>>> ls_;
};
using RapBoth = RapBothT<model::RapEngine>;

/// The tree parameters of a replay on a build.
inline model::RapParams rap_params_of(const model::RapEngineConfig& c, const model::RapReplayConfig& rc) {
  model::RapParams p;
  p.range_bits = c.range_bits;
  p.eps_q16 = rc.eps_q16;
  p.node_cap = rc.node_cap ? rc.node_cap : c.cap_max();
  p.merge_first = rc.merge_first;
  return p;
}

/// RapTreeT fed with the merging buffer's pairs (flushed at the end): the
/// tree every dump is compared with.
template <typename Tree>
Tree rap_reference_t(const model::RapParams& p, unsigned depth, const model::RapEventSource& src) {
  Tree t(p);
  model::RapEventBuffer b(depth);
  const uint64_t m = model::mask_of(p.range_bits);
  model::RapEvent e;
  while (src(e))
    if (auto q = b.push(e.value & m, e.weight)) t.add(static_cast<typename Tree::Value>(q->value), q->weight);
  while (auto q = b.pop_oldest()) t.add(static_cast<typename Tree::Value>(q->value), q->weight);
  return t;
}
inline model::RapTree rap_reference(const model::RapParams& p, unsigned depth, const model::RapEventSource& src) {
  return rap_reference_t<model::RapTree>(p, depth, src);
}

/// " prefix/depth=count" per node, hex prefixes.
inline std::string rap_nodes_str(const std::vector<model::RapDumpNode>& v) {
  std::string s;
  for (const auto& n : v) {
    char b[64];
    std::snprintf(b, sizeof b, " %" PRIx64 "/%u=%llu", n.prefix, n.depth, static_cast<unsigned long long>(n.count));
    s += b;
  }
  return s;
}

/// Replays `src` through model and RTL in lock-step (every output every
/// cycle); checks the dumped tree against RapTreeT on the buffered stream
/// (`ref_src`: the same stream again) and the counters against its stats.
template <typename Model>
model::RapReplayResult rap_run_and_check(RapBothT<Model>& b, const model::RapEventSource& src,
                                         const model::RapEventSource& ref_src, const model::RapReplayConfig& rc) {
  using Tree = typename Model::Tree;
  const model::RapReplayResult r = model::replay_rap(b, src, rc);
  const Tree ref = rap_reference_t<Tree>(rap_params_of(b.cfg(), rc), rc.buffer, ref_src);
  EXPECT_EQ(rap_nodes_str(model::rap_dump_nodes(r.beats, b.cfg().range_bits)), rap_nodes_str(model::rap_tree_nodes(ref)));
  EXPECT_TRUE(b.model().tree().same_tree(ref));
  EXPECT_EQ(r.counters.n, ref.n());
  EXPECT_EQ(r.counters.pairs, ref.stats().updates);
  EXPECT_EQ(r.counters.splits, ref.stats().splits);
  EXPECT_EQ(r.counters.skipped, ref.stats().splits_skipped);
  EXPECT_EQ(r.counters.merges, ref.stats().merges);
  EXPECT_EQ(r.counters.sched, ref.stats().scheduled_passes);
  EXPECT_EQ(r.counters.cap, ref.stats().capacity_passes);
  EXPECT_EQ(r.counters.peak, ref.stats().peak_nodes);
  EXPECT_EQ(r.counters.nodes, ref.node_count());
  return r;
}

/// The replay parameters of the seeded random tests (RapEngine and
/// Rap2dEngine RandomStreams), drawn from `rng` in a fixed order: eps (a
/// third of the draws anywhere in [0, 1), else a multiple of 1%),
/// merge-first 1..300, buffer depth 0..kRapBufMaxDepth (0 without a draw when
/// `no_buffer`), node cap (a third of the draws 1..cap_max, else the
/// default); bubbles and dump backpressure from `idle` and `stall`, which
/// must outlive the replay.
inline model::RapReplayConfig rap_random_replay(std::mt19937_64& rng, const model::RapEngineConfig& cfg,
                                                bool no_buffer, Throttle& idle, Throttle& stall) {
  model::RapReplayConfig rc;
  rc.eps_q16 = uint32_t(rng() % 3 == 0 ? rng() % 65536 : 655 * (1 + rng() % 10));
  rc.merge_first = uint32_t(1 + rng() % 300);
  rc.buffer = no_buffer ? 0 : unsigned(rng() % (model::kRapBufMaxDepth + 1));
  rc.node_cap = rng() % 3 == 0 ? uint32_t(1 + rng() % cfg.cap_max()) : 0;
  rc.idle = [&idle] { return idle(); };
  rc.stall = [&stall] { return stall(); };
  return rc;
}

}  // namespace hwprof::tb
