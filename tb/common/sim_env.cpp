#include "sim_env.h"

#include <cstdlib>
#include <string>

namespace hwprof::tb {

namespace {
uint64_t env_u64(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  if (!v || !*v) return dflt;
  return std::strtoull(v, nullptr, 0);
}
}  // namespace

SimEnv SimEnv::from_env() {
  SimEnv e;
  e.seed = env_u64("SEED", 1);
  e.seeds = static_cast<unsigned>(env_u64("SEEDS", 0));
  e.trace = env_u64("TRACE", 0) != 0;
  e.trace_start = env_u64("TRACE_START", 0);
  e.trace_end = env_u64("TRACE_END", UINT64_MAX);
  if (const char* d = std::getenv("WAVE_DIR"); d && *d) e.wave_dir = d;
  e.idle_pct = static_cast<int>(env_u64("IDLE_PCT", static_cast<uint64_t>(-1)));
  e.stall_pct = static_cast<int>(env_u64("STALL_PCT", static_cast<uint64_t>(-1)));
  return e;
}

sim::SimOptions SimEnv::options() const {
  sim::SimOptions o;
  o.wave = trace;
  o.wave_dir = wave_dir;
  o.wave_start = trace_start;
  o.wave_end = trace_end;
  return o;
}

std::string SimEnv::wave_path(const std::string& test, uint64_t s) const { return options().wave_path(test, s); }

}  // namespace hwprof::tb
