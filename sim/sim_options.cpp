#include "sim_options.h"

#include <filesystem>
#include <system_error>
#include <sys/stat.h>

namespace hwprof::sim {

std::string SimOptions::wave_path(const std::string& name, uint64_t seed) const {
  if (!wave_file.empty()) return wave_file;
  std::error_code ec;  // an existing directory or a failure shows when the FST is opened
  std::filesystem::create_directories(wave_dir, ec);
  return wave_dir + "/" + name + "_seed" + std::to_string(seed) + ".fst";
}

}  // namespace hwprof::sim
