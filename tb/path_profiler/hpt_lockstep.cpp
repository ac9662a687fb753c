#include "hpt_lockstep.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hpt_rtl_impl.h"
#include "hwprof_rtl_configs.h"
#include "hwprof_rtl_test.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::Hpt;

const std::vector<HptConfig>& hpt_configs() {
  static const std::vector<HptConfig> c = {
#define X(V, use, sets, ways) HptConfig{sets, ways},
      HWPROF_RTL_CONFIGS_hpt(X)
#undef X
  };
  return c;
}

std::unique_ptr<HptRtl> make_hpt_rtl(const HptConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed) {
  register_test_configs();
  return sim::make_hpt_rtl(cfg, env.options(), wave_name, seed);
}

HptLockstep make_hpt_lockstep(const HptConfig& cfg, const SimEnv& env, const std::string& name, uint64_t seed) {
  return {Hpt(cfg.sets, cfg.ways), make_hpt_rtl(cfg, env, name, seed), "hpt", seed, env};
}

std::string HptProbConfig::name() const {
  return fmt::format("{}_p{}x{}x{}x{}", table.name(), prob.sets, prob.ways, prob.fp_bits, prob.count_bits);
}

const std::vector<HptProbConfig>& hpt_prob_configs() {
  static const std::vector<HptProbConfig> c = {
#define X(V, use, sets, ways, ps, pw, pf, pc) HptProbConfig{HptConfig{sets, ways}, model::HptProbation{ps, pw, pf, pc}},
      HWPROF_RTL_CONFIGS_hpt_prob(X)
#undef X
  };
  return c;
}

HptLockstep make_hpt_prob_lockstep(const HptProbConfig& cfg, const SimEnv& env, const std::string& name,
                                   uint64_t seed) {
  std::unique_ptr<HptRtl> rtl;
#define X(V, use, sets, ways, ps, pw, pf, pc)                                                              \
  if (!rtl && cfg.name() == HptProbConfig{HptConfig{sets, ways}, model::HptProbation{ps, pw, pf, pc}}.name()) \
    rtl = sim::make_rtl<HptRtl, sim::HptRtlT<V>>(env.options(), name, seed);
  HWPROF_RTL_CONFIGS_hpt_prob(X)
#undef X
  if (!rtl) throw std::invalid_argument("hpt_prob " + cfg.name() + " was not Verilated");
  rtl->reset();  // started as the registry's engines are
  return {Hpt(cfg.table.sets, cfg.table.ways, cfg.prob), std::move(rtl), "hpt", seed, env};
}

std::string LockstepTraits<Hpt>::describe(const Hpt::In& in) {
  const auto& d = in.in_desc;
  return fmt::format(
      "in_valid={} in_desc={{start={:08x} length={} dirs={:08x} events={} insns={} incomplete={}}} dump_ready={} "
      "csr_we={} csr_addr={} csr_wdata={:08x}",
      int(in.in_valid), d.start, unsigned(d.length), d.dirs, d.events, d.insns, int(d.incomplete),
      int(in.dump_ready), int(in.csr_we), in.csr_addr, in.csr_wdata);
}

void add_dump_fields(std::vector<Field>& f, const Hpt::DumpEntry& e, const Hpt::DumpEntry& a, bool v) {
  f.push_back({"dump.set", e.set, a.set, v});
  f.push_back({"dump.way", e.way, a.way, v});
  f.push_back({"dump.start", e.key.start, a.key.start, v});
  f.push_back({"dump.length", e.key.length, a.key.length, v});
  f.push_back({"dump.dirs", e.key.dirs, a.key.dirs, v});
  f.push_back({"dump.acc", e.acc, a.acc, v});
}

std::vector<Field> LockstepTraits<Hpt>::fields(const Hpt::Out& e, const Hpt::Out& a) {
  std::vector<Field> f = {
      {"in_ready", e.in_ready, a.in_ready},
      {"dump_valid", e.dump_valid, a.dump_valid},
      {"dump_busy", e.dump_busy, a.dump_busy},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
  add_dump_fields(f, e.dump, a.dump, e.dump_valid);
  return f;
}

}  // namespace hwprof::tb
