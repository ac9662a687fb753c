# wave/: the lock-step comparison in the waveforms (docs/debugging.md).
#   rtl.WaveCompare.*  a model made wrong on purpose leaves an FST with both
#                      values and the mismatch flag at the reported cycle
#                      (traced, and through the failure re-run); the same
#                      for a RAP stage test (tb_rap) and a primitive test
#                      (tb_prim), which drive their tops themselves;
#   wave.layouts       every saved .gtkw names only signals that a freshly
#                      written FST of its unit has;
#   wave.diff          make wave-diff finds an injected difference.
# Included from tb/CMakeLists.txt.
add_executable(tb_wave wave/wave_test.cpp)
target_compile_options(tb_wave PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_wave PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
# The stage and primitive tests' failure waveforms: tb_wave runs their
# faulty-model tests (DISABLED_*) in tb_rap and tb_prim.
add_dependencies(tb_wave tb_rap tb_prim)
target_compile_definitions(tb_wave PRIVATE HWPROF_TB_RAP="$<TARGET_FILE:tb_rap>"
  HWPROF_TB_PRIM="$<TARGET_FILE:tb_prim>")
gtest_discover_tests(tb_wave
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
add_test(NAME wave.layouts COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/wave/check_layouts.py ${CMAKE_BINARY_DIR})
set_tests_properties(wave.layouts PROPERTIES TIMEOUT 600)
# wave.diff: make wave-diff's script finds the one injected difference.
add_test(NAME wave.diff COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/wave/check_diff.sh ${CMAKE_BINARY_DIR})
