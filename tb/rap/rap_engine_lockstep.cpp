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

std::unique_ptr<RapEngine64Rtl> make_rap64_rtl(const model::RapEngineConfig& cfg, const SimEnv& env,
                                               const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_rap64_rtl(cfg, env.options(), wave_name, seed);
}

RapLockstep make_rap_lockstep(const model::RapEngineConfig& cfg, const SimEnv& env, const std::string& name,
                              uint64_t seed) {
  return {RapEngine(cfg), make_rap_rtl(cfg, env, name, seed), "rap_engine", seed, env};
}

template <typename V>
std::string LockstepTraits<model::RapEngineT<V>>::describe(const typename model::RapEngineT<V>::In& in) {
  return fmt::format("ev_valid={} ev_value={:0{}x} ev_weight={} dump_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.ev_valid), in.ev_value, 2 * sizeof(V), in.ev_weight, int(in.dump_ready), int(in.csr_we),
                     in.csr_addr, in.csr_wdata);
}

template <typename V>
std::vector<Field> LockstepTraits<model::RapEngineT<V>>::fields(const typename model::RapEngineT<V>::Out& e,
                                                                const typename model::RapEngineT<V>::Out& a) {
  return {
      {"ev_ready", e.ev_ready, a.ev_ready},
      {"dump_valid", e.dump_valid, a.dump_valid},
      {"dump_last", e.dump_last, a.dump_last},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
}

template struct LockstepTraits<model::RapEngine>;
template struct LockstepTraits<model::RapEngine64>;

}  // namespace hwprof::tb
