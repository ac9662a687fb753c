# The shared phase cells: the Markov next-phase predictor and the interval
# counter (docs/phase.md), their engines and lock-step tests.
hwprof_manifest(hwprof_markov_predictor MP_SOURCES)
foreach(e 256 4)
  hwprof_verilate(PREFIX Vmarkov_predictor_e${e} TOP hwprof_markov_predictor SOURCES ${MP_SOURCES} PARAMS Entries=${e})
endforeach()
hwprof_manifest(hwprof_interval_counter IC_SOURCES)
foreach(cfg "32;40" "8;18")
  list(GET cfg 0 iw)
  list(GET cfg 1 cw)
  hwprof_verilate(PREFIX Vinterval_counter_i${iw}_c${cw} TOP hwprof_interval_counter SOURCES ${IC_SOURCES}
    PARAMS IntervalW=${iw} CountW=${cw})
endforeach()
target_sources(hwprof_tb PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/phase/markov_rtl.cpp)
target_include_directories(hwprof_tb PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/phase)

add_executable(tb_markov phase/markov_test.cpp)
target_compile_options(tb_markov PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_markov PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_markov PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_markov
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
