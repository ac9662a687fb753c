# rap/rap: the RAP engine (docs/rap_engine.md): Verilated configurations, the
# RTL engine and the lock-step tests (see tb/CMakeLists.txt).
hwprof_manifest(hwprof_rap_engine RAP_SOURCES)
# RangeW; Groups; QueueDepth; TcamSlice (0: the flip-flop TCAM).
foreach(cfg "32;127;1024;4" "8;8;4;4" "8;8;4;0")
  list(GET cfg 0 w)
  list(GET cfg 1 g)
  list(GET cfg 2 q)
  list(GET cfg 3 t)
  hwprof_verilate(PREFIX Vrap_engine_w${w}_g${g}_q${q}_t${t} TOP hwprof_rap_engine SOURCES ${RAP_SOURCES}
    PARAMS RangeW=${w} Groups=${g} QueueDepth=${q} TcamSlice=${t})
endforeach()
# Stage configurations (per-stage lock-step tests).
hwprof_manifest(hwprof_rap_merge_buffer RMB_SOURCES)
hwprof_verilate(PREFIX Vrap_merge_buffer_m4 TOP hwprof_rap_merge_buffer SOURCES ${RMB_SOURCES} PARAMS MaxBuf=4 ValW=8)
# Event queue, arbiter and threshold unit (tb/rap/rap_stage2_test.cpp). The
# engine's event queue is the primitive hwprof_fifo_sync with RamRead = 1.
set(REQ_SOURCES ${CMAKE_SOURCE_DIR}/rtl/prim/hwprof_prim_pkg.sv ${CMAKE_SOURCE_DIR}/rtl/prim/hwprof_fifo_sync.sv)
foreach(cfg "4;8" "16;48" "5;8")
  list(GET cfg 0 d)
  list(GET cfg 1 w)
  hwprof_verilate(PREFIX Vrap_event_queue_d${d}_w${w} TOP hwprof_fifo_sync SOURCES ${REQ_SOURCES}
    PARAMS Depth=${d} Width=${w} RamRead=1)
endforeach()
hwprof_manifest(hwprof_rap_arbiter RARB_SOURCES)
foreach(cfg "32;127" "8;16" "2;1")
  list(GET cfg 0 w)
  list(GET cfg 1 g)
  hwprof_verilate(PREFIX Vrap_arbiter_w${w}_g${g} TOP hwprof_rap_arbiter SOURCES ${RARB_SOURCES} PARAMS RangeW=${w} Groups=${g})
endforeach()
hwprof_manifest(hwprof_rap_threshold RTHR_SOURCES)
foreach(cfg "2;40" "4;40" "8;40" "16;40" "32;40" "2;64" "32;64")
  list(GET cfg 0 w)
  list(GET cfg 1 c)
  hwprof_verilate(PREFIX Vrap_threshold_w${w}_c${c} TOP hwprof_rap_threshold SOURCES ${RTHR_SOURCES} PARAMS RangeW=${w} CntW=${c})
endforeach()
# TCAMs and counter SRAM (tb/rap/rap_stage3_test.cpp).
hwprof_manifest(hwprof_rap_tcam RTCAM_SOURCES)
foreach(cfg "8;8" "32;16")
  list(GET cfg 0 w)
  list(GET cfg 1 g)
  hwprof_verilate(PREFIX Vrap_tcam_w${w}_g${g} TOP hwprof_rap_tcam SOURCES ${RTCAM_SOURCES} PARAMS RangeW=${w} Groups=${g})
endforeach()
hwprof_manifest(hwprof_rap_tcam_ram RTCAMR_SOURCES)
foreach(cfg "8;8;4" "32;16;4" "8;4;8" "8;8;2")
  list(GET cfg 0 w)
  list(GET cfg 1 g)
  list(GET cfg 2 s)
  hwprof_verilate(PREFIX Vrap_tcam_ram_w${w}_g${g}_s${s} TOP hwprof_rap_tcam_ram SOURCES ${RTCAMR_SOURCES}
    PARAMS RangeW=${w} Groups=${g} SliceW=${s})
endforeach()
hwprof_manifest(hwprof_rap_counter_ram RCRAM_SOURCES)
foreach(cfg "8;40" "1;33" "127;40")
  list(GET cfg 0 g)
  list(GET cfg 1 c)
  hwprof_verilate(PREFIX Vrap_counter_ram_g${g}_c${c} TOP hwprof_rap_counter_ram SOURCES ${RCRAM_SOURCES} PARAMS Groups=${g} CntW=${c})
endforeach()
target_sources(hwprof_tb PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/rap/rap_engine_rtl.cpp)
target_include_directories(hwprof_tb PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/rap)

add_executable(tb_rap rap/rap_engine_test.cpp rap/rap_stage_test.cpp rap/rap_stage2_test.cpp rap/rap_stage3_test.cpp rap/rap_val_test.cpp)
target_compile_options(tb_rap PRIVATE ${HWPROF_WARNINGS})
target_link_libraries(tb_rap PRIVATE hwprof_tb GTest::gtest GTest::gtest_main)
target_compile_definitions(tb_rap PRIVATE HWPROF_TRACE_DIR="${CMAKE_SOURCE_DIR}/tests/traces")
gtest_discover_tests(tb_rap
  TEST_PREFIX "rtl."
  NO_PRETTY_VALUES
  PROPERTIES ENVIRONMENT "WAVE_DIR=${CMAKE_BINARY_DIR}/waves"
  DISCOVERY_TIMEOUT 60)
