# phase/detector: lock-step tests of the path-based phase detector and the
# BBV baseline (docs/phase_detector.md); configurations in sim/rtl_configs.cmake.
add_executable(tb_detector phase/detector_test.cpp)
target_compile_options(tb_detector PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_detector PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_detector PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_detector
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
