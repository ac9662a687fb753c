// run_soc() of a build without PicoRV32 (pythondata-cpu-picorv32 missing
// from the venv when CMake ran): the SoC commands report why.
#include <stdexcept>

#include "soc_sim.h"

namespace hwprof::sim {

SocParams soc_params() { return {}; }
bool soc_available() { return false; }
std::string soc_unavailable_reason() {
  return "this hwprof was built without the SoC: pythondata-cpu-picorv32 was not in the venv (" HWPROF_SOC_VENV
         ") when CMake ran; run `make deps` and reconfigure";
}
SocResult run_soc(const std::string&, const SocConfig&) { throw std::runtime_error(soc_unavailable_reason()); }

}  // namespace hwprof::sim
