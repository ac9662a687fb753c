# rap/rap: lock-step tests of the RAP engine and its stages
# (docs/rap_engine.md); configurations in sim/rtl_configs.cmake.
add_executable(tb_rap rap/rap_engine_test.cpp rap/rap_stage_test.cpp rap/rap_stage2_test.cpp rap/rap_stage3_test.cpp rap/rap_val_test.cpp)
target_compile_options(tb_rap PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_rap PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_rap PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_rap
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
target_sources(tb_rap PRIVATE rap/rap_corner_test.cpp)  # directed corners (coverage holes, docs/verification.md)
target_sources(tb_rap PRIVATE rap/rap2d_engine_test.cpp)  # the 2-D engine at RangeW = 64 (docs/rap2d.md)
