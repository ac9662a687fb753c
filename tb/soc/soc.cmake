# soc/soc: the SoC (sim/soc/, docs/soc.md) on real programs: every workload
# of sw/workloads/ runs to its exit with the ingress' cycle model lock-stepped
# against the hardware ingress on PicoRV32's RVFI stream, and its hardware
# profiles (path profiler, RAP engine, DCR tracker, BBV detector) must equal
# the models' on the same records. Included from
# tb/CMakeLists.txt; registered only when the SoC and the workloads are built.
get_property(have_soc GLOBAL PROPERTY HWPROF_HAVE_SOC)
get_property(soc_elfs GLOBAL PROPERTY HWPROF_SOC_ELFS)
if(have_soc AND soc_elfs)
  add_executable(tb_soc soc/soc_test.cpp)
  target_compile_options(tb_soc PRIVATE ${HWPROF_WARNINGS})
  target_link_libraries(tb_soc PRIVATE hwprof_soc hwprof_tb GTest::gtest GTest::gtest_main)
  add_dependencies(tb_soc soc_workloads)
  target_compile_definitions(tb_soc PRIVATE HWPROF_SOC_ELF_DIR="${CMAKE_BINARY_DIR}/sw")
  gtest_discover_tests(tb_soc
    TEST_PREFIX "rtl."
    NO_PRETTY_VALUES
    PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
    DISCOVERY_TIMEOUT 60)
else()
  message(STATUS "SoC tests skipped (PicoRV32 or riscv64-unknown-elf-gcc missing: make deps)")
endif()
