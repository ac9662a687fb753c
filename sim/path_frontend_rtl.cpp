#include "path_frontend_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "hwprof_rtl_cli.h"
#include "path_frontend_rtl_impl.h"

namespace hwprof::sim {

std::string PathConfig::name() const { return fmt::format("q{}_d{}_l{}", queue_depth, depth, max_len); }

RtlRegistry<PathClassifierRtl>& path_classifier_registry() {
  static RtlRegistry<PathClassifierRtl> r = [] {
    RtlRegistry<PathClassifierRtl> reg;
    HWPROF_RTL_CLI_path_classifier(HWPROF_PATH_CLASSIFIER_RTL_ADD)
    return reg;
  }();
  return r;
}

RtlRegistry<PathStackRtl>& path_stack_registry() {
  static RtlRegistry<PathStackRtl> r = [] {
    RtlRegistry<PathStackRtl> reg;
    HWPROF_RTL_CLI_path_stack(HWPROF_PATH_STACK_RTL_ADD)
    return reg;
  }();
  return r;
}

RtlRegistry<PathFrontendRtl>& path_frontend_registry() {
  static RtlRegistry<PathFrontendRtl> r = [] {
    RtlRegistry<PathFrontendRtl> reg;
    HWPROF_RTL_CLI_path_frontend(HWPROF_PATH_FRONTEND_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimOptions& opt, const std::string& wave_name,
                                                            uint64_t seed) {
  if (auto p = path_classifier_registry().make("path_classifier", opt, wave_name, seed)) return p;
  throw std::invalid_argument("path_classifier has no RTL build in this library");
}

std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimOptions& opt,
                                                  const std::string& wave_name, uint64_t seed) {
  const std::string n = fmt::format("d{}_l{}", cfg.depth, cfg.max_len);
  if (auto p = path_stack_registry().make(n, opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("path_stack depth {} MaxLen {} has no RTL build (Verilated: {})", cfg.depth,
                                          cfg.max_len, path_stack_registry().names()));
}

std::unique_ptr<PathFrontendRtl> make_path_frontend_rtl(const PathConfig& cfg, const SimOptions& opt,
                                                        const std::string& wave_name, uint64_t seed) {
  if (auto p = path_frontend_registry().make(cfg.name(), opt, wave_name, seed)) return p;
  throw std::invalid_argument(fmt::format("path_frontend queue {} depth {} MaxLen {} has no RTL build "
                                          "(Verilated: {})",
                                          cfg.queue_depth, cfg.depth, cfg.max_len, path_frontend_registry().names()));
}

}  // namespace hwprof::sim
