# The shared phase cells' lock-step tests: the Markov next-phase predictor
# and the interval counter (docs/phase.md); configurations in sim/rtl_configs.cmake.
add_executable(tb_markov phase/markov_test.cpp)
target_compile_options(tb_markov PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_markov PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_markov PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_markov
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
