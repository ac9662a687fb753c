# phase/dcr: the DCR phase tracker's lock-step tests (docs/dcr.md); its
# configurations are in sim/rtl_configs.cmake.
add_executable(tb_dcr phase/dcr_test.cpp)
target_compile_options(tb_dcr PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_dcr PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_dcr PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_dcr
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
