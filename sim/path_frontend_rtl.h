// The Verilated path-stack front end (path_classifier, path_stack and the
// whole path_frontend) behind their models' In/Out interfaces.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "path_frontend.h"
#include "rtl_engine.h"

namespace hwprof::sim {

/// Parameters of a Verilated path-stack configuration.
struct PathConfig {
  unsigned queue_depth = 4;  ///< path_frontend only
  unsigned depth = 16;
  unsigned max_len = 32;
  std::string name() const;  ///< "q4_d16_l32"
};
inline void PrintTo(const PathConfig& c, std::ostream* os) { *os << c.name(); }

using PathClassifierRtl = RtlEngine<model::PathClassifier>;
using PathStackRtl = RtlEngine<model::PathStack>;
using PathFrontendRtl = RtlEngine<model::PathFrontend>;

/// The path_classifier build (one, no parameters), key "path_classifier".
RtlRegistry<PathClassifierRtl>& path_classifier_registry();
/// path_stack builds by "d<Depth>_l<MaxLen>".
RtlRegistry<PathStackRtl>& path_stack_registry();
/// path_frontend builds by PathConfig::name().
RtlRegistry<PathFrontendRtl>& path_frontend_registry();

/// Each throws std::invalid_argument for a configuration that was not Verilated.
std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimOptions& opt, const std::string& wave_name,
                                                            uint64_t seed);
std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimOptions& opt,
                                                  const std::string& wave_name, uint64_t seed);
std::unique_ptr<PathFrontendRtl> make_path_frontend_rtl(const PathConfig& cfg, const SimOptions& opt,
                                                        const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
