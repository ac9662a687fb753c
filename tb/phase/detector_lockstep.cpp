#include "detector_lockstep.h"

#include <fmt/core.h>

#include "hwprof_rtl_configs.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::DetectorMode;
using model::PhaseDetector;

const std::vector<DetectorConfig>& detector_configs() {
  static const std::vector<DetectorConfig> c = {
#define X(V, use, mode, n, s, e, m, t, d, l) DetectorConfig::of(mode, n, s, e, m, t, d, l),
      HWPROF_RTL_CONFIGS_phase_detector(X)
#undef X
  };
  return c;
}

const DetectorConfig& detector_config(DetectorMode mode, bool small) {
  return detector_configs()[(small ? 2 : 0) + (mode == DetectorMode::Path ? 1 : 0)];
}

std::unique_ptr<DetectorRtl> make_detector_rtl(const DetectorConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_detector_rtl(cfg, env.options(), wave_name, seed);
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
