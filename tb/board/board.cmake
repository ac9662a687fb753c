# board/board: lock-step tests of the board shell (rtl/board/, docs/boards.md)
# against its cycle model (sim_models/board/), driven through the UART line
# with frames of the link codec. Included from tb/CMakeLists.txt.
#
# hwprof_board_core with the path profiler (queue 2, stack 4, MaxLen 8, HPT
# 4 x 2), a 64-byte receive buffer and 4 clocks per UART bit, Verilated into
# tb_board itself (nothing else links it).
add_executable(tb_board board/board_test.cpp common/sim_env.cpp common/fail_wave.cpp ${CMAKE_SOURCE_DIR}/sim/sim_options.cpp)
hwprof_manifest(hwprof_board_core BOARD_SOURCES)
verilate(tb_board
  PREFIX Vboard_core_path
  TOP_MODULE hwprof_board_core
  DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vboard_core_path
  SOURCES ${BOARD_SOURCES}
  TRACE_FST
  VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GBoard=3 -GClkHz=460800 -GBaud=115200 -GRxBytes=64 -GEnPath=1
    -GPathQueue=2 -GPathDepth=4 -GPathMaxLen=8 -GPathSets=4 -GPathWays=2)
set_source_files_properties(board/board_test.cpp common/sim_env.cpp common/fail_wave.cpp ${CMAKE_SOURCE_DIR}/sim/sim_options.cpp PROPERTIES COMPILE_OPTIONS "${HWPROF_WARNINGS}")
# Failure waveforms (common/fail_wave.cpp, docs/debugging.md) find the saved layouts under the sources.
target_compile_definitions(tb_board PRIVATE HWPROF_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(tb_board PRIVATE -O1)
target_include_directories(tb_board PRIVATE common path_profiler ${CMAKE_SOURCE_DIR}/sim)
target_include_directories(tb_board SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_link_libraries(tb_board PRIVATE hwprof_models GTest::gtest GTest::gtest_main)
gtest_discover_tests(tb_board
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
# The path profiler and the BBV detector (results; two units on one stream).
verilate(tb_board
  PREFIX Vboard_core_pb
  TOP_MODULE hwprof_board_core
  DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vboard_core_pb
  SOURCES ${BOARD_SOURCES}
  TRACE_FST
  VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GBoard=3 -GClkHz=460800 -GBaud=115200 -GRxBytes=64 -GEnPath=1 -GEnBbv=1
    -GPathQueue=2 -GPathDepth=4 -GPathMaxLen=8 -GPathSets=4 -GPathWays=2
    -GBbvCounters=4 -GBbvSigW=4 -GBbvEntries=2 -GBbvMarkov=4 -GBbvInterval=300 -GBbvThreshold=4)
# The RAP engine (small: Groups 3, queue 16) and the DCR tracker (Depth 4,
# 4 signatures, Markov 4, intervals of 300 instructions): RAP counters and
# DCR results in lock step, the RAP dump against the engine fed directly.
verilate(tb_board
  PREFIX Vboard_core_rd
  TOP_MODULE hwprof_board_core
  DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vboard_core_rd
  SOURCES ${BOARD_SOURCES}
  TRACE_FST
  VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GBoard=3 -GClkHz=460800 -GBaud=115200 -GRxBytes=64 -GEnPath=0 -GEnRap=1
    -GEnDcr=1 -GRapGroups=3 -GRapQueue=16 -GDcrDepth=4 -GDcrSigEntries=4 -GDcrMarkov=4 -GDcrInterval=300)
# The path profiler, the BBV detector and an extra unit (ExtUnit = 1, kind 6,
# no parameters): the ext_* ports driven by the test's double of the unit, as
# hwprof_board_soc drives them with its SoC.
verilate(tb_board
  PREFIX Vboard_core_ext
  TOP_MODULE hwprof_board_core
  DIRECTORY ${CMAKE_BINARY_DIR}/verilated/Vboard_core_ext
  SOURCES ${BOARD_SOURCES}
  TRACE_FST
  VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} -GBoard=3 -GClkHz=460800 -GBaud=115200 -GRxBytes=64 -GEnPath=1
    -GPathQueue=2 -GPathDepth=4 -GPathMaxLen=8 -GPathSets=4 -GPathWays=2 -GEnBbv=1
    -GBbvCounters=4 -GBbvSigW=4 -GBbvEntries=2 -GBbvMarkov=4 -GBbvInterval=300 -GBbvThreshold=4 -GExtUnit=1 -GExtNParams=0)
