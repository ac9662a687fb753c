# ingress/ingress: lock-step tests of the RVFI ingress (rtl/ingress/,
# docs/soc.md) against its cycle model (sim_models/ingress/). Included from
# tb/CMakeLists.txt. The configurations are Verilated into tb_rvfi_ingress
# itself (as tb_prim does): nothing else links them.
#   Vrvfi_ingress_d4/d2/d1      NRET 1, Depth 4, 2, 1 (ValDepth 4);
#   Vrvfi_ingress_n2_d4         NRET 2, Depth 4, ValDepth 4;
#   Vrvfi_ingress_n2_d2_v2      NRET 2, Depth 2, ValDepth 2 (both FIFOs
#                               overflow within a few clocks).
add_executable(tb_rvfi_ingress ingress/rvfi_ingress_test.cpp)
hwprof_manifest(hwprof_rvfi_ingress RVFI_INGRESS_SOURCES)
foreach(cfg "d4;1;4;4" "d2;1;2;4" "d1;1;1;4" "n2_d4;2;4;4" "n2_d2_v2;2;2;2")
  list(GET cfg 0 name)
  list(GET cfg 1 nret)
  list(GET cfg 2 d)
  list(GET cfg 3 v)
  verilate(tb_rvfi_ingress
    PREFIX Vrvfi_ingress_${name}
    TOP_MODULE hwprof_rvfi_ingress
    DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vrvfi_ingress_${name}
    SOURCES ${RVFI_INGRESS_SOURCES}
    TRACE_FST
    VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GDepth=${d} -GNret=${nret} -GValDepth=${v})
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
