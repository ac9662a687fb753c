# Register maps from one source (docs/architecture.md, "Register maps"):
# data/regs/<unit>.json generates the unit's SystemVerilog package, the C++
# header of its model and the register table in its doc (scripts/regmap.py).
# The generated files are checked in; the target hwprof_regmap regenerates
# them into the build tree on every change of a data file or the generator,
# and the test regmap.fresh fails, naming the file, when a checked-in one is
# stale (fix: `make regs`).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
file(GLOB HWPROF_REGMAP_DATA CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/data/regs/*.json)
set(HWPROF_REGMAP_STAMP ${CMAKE_BINARY_DIR}/regmap/regmap.stamp)
add_custom_command(
  OUTPUT ${HWPROF_REGMAP_STAMP}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/regmap.py --out ${CMAKE_BINARY_DIR}/regmap
  COMMAND ${CMAKE_COMMAND} -E touch ${HWPROF_REGMAP_STAMP}
  DEPENDS ${HWPROF_REGMAP_DATA} ${CMAKE_SOURCE_DIR}/scripts/regmap.py
  COMMENT "regmap: generating register maps from data/regs/*.json"
  VERBATIM)
add_custom_target(hwprof_regmap ALL DEPENDS ${HWPROF_REGMAP_STAMP})
add_test(NAME regmap.fresh COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/regmap.py --check)
