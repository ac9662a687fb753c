# phase/detector: the path-based phase detector and the BBV baseline
# (docs/phase_detector.md): configurations, engines and lock-step tests.
hwprof_manifest(hwprof_phase_detector DET_SOURCES)
# name; Mode; Counters; SigW; Entries; MarkovEntries; Threshold; Depth; MaxLen
foreach(cfg "bbv_default;0;32;10;32;256;128;16;32" "path_default;1;32;10;32;256;128;16;32"
            "bbv_small;0;4;4;2;4;4;4;8" "path_small;1;4;4;2;4;4;4;8")
  list(GET cfg 0 name)
  list(GET cfg 1 mode)
  list(GET cfg 2 n)
  list(GET cfg 3 s)
  list(GET cfg 4 e)
  list(GET cfg 5 m)
  list(GET cfg 6 t)
  list(GET cfg 7 d)
  list(GET cfg 8 l)
  hwprof_verilate(PREFIX Vphase_detector_${name} TOP hwprof_phase_detector SOURCES ${DET_SOURCES}
    PARAMS Mode=${mode} Counters=${n} SigW=${s} Entries=${e} MarkovEntries=${m} Threshold=${t} Depth=${d} MaxLen=${l})
endforeach()
target_sources(hwprof_tb PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/phase/detector_rtl.cpp)
target_include_directories(hwprof_tb PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/phase)

add_executable(tb_detector phase/detector_test.cpp)
target_compile_options(tb_detector PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_detector PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_detector PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_detector
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
