#include "detector_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vphase_detector_bbv_default.h"
#include "Vphase_detector_bbv_small.h"
#include "Vphase_detector_path_default.h"
#include "Vphase_detector_path_small.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::DetectorMode;
using model::PhaseDetector;

std::string DetectorConfig::name() const {
  const auto& p = params;
  std::string n = fmt::format("{}_n{}_s{}_e{}", model::detector_mode_name(p.mode), p.counters, p.sig_w, p.entries);
  if (p.mode == DetectorMode::Path) n += fmt::format("_d{}_l{}", depth, max_len);
  return n;
}

namespace {

template <typename V>
class DetectorRtlT final : public RtlBase<PhaseDetector, V> {
 public:
  using RtlBase<PhaseDetector, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.res_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  PhaseDetector::Out step(const PhaseDetector::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    const auto w = in.rec_data.pack();
    for (size_t i = 0; i < w.size(); ++i) t.rec_data_i[i] = w[i];
    t.res_ready_i = in.res_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    PhaseDetector::Out o;
    o.rec_ready = t.rec_ready_o;
    o.res_valid = t.res_valid_o;
    o.res.phase = t.res_phase_o;
    o.res.changed = t.res_changed_o;
    o.res.matched = t.res_matched_o;
    o.res.distance = t.res_distance_o;
    o.res.predicted = t.res_pred_o;
    o.res.scored = t.res_scored_o;
    o.res.correct = t.res_correct_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

DetectorConfig make_cfg(DetectorMode mode, bool small) {
  DetectorConfig c;
  c.params.mode = mode;
  if (small) {
    c.params.counters = 4;
    c.params.sig_w = 4;
    c.params.entries = 2;
    c.params.markov_entries = 4;
    c.params.threshold = 4;
    c.depth = 4;
    c.max_len = 8;
  }
  return c;
}

}  // namespace

const std::vector<DetectorConfig>& detector_configs() {
  static const std::vector<DetectorConfig> c = {make_cfg(DetectorMode::Bbv, false), make_cfg(DetectorMode::Path, false),
                                                make_cfg(DetectorMode::Bbv, true), make_cfg(DetectorMode::Path, true)};
  return c;
}

const DetectorConfig& detector_config(DetectorMode mode, bool small) {
  return detector_configs()[(small ? 2 : 0) + (mode == DetectorMode::Path ? 1 : 0)];
}

std::unique_ptr<DetectorRtl> make_detector_rtl(const DetectorConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<DetectorRtl> p;
  const auto n = cfg.name();
  if (n == detector_configs()[0].name())
    p = std::make_unique<DetectorRtlT<Vphase_detector_bbv_default>>(env, wave_name, seed);
  else if (n == detector_configs()[1].name())
    p = std::make_unique<DetectorRtlT<Vphase_detector_path_default>>(env, wave_name, seed);
  else if (n == detector_configs()[2].name())
    p = std::make_unique<DetectorRtlT<Vphase_detector_bbv_small>>(env, wave_name, seed);
  else if (n == detector_configs()[3].name())
    p = std::make_unique<DetectorRtlT<Vphase_detector_path_small>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format("phase detector {} has no RTL build (Verilated: {}, {}, {}, {})", n,
                                            detector_configs()[0].name(), detector_configs()[1].name(),
                                            detector_configs()[2].name(), detector_configs()[3].name()));
  p->reset();
  return p;
}

DetectorLockstep make_detector_lockstep(const DetectorConfig& cfg, const SimEnv& env, const std::string& name,
                                        uint64_t seed) {
  return {PhaseDetector(cfg.params, cfg.depth, cfg.max_len), make_detector_rtl(cfg, env, name, seed),
          "phase_detector", seed, env};
}

std::string LockstepTraits<PhaseDetector>::describe(const PhaseDetector::In& in) {
  return fmt::format("rec_valid={} rec={} res_ready={} csr_we={} csr_addr={} csr_wdata={:08x}", int(in.rec_valid),
                     in.rec_data.str(), int(in.res_ready), int(in.csr_we), in.csr_addr, in.csr_wdata);
}

std::vector<Field> LockstepTraits<PhaseDetector>::fields(const PhaseDetector::Out& e, const PhaseDetector::Out& a) {
  const bool v = e.res_valid;
  return {
      {"rec_ready", e.rec_ready, a.rec_ready},
      {"res_valid", e.res_valid, a.res_valid},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
      {"res.phase", e.res.phase, a.res.phase, v},
      {"res.changed", e.res.changed, a.res.changed, v},
      {"res.matched", e.res.matched, a.res.matched, v},
      {"res.distance", e.res.distance, a.res.distance, v},
      {"res.predicted", e.res.predicted, a.res.predicted, v},
      {"res.scored", e.res.scored, a.res.scored, v},
      {"res.correct", e.res.correct, a.res.correct, v},
  };
}

}  // namespace hwprof::tb
