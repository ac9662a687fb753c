// The test-only Verilated configurations (hwprof_rtl_test, marked `test` in
// sim/rtl_configs.cmake) join the sim library's registries here, so the
// engine factories (sim::make_*_rtl) find them in tests; the hwprof CLI never
// links this.
#pragma once

namespace hwprof::tb {

/// Adds every test-only configuration to the sim registries (once).
void register_test_configs();

}  // namespace hwprof::tb
