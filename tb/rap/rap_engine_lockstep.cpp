#include "rap_engine_lockstep.h"

#include <fmt/core.h>

#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::RapEngine;

std::unique_ptr<RapEngineRtl> make_rap_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                           const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_rap_rtl(cfg, env.options(), wave_name, seed);
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
