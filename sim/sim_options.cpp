#include "sim_options.h"

#include <sys/stat.h>

namespace hwprof::sim {

std::string SimOptions::wave_path(const std::string& name, uint64_t seed) const {
  if (!wave_file.empty()) return wave_file;
  mkdir(wave_dir.c_str(), 0755);
  return wave_dir + "/" + name + "_seed" + std::to_string(seed) + ".fst";
}

}  // namespace hwprof::sim
