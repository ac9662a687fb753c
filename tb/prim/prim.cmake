# prim/prim: the shared primitives (rtl/prim/, docs/prim.md): small
# configurations of each, and tb_prim (exhaustive for small widths, lock-step
# against the C++ models otherwise). Included from tb/CMakeLists.txt.
#
# The configurations are Verilated into tb_prim itself (same Verilator
# arguments as hwprof_verilate), not into hwprof_rtl: nothing else links
# them, and tb_prim then builds and runs without the units' libraries (it
# takes the harness and its options from sim/ as sources).
# The lock-step tests compare through the scoreboard (common/scoreboard.cpp,
# common/fail_wave.cpp: failure waveforms, docs/debugging.md).
add_executable(tb_prim prim/prim_test.cpp common/sim_env.cpp common/scoreboard.cpp common/fail_wave.cpp
  ${CMAKE_SOURCE_DIR}/sim/sim_options.cpp)
set(PRIM_DIR ${HWPROF_RTL_DIR}/prim)
function(prim_verilate prefix top)
  set(params)
  foreach(p IN LISTS ARGN)
    list(APPEND params -G${p})
  endforeach()
  verilate(tb_prim
    PREFIX ${prefix}
    TOP_MODULE ${top}
    DIRECTORY ${CMAKE_BINARY_DIR}/verilated/${prefix}
    SOURCES ${PRIM_DIR}/hwprof_prim_pkg.sv ${PRIM_DIR}/${top}.sv
    TRACE_FST
    VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} ${params})
endfunction()
foreach(cfg "8;0" "8;1" "5;0" "1;0")
  list(GET cfg 0 n)
  list(GET cfg 1 h)
  prim_verilate(Vprim_lzc_n${n}_h${h} hwprof_lzc N=${n} HighFirst=${h})
endforeach()
foreach(n 8 5)
  prim_verilate(Vprim_onehot2bin_n${n} hwprof_onehot2bin N=${n})
endforeach()
# N; W; ArgMax; Pipe.
foreach(cfg "4;2;0;0" "4;2;1;0" "5;3;0;0" "5;3;0;1" "5;3;1;1" "1;2;0;0")
  list(GET cfg 0 n)
  list(GET cfg 1 w)
  list(GET cfg 2 m)
  list(GET cfg 3 p)
  prim_verilate(Vprim_argmin_n${n}_w${w}_m${m}_p${p} hwprof_argmin_tree N=${n} W=${w} ArgMax=${m} Pipe=${p})
endforeach()
foreach(d 1 2 4 5)
  foreach(r 0 1)
    prim_verilate(Vprim_fifo_d${d}_r${r} hwprof_fifo_sync Depth=${d} Width=8 RamRead=${r})
  endforeach()
  prim_verilate(Vprim_fifo_d${d}_p2 hwprof_fifo_sync Depth=${d} Width=8 NPush=2)
endforeach()
foreach(g 1 4)
  prim_verilate(Vprim_ram_2p_g${g} hwprof_ram_2p Depth=8 Width=12 GranW=${g})
endforeach()
prim_verilate(Vprim_ram_2p_d1 hwprof_ram_2p Depth=1 Width=4 GranW=2)
foreach(cfg "3;4;3" "4;1;1")
  list(GET cfg 0 n)
  list(GET cfg 1 w)
  list(GET cfg 2 a)
  prim_verilate(Vprim_stat_bank_n${n}_w${w}_a${a} hwprof_stat_bank N=${n} W=${w} AddW=${a})
endforeach()

set_source_files_properties(prim/prim_test.cpp common/sim_env.cpp common/scoreboard.cpp common/fail_wave.cpp
  ${CMAKE_SOURCE_DIR}/sim/sim_options.cpp PROPERTIES COMPILE_OPTIONS "${HWPROF_WARNINGS}")
target_compile_definitions(tb_prim PRIVATE HWPROF_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(tb_prim PRIVATE -O1 -Wno-unused-variable)
target_include_directories(tb_prim PRIVATE common ${CMAKE_SOURCE_DIR}/sim ${CMAKE_SOURCE_DIR}/sim_models/common)
target_include_directories(tb_prim SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_link_libraries(tb_prim PRIVATE GTest::gtest GTest::gtest_main)
gtest_discover_tests(tb_prim
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
