// Lock-step engines of the path-stack front end (path_classifier, path_stack
// and the whole path_frontend): the models against the Verilated engines
// (sim/path_frontend_rtl.h), with the scoreboard fields.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep.h"
#include "path_frontend.h"
#include "path_frontend_rtl.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

using sim::PathConfig;
using sim::RtlEngine;
using sim::PathClassifierRtl;
using sim::PathStackRtl;
using sim::PathFrontendRtl;

std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimEnv& env, const std::string& wave_name,
                                                            uint64_t seed);
/// Configurations with a Verilated path_stack (depth, max_len), every one
/// (CLI and test-only) in the order of sim/rtl_configs.cmake.
const std::vector<PathConfig>& path_stack_configs();
std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimEnv& env,
                                                  const std::string& wave_name, uint64_t seed);
/// Configurations with a Verilated path_frontend (list order; the first is the default).
const std::vector<PathConfig>& path_frontend_configs();
/// Throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<PathFrontendRtl> make_path_frontend_rtl(const PathConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed);

// Scoreboard hooks (see lockstep.h).
template <>
struct LockstepTraits<model::PathClassifier> {
  static std::string describe(const model::PathClassifier::In& in);
  static std::vector<Field> fields(const model::PathClassifier::Out& e, const model::PathClassifier::Out& a);
};
template <>
struct LockstepTraits<model::PathStack> {
  static std::string describe(const model::PathStack::In& in);
  static std::vector<Field> fields(const model::PathStack::Out& e, const model::PathStack::Out& a);
};
template <>
struct LockstepTraits<model::PathFrontend> {
  static std::string describe(const model::PathFrontend::In& in);
  static std::vector<Field> fields(const model::PathFrontend::Out& e, const model::PathFrontend::Out& a);
};


using PathClassifierLockstep = Lockstep<model::PathClassifier, PathClassifierRtl>;
using PathStackLockstep = Lockstep<model::PathStack, PathStackRtl>;
using PathFrontendLockstep = Lockstep<model::PathFrontend, PathFrontendRtl>;

PathClassifierLockstep make_path_classifier_lockstep(const SimEnv& env, const std::string& name, uint64_t seed);
PathStackLockstep make_path_stack_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                           uint64_t seed);
PathFrontendLockstep make_path_frontend_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                                 uint64_t seed);

}  // namespace hwprof::tb
