#include "path_frontend_lockstep.h"

#include <fmt/core.h>

#include "hwprof_rtl_configs.h"
#include "rtl_test_configs.h"

namespace hwprof::tb {

using model::Emission;
using model::PathClassifier;
using model::PathFrontend;
using model::PathRecord;
using model::PathStack;

namespace {

void add_emission_fields(std::vector<Field>& f, const Emission& e, const Emission& a, bool v) {
  f.push_back({"desc.start", e.path.start, a.path.start, v});
  f.push_back({"desc.length", e.path.length, a.path.length, v});
  f.push_back({"desc.dirs", e.path.dirs, a.path.dirs, v});
  f.push_back({"desc.events", e.path.events, a.path.events, v});
  f.push_back({"desc.insns", e.path.insns, a.path.insns, v});
  f.push_back({"desc.ext", e.path.ext, a.path.ext, v});
  f.push_back({"desc.incomplete", e.path.incomplete, a.path.incomplete, v});
  f.push_back({"desc.split", e.split, a.split, v});
  f.push_back({"desc.frame_end", e.frame_end, a.frame_end, v});
  f.push_back({"desc.depth", e.depth, a.depth, v});
}

}  // namespace

std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimEnv& env, const std::string& wave_name,
                                                            uint64_t seed) {
  register_test_configs();
  return sim::make_path_classifier_rtl(env.options(), wave_name, seed);
}

const std::vector<PathConfig>& path_stack_configs() {
  static const std::vector<PathConfig> c = {
#define X(V, use, d, l) PathConfig{0, d, l},
      HWPROF_RTL_CONFIGS_path_stack(X)
#undef X
  };
  return c;
}

std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimEnv& env,
                                                  const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_path_stack_rtl(cfg, env.options(), wave_name, seed);
}

const std::vector<PathConfig>& path_frontend_configs() {
  static const std::vector<PathConfig> c = {
#define X(V, use, q, d, l) PathConfig{q, d, l},
      HWPROF_RTL_CONFIGS_path_frontend(X)
#undef X
  };
  return c;
}

std::unique_ptr<PathFrontendRtl> make_path_frontend_rtl(const PathConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed) {
  register_test_configs();
  return sim::make_path_frontend_rtl(cfg, env.options(), wave_name, seed);
}

PathClassifierLockstep make_path_classifier_lockstep(const SimEnv& env, const std::string& name, uint64_t seed) {
  return {PathClassifier{}, make_path_classifier_rtl(env, name, seed), "path_classifier", seed, env};
}

PathStackLockstep make_path_stack_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                           uint64_t seed) {
  return {PathStack(cfg.depth, cfg.max_len), make_path_stack_rtl(cfg, env, name, seed), "path_stack", seed, env};
}

PathFrontendLockstep make_path_frontend_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                                 uint64_t seed) {
  return {PathFrontend(cfg.queue_depth, cfg.depth, cfg.max_len), make_path_frontend_rtl(cfg, env, name, seed),
          "path_frontend", seed, env};
}

std::string LockstepTraits<PathClassifier>::describe(const PathClassifier::In& in) {
  return fmt::format("ppcr={:08x} in_valid={} in_data={{{}}} out_ready={}", in.ppcr, int(in.in_valid),
                     in.in_data.str(), int(in.out_ready));
}

std::vector<Field> LockstepTraits<PathClassifier>::fields(const PathClassifier::Out& e, const PathClassifier::Out& a) {
  const bool v = e.out_valid;
  const auto& x = e.out_data;
  const auto& y = a.out_data;
  return {
      {"in_ready", e.in_ready, a.in_ready},
      {"out_valid", e.out_valid, a.out_valid},
      {"out.cls", unsigned(x.cls), unsigned(y.cls), v},
      {"out.ops", x.ops.bits(), y.ops.bits(), v},
      {"out.ext_try", x.ext_try, y.ext_try, v},
      {"out.max_ext", x.max_ext, y.max_ext, v},
      {"out.pc", x.pc, y.pc, v},
      {"out.next", x.next, y.next, v},
      {"out.taken", x.taken, y.taken, v},
      {"out.insns", x.insns, y.insns, v},
      {"out.events", x.events, y.events, v},
  };
}

std::string LockstepTraits<PathStack>::describe(const PathStack::In& in) {
  return fmt::format("in_valid={} in_data={{{}}} out_ready={}", int(in.in_valid), in.in_data.str(),
                     int(in.out_ready));
}

std::vector<Field> LockstepTraits<PathStack>::fields(const PathStack::Out& e, const PathStack::Out& a) {
  std::vector<Field> f = {
      {"in_ready", e.in_ready, a.in_ready},
      {"out_valid", e.out_valid, a.out_valid},
      {"count", e.count, a.count},
      {"stat.records", e.stats.records, a.stats.records},
      {"stat.emitted", e.stats.emitted, a.stats.emitted},
      {"stat.incomplete", e.stats.incomplete, a.stats.incomplete},
      {"stat.splits", e.stats.splits, a.stats.splits},
      {"stat.overflows", e.stats.overflows, a.stats.overflows},
      {"stat.empty_pops", e.stats.empty_pops, a.stats.empty_pops},
      {"stat.stall_cycles", e.stats.stall_cycles, a.stats.stall_cycles},
  };
  add_emission_fields(f, e.out, a.out, e.out_valid);
  return f;
}

std::string LockstepTraits<PathFrontend>::describe(const PathFrontend::In& in) {
  return fmt::format("rec_valid={} rec_data={{{}}} desc_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.rec_valid), in.rec_data.str(), int(in.desc_ready), int(in.csr_we), in.csr_addr,
                     in.csr_wdata);
}

std::vector<Field> LockstepTraits<PathFrontend>::fields(const PathFrontend::Out& e, const PathFrontend::Out& a) {
  std::vector<Field> f = {
      {"rec_ready", e.rec_ready, a.rec_ready},
      {"desc_valid", e.desc_valid, a.desc_valid},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
  add_emission_fields(f, e.desc, a.desc, e.desc_valid);
  return f;
}

}  // namespace hwprof::tb
