# ingress/ingress: lock-step tests of the RVFI ingress (rtl/ingress/,
# docs/soc.md) against its cycle model (sim_models/ingress/). Included from
# tb/CMakeLists.txt. The configurations are Verilated into tb_rvfi_ingress
# itself (as tb_prim does): nothing else links them.
add_executable(tb_rvfi_ingress ingress/rvfi_ingress_test.cpp)
hwprof_manifest(hwprof_rvfi_ingress RVFI_INGRESS_SOURCES)
foreach(d 4 2 1)
  verilate(tb_rvfi_ingress
    PREFIX Vrvfi_ingress_d${d}
    TOP_MODULE hwprof_rvfi_ingress
    DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vrvfi_ingress_d${d}
    SOURCES ${RVFI_INGRESS_SOURCES}
    TRACE_FST
    VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GDepth=${d})
endforeach()
set_source_files_properties(ingress/rvfi_ingress_test.cpp PROPERTIES COMPILE_OPTIONS "${HWPROF_WARNINGS}")
target_compile_options(tb_rvfi_ingress PRIVATE -O1 -Wno-unused-variable)
target_include_directories(tb_rvfi_ingress SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_link_libraries(tb_rvfi_ingress PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
gtest_discover_tests(tb_rvfi_ingress
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
