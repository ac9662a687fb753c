#include "rap_engine_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vrap_engine_w32_g127_q1024_t4.h"
#include "Vrap_engine_w8_g8_q4_t0.h"
#include "Vrap_engine_w8_g8_q4_t4.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::RapEngine;

std::string rap_config_name(const model::RapEngineConfig& c) {
  return fmt::format("w{}_g{}_q{}_t{}", c.range_bits, c.groups, c.queue_depth, c.tcam_slice);
}

namespace {

template <typename V>
class RapRtlT final : public RtlBase<RapEngine, V> {
 public:
  RapRtlT(const SimEnv& env, const std::string& name, uint64_t seed, unsigned w)
      : RtlBase<RapEngine, V>(env, name, seed), mask_(w == 32 ? 0xffffffffu : (1u << w) - 1) {}

  void reset() override {
    auto& t = this->h_.top();
    t.ev_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  RapEngine::Out step(const RapEngine::In& in) override {
    auto& t = this->h_.top();
    t.ev_valid_i = in.ev_valid;
    t.ev_value_i = in.ev_value & mask_;
    t.ev_weight_i = in.ev_weight;
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0x1f;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    RapEngine::Out o;
    o.ev_ready = t.ev_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump_last = t.dump_last_o;
    o.dump.valid = t.dump_slot_valid_o;
    o.dump.depth = t.dump_depth_o;
    o.dump.prefix = t.dump_prefix_o;
    o.dump.count[0] = t.dump_cnt0_o;
    o.dump.count[1] = t.dump_cnt1_o;
    o.dump.count[2] = t.dump_cnt2_o;
    o.dump.count[3] = t.dump_cnt3_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }

 private:
  uint32_t mask_;
};

}  // namespace

std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                           const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<RapEngineRtl> p;
  const std::string n = rap_config_name(cfg);
  if (cfg.max_buf != 8 || cfg.buf_default != 4)
    throw std::invalid_argument("rap_engine RTL builds have MaxBuf 8, BufDefault 4");
  if (n == "w32_g127_q1024_t4")
    p = std::make_unique<RapRtlT<Vrap_engine_w32_g127_q1024_t4>>(env, wave_name, seed, 32);
  else if (n == "w8_g8_q4_t4")
    p = std::make_unique<RapRtlT<Vrap_engine_w8_g8_q4_t4>>(env, wave_name, seed, 8);
  else if (n == "w8_g8_q4_t0")
    p = std::make_unique<RapRtlT<Vrap_engine_w8_g8_q4_t0>>(env, wave_name, seed, 8);
  else
    throw std::invalid_argument("rap_engine " + n +
                                " has no RTL build (Verilated: w32_g127_q1024_t4, w8_g8_q4_t4, w8_g8_q4_t0)");
  p->reset();
  return p;
}

RapLockstep make_rap_lockstep(const model::RapEngineConfig& cfg, const SimEnv& env, const std::string& name,
                              uint64_t seed) {
  return {RapEngine(cfg), make_rap_rtl(cfg, env, name, seed), "rap_engine", seed, env};
}

std::string LockstepTraits<RapEngine>::describe(const RapEngine::In& in) {
  return fmt::format("ev_valid={} ev_value={:08x} ev_weight={} dump_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.ev_valid), in.ev_value, in.ev_weight, int(in.dump_ready), int(in.csr_we), in.csr_addr,
                     in.csr_wdata);
}

std::vector<Field> LockstepTraits<RapEngine>::fields(const RapEngine::Out& e, const RapEngine::Out& a) {
  return {
      {"ev_ready", e.ev_ready, a.ev_ready},
      {"dump_valid", e.dump_valid, a.dump_valid},
      {"dump_last", e.dump_last, a.dump_last},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
}

}  // namespace hwprof::tb
