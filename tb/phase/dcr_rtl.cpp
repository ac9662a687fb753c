#include "dcr_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vdcr_tracker_d32_s64_m256.h"
#include "Vdcr_tracker_d4_s2_m4.h"
#include "Vdcr_tracker_d8_s5_m2.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::DcrTracker;

std::string DcrConfig::name() const { return fmt::format("d{}_s{}_m{}", depth, sig_entries, markov_entries); }

model::DcrParams DcrConfig::params() const {
  model::DcrParams p;
  p.depth = depth;
  p.sig_entries = sig_entries;
  p.markov_entries = markov_entries;
  return p;
}

namespace {

template <typename V>
class DcrRtlT final : public RtlBase<DcrTracker, V> {
 public:
  using RtlBase<DcrTracker, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.res_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  DcrTracker::Out step(const DcrTracker::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec.pack();
    for (int i = 0; i < 3; ++i) t.rec_i[i] = w[i];
    t.res_ready_i = in.res_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    DcrTracker::Out o;
    o.rec_ready = t.rec_ready_o;
    o.res_valid = t.res_valid_o;
    o.res.phase = t.res_phase_o;
    o.res.predicted = t.res_pred_o;
    o.res.sig_depth = t.res_depth_o;
    o.res.flags = t.res_flags_o;
    o.res.sig_hash = t.res_hash_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace

const std::vector<DcrConfig>& dcr_configs() {
  static const std::vector<DcrConfig> c = {{32, 64, 256}, {4, 2, 4}, {8, 5, 2}};
  return c;
}

std::unique_ptr<DcrRtl> make_dcr_rtl(const DcrConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed) {
  std::unique_ptr<DcrRtl> p;
  if (cfg.depth == 32 && cfg.sig_entries == 64 && cfg.markov_entries == 256)
    p = std::make_unique<DcrRtlT<Vdcr_tracker_d32_s64_m256>>(env, wave_name, seed);
  else if (cfg.depth == 4 && cfg.sig_entries == 2 && cfg.markov_entries == 4)
    p = std::make_unique<DcrRtlT<Vdcr_tracker_d4_s2_m4>>(env, wave_name, seed);
  else if (cfg.depth == 8 && cfg.sig_entries == 5 && cfg.markov_entries == 2)
    p = std::make_unique<DcrRtlT<Vdcr_tracker_d8_s5_m2>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format(
        "dcr_tracker {} has no RTL build (Verilated: d32_s64_m256, d4_s2_m4, d8_s5_m2)", cfg.name()));
  p->reset();
  return p;
}

DcrLockstep make_dcr_lockstep(const DcrConfig& cfg, const SimEnv& env, const std::string& name, uint64_t seed) {
  DcrTracker m(cfg.params());
  m.reset();
  return {std::move(m), make_dcr_rtl(cfg, env, name, seed), "dcr_tracker", seed, env};
}

std::string LockstepTraits<DcrTracker>::describe(const DcrTracker::In& in) {
  return fmt::format("rec_valid={} rec={{{}}} res_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.rec_valid), in.rec.str(), int(in.res_ready), int(in.csr_we), in.csr_addr,
                     in.csr_wdata);
}

std::vector<Field> LockstepTraits<DcrTracker>::fields(const DcrTracker::Out& e, const DcrTracker::Out& a) {
  const bool v = e.res_valid;
  return {
      {"rec_ready", e.rec_ready, a.rec_ready},
      {"res_valid", e.res_valid, a.res_valid},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
      {"res.phase", e.res.phase, a.res.phase, v},
      {"res.predicted", e.res.predicted, a.res.predicted, v},
      {"res.sig_depth", e.res.sig_depth, a.res.sig_depth, v},
      {"res.flags", e.res.flags, a.res.flags, v},
      {"res.sig_hash", e.res.sig_hash, a.res.sig_hash, v},
  };
}

}  // namespace hwprof::tb
