#include "dcr_lockstep.h"

#include <fmt/core.h>

#include "hwprof_rtl_configs.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::DcrTracker;

const std::vector<DcrConfig>& dcr_configs() {
  static const std::vector<DcrConfig> c = {
#define X(V, use, d, s, m) DcrConfig{d, s, m},
      HWPROF_RTL_CONFIGS_dcr_tracker(X)
#undef X
  };
  return c;
}

std::unique_ptr<DcrRtl> make_dcr_rtl(const DcrConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed) {
  register_test_configs();
  return sim::make_dcr_rtl(cfg, env.options(), wave_name, seed);
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
