# phase/dcr: the DCR phase tracker (docs/dcr.md): configurations, engines and
# lock-step tests. Included from tb/CMakeLists.txt (verilate() must run in
# the directory that owns hwprof_rtl).
hwprof_manifest(hwprof_dcr_tracker DCR_SOURCES)
foreach(cfg "32;64;256" "4;2;4" "8;5;2")
  list(GET cfg 0 d)
  list(GET cfg 1 s)
  list(GET cfg 2 m)
  hwprof_verilate(PREFIX Vdcr_tracker_d${d}_s${s}_m${m} TOP hwprof_dcr_tracker SOURCES ${DCR_SOURCES}
    PARAMS Depth=${d} SigEntries=${s} MarkovEntries=${m})
endforeach()
target_sources(hwprof_tb PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/phase/dcr_rtl.cpp)
target_include_directories(hwprof_tb PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/phase)

add_executable(tb_dcr phase/dcr_test.cpp)
target_compile_options(tb_dcr PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_dcr PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_dcr PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_dcr
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
