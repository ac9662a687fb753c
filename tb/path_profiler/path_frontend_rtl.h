// The Verilated path-stack front end (path_classifier, path_stack and the
// whole path_frontend) behind their models' In/Out interfaces, with the
// scoreboard fields and lock-step engines.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep.h"
#include "path_frontend.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace hwprof::tb {

/// Parameters of a Verilated path-stack configuration.
struct PathConfig {
  unsigned queue_depth = 4;  ///< path_frontend only
  unsigned depth = 16;
  unsigned max_len = 32;
  std::string name() const;  ///< "q4_d16_l32"
};
inline void PrintTo(const PathConfig& c, std::ostream* os) { *os << c.name(); }

/// Common interface of the RTL engines (reset() works mid-stream too).
template <typename Model>
class RtlEngine {
 public:
  virtual ~RtlEngine() = default;
  virtual void reset() = 0;
  /// Applies `in`, samples the outputs, then clocks one rising edge.
  virtual typename Model::Out step(const typename Model::In& in) = 0;
  virtual uint64_t cycles() const = 0;
  virtual void flush_wave() = 0;
  virtual std::string wave_path() const = 0;
};

using PathClassifierRtl = RtlEngine<model::PathClassifier>;
using PathStackRtl = RtlEngine<model::PathStack>;
using PathFrontendRtl = RtlEngine<model::PathFrontend>;

std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimEnv& env, const std::string& wave_name,
                                                            uint64_t seed);
/// Configurations with a Verilated path_stack (depth, max_len).
const std::vector<PathConfig>& path_stack_configs();
std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimEnv& env,
                                                  const std::string& wave_name, uint64_t seed);
/// Configurations with a Verilated path_frontend.
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
