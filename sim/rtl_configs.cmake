# Every Verilated RTL configuration, written once. CMake turns this list into
# the verilate() calls of the two Verilated libraries and the C++ registry the
# engine factories read (cmake/hwprof_rtl.cmake).
#
#   hwprof_rtl_unit(<unit> TOP <top module> MANIFEST <top of its rtl/**/*.core>)
#   hwprof_rtl_config(<Vprefix> cli|test [Param=value ...])
#
# <unit> is the registry key of the C++ engines (sim/<unit>_rtl.cpp), fixed;
# TOP and MANIFEST name the RTL. `cli`: built into hwprof_rtl_cli (sim/),
# reachable from the hwprof CLI; `test`: built into hwprof_rtl_test (tb/),
# linked only by tests. Parameter values reach the registry in the order
# written, so every configuration of a unit lists the same parameters in the
# same order; the first configuration of a unit is its default.

# The branch queue: every depth is a CLI choice (hwprof profile --unit queue --depth).
hwprof_rtl_unit(branch_queue TOP hwprof_branch_queue MANIFEST hwprof_branch_queue)
hwprof_rtl_config(Vbranch_queue_d1 cli Depth=1)
hwprof_rtl_config(Vbranch_queue_d2 cli Depth=2)
hwprof_rtl_config(Vbranch_queue_d4 cli Depth=4)
hwprof_rtl_config(Vbranch_queue_d8 cli Depth=8)

# Path-stack front end (docs/path_stack.md).
hwprof_rtl_unit(path_classifier TOP hwprof_path_classifier MANIFEST hwprof_path_classifier)
hwprof_rtl_config(Vpath_classifier test)
hwprof_rtl_unit(path_stack TOP hwprof_path_stack MANIFEST hwprof_path_stack)
hwprof_rtl_config(Vpath_stack_d16_l32 test Depth=16 MaxLen=32)
hwprof_rtl_config(Vpath_stack_d4_l8 test Depth=4 MaxLen=8)
hwprof_rtl_config(Vpath_stack_d1_l1 test Depth=1 MaxLen=1)
hwprof_rtl_unit(path_frontend TOP hwprof_path_frontend MANIFEST hwprof_path_frontend)
hwprof_rtl_config(Vpath_frontend_q4_d16_l32 cli QueueDepth=4 Depth=16 MaxLen=32)
hwprof_rtl_config(Vpath_frontend_q2_d4_l8 test QueueDepth=2 Depth=4 MaxLen=8)

# Hot Path Table (docs/hpt.md): 128 x 4, 4 x 2 (a set fills after two paths),
# 1 x 4 (fully associative), 16 x 8 (a three-level minimum search).
hwprof_rtl_unit(hpt TOP hwprof_hpt MANIFEST hwprof_hpt)
hwprof_rtl_config(Vhpt_s128_w4 test Sets=128 Ways=4)
hwprof_rtl_config(Vhpt_s4_w2 test Sets=4 Ways=2)
hwprof_rtl_config(Vhpt_s1_w4 test Sets=1 Ways=4)
hwprof_rtl_config(Vhpt_s16_w8 test Sets=16 Ways=8)

# The whole path profiler (front end + HPT; docs/path_profiler.md).
hwprof_rtl_unit(path_profiler TOP hwprof_path_profiler MANIFEST hwprof_path_profiler)
hwprof_rtl_config(Vpath_profiler_q4_d16_l32_s128_w4 cli QueueDepth=4 Depth=16 MaxLen=32 Sets=128 Ways=4)
hwprof_rtl_config(Vpath_profiler_q2_d4_l8_s4_w2 test QueueDepth=2 Depth=4 MaxLen=8 Sets=4 Ways=2)

# Phase cells (docs/phase.md): Markov predictor, interval counter.
hwprof_rtl_unit(markov_predictor TOP hwprof_markov_predictor MANIFEST hwprof_markov_predictor)
# e256 builds the LUT RAM form (LutRam=1, the ECP5 default), e4 the block RAM
# form (the default elsewhere; also in every DCR and detector build). Trained
# bits in flip-flops (TrainRam=0) in both and in the DCR; in a RAM with live
# words (TrainRam=1, the detectors' form) in e64 (block RAM, 4 words of 16),
# e8 (LUT RAM, 2 words of 4) and e2 (block RAM, one word of 2).
hwprof_rtl_config(Vmarkov_predictor_e256 test Entries=256 LutRam=1 TrainRam=0 TrainW=16)
hwprof_rtl_config(Vmarkov_predictor_e4 test Entries=4 LutRam=0 TrainRam=0 TrainW=16)
hwprof_rtl_config(Vmarkov_predictor_e64 test Entries=64 LutRam=0 TrainRam=1 TrainW=16)
hwprof_rtl_config(Vmarkov_predictor_e8 test Entries=8 LutRam=1 TrainRam=1 TrainW=4)
hwprof_rtl_config(Vmarkov_predictor_e2 test Entries=2 LutRam=0 TrainRam=1 TrainW=16)
hwprof_rtl_unit(interval_counter TOP hwprof_interval_counter MANIFEST hwprof_interval_counter)
hwprof_rtl_config(Vinterval_counter_i32_c40 test IntervalW=32 CountW=40)
hwprof_rtl_config(Vinterval_counter_i8_c18 test IntervalW=8 CountW=18)

# DCR phase tracker (docs/dcr.md): 32/64/256, 4/2/4 (overflow, LRU eviction
# and Markov aliasing within a few records), 8/5/2 (a table size that is not a
# power of two).
hwprof_rtl_unit(dcr_tracker TOP hwprof_dcr_tracker MANIFEST hwprof_dcr_tracker)
hwprof_rtl_config(Vdcr_tracker_d32_s64_m256 cli Depth=32 SigEntries=64 MarkovEntries=256)
hwprof_rtl_config(Vdcr_tracker_d4_s2_m4 test Depth=4 SigEntries=2 MarkovEntries=4)
hwprof_rtl_config(Vdcr_tracker_d8_s5_m2 test Depth=8 SigEntries=5 MarkovEntries=2)

# Path-based and BBV phase detectors (docs/phase_detector.md); Mode 0 = BBV, 1 = path.
hwprof_rtl_unit(phase_detector TOP hwprof_phase_detector MANIFEST hwprof_phase_detector)
hwprof_rtl_config(Vphase_detector_bbv_default cli
  Mode=0 Counters=32 SigW=10 Entries=32 MarkovEntries=256 Threshold=128 Depth=16 MaxLen=32)
hwprof_rtl_config(Vphase_detector_path_default cli
  Mode=1 Counters=32 SigW=10 Entries=32 MarkovEntries=256 Threshold=128 Depth=16 MaxLen=32)
hwprof_rtl_config(Vphase_detector_bbv_small test
  Mode=0 Counters=4 SigW=4 Entries=2 MarkovEntries=4 Threshold=4 Depth=4 MaxLen=8)
hwprof_rtl_config(Vphase_detector_path_small test
  Mode=1 Counters=4 SigW=4 Entries=2 MarkovEntries=4 Threshold=4 Depth=4 MaxLen=8)

# RAP engine (docs/rap_engine.md); TcamSlice 0 = the flip-flop TCAM.
hwprof_rtl_unit(rap_engine TOP hwprof_rap_engine MANIFEST hwprof_rap_engine)
hwprof_rtl_config(Vrap_engine_w32_g127_q1024_t4 cli RangeW=32 Groups=127 QueueDepth=1024 TcamSlice=4)
hwprof_rtl_config(Vrap_engine_w8_g8_q4_t4 test RangeW=8 Groups=8 QueueDepth=4 TcamSlice=4)
hwprof_rtl_config(Vrap_engine_w8_g8_q4_t0 test RangeW=8 Groups=8 QueueDepth=4 TcamSlice=0)
# The same engine at RangeW = 64 on the interleaved (code, data) keys of the
# 2-D RAP tree (docs/rap2d.md, "Engine"): its own unit, because its C++
# engine is model::RapEngine64 (64-bit values), not model::RapEngine.
hwprof_rtl_unit(rap_engine64 TOP hwprof_rap_engine MANIFEST hwprof_rap_engine)
# hwprof profile --unit rap2d --engine rtl: the 1-D CLI build's Groups, queue
# and TCAM at RangeW = 64 (sim::kRap2dDefault).
hwprof_rtl_config(Vrap_engine_w64_g127_q1024_t4 cli RangeW=64 Groups=127 QueueDepth=1024 TcamSlice=4)
hwprof_rtl_config(Vrap_engine_w64_g8_q4_t4 test RangeW=64 Groups=8 QueueDepth=4 TcamSlice=4)
hwprof_rtl_config(Vrap_engine_w64_g8_q4_t0 test RangeW=64 Groups=8 QueueDepth=4 TcamSlice=0)

# RAP stages (per-stage lock-step tests, tb/rap/rap_stage*_test.cpp).
hwprof_rtl_unit(rap_merge_buffer TOP hwprof_rap_merge_buffer MANIFEST hwprof_rap_merge_buffer)
hwprof_rtl_config(Vrap_merge_buffer_m4 test MaxBuf=4 ValW=8)
# The engine's event queue is the primitive hwprof_fifo_sync with RamRead = 1.
hwprof_rtl_unit(rap_event_queue TOP hwprof_fifo_sync MANIFEST hwprof_fifo_sync)
hwprof_rtl_config(Vrap_event_queue_d4_w8 test Depth=4 Width=8 RamRead=1)
hwprof_rtl_config(Vrap_event_queue_d16_w48 test Depth=16 Width=48 RamRead=1)
hwprof_rtl_config(Vrap_event_queue_d5_w8 test Depth=5 Width=8 RamRead=1)
hwprof_rtl_unit(rap_arbiter TOP hwprof_rap_arbiter MANIFEST hwprof_rap_arbiter)
hwprof_rtl_config(Vrap_arbiter_w32_g127 test RangeW=32 Groups=127)
hwprof_rtl_config(Vrap_arbiter_w8_g16 test RangeW=8 Groups=16)
hwprof_rtl_config(Vrap_arbiter_w2_g1 test RangeW=2 Groups=1)
hwprof_rtl_unit(rap_threshold TOP hwprof_rap_threshold MANIFEST hwprof_rap_threshold)
hwprof_rtl_config(Vrap_threshold_w2_c40 test RangeW=2 CntW=40)
hwprof_rtl_config(Vrap_threshold_w4_c40 test RangeW=4 CntW=40)
hwprof_rtl_config(Vrap_threshold_w8_c40 test RangeW=8 CntW=40)
hwprof_rtl_config(Vrap_threshold_w16_c40 test RangeW=16 CntW=40)
hwprof_rtl_config(Vrap_threshold_w32_c40 test RangeW=32 CntW=40)
hwprof_rtl_config(Vrap_threshold_w2_c64 test RangeW=2 CntW=64)
hwprof_rtl_config(Vrap_threshold_w32_c64 test RangeW=32 CntW=64)
hwprof_rtl_unit(rap_tcam TOP hwprof_rap_tcam MANIFEST hwprof_rap_tcam)
hwprof_rtl_config(Vrap_tcam_w8_g8 test RangeW=8 Groups=8)
hwprof_rtl_config(Vrap_tcam_w32_g16 test RangeW=32 Groups=16)
hwprof_rtl_unit(rap_tcam_ram TOP hwprof_rap_tcam_ram MANIFEST hwprof_rap_tcam_ram)
hwprof_rtl_config(Vrap_tcam_ram_w8_g8_s4 test RangeW=8 Groups=8 SliceW=4)
hwprof_rtl_config(Vrap_tcam_ram_w32_g16_s4 test RangeW=32 Groups=16 SliceW=4)
hwprof_rtl_config(Vrap_tcam_ram_w8_g4_s8 test RangeW=8 Groups=4 SliceW=8)
hwprof_rtl_config(Vrap_tcam_ram_w8_g8_s2 test RangeW=8 Groups=8 SliceW=2)
hwprof_rtl_unit(rap_counter_ram TOP hwprof_rap_counter_ram MANIFEST hwprof_rap_counter_ram)
hwprof_rtl_config(Vrap_counter_ram_g8_c40 test Groups=8 CntW=40)
hwprof_rtl_config(Vrap_counter_ram_g1_c33 test Groups=1 CntW=33)
hwprof_rtl_config(Vrap_counter_ram_g127_c40 test Groups=127 CntW=40)

# Hot Path Table with the probation area of policy 3, lfu+prob (docs/hpt.md,
# issue 21): 128 x 4 with the recommended 128 x 4 x (12 + 14) area, and a
# tiny 4 x 2 table with a 2 x 2 x (4 + 3) area (fingerprints alias, counts
# saturate at 7). Test-only; same TOP as hpt, its own parameter list.
hwprof_rtl_unit(hpt_prob TOP hwprof_hpt MANIFEST hwprof_hpt)
hwprof_rtl_config(Vhpt_prob_s128_w4_p128 test Sets=128 Ways=4 ProbSets=128 ProbWays=4 ProbFpBits=12 ProbCountBits=14)
hwprof_rtl_config(Vhpt_prob_s4_w2_p2 test Sets=4 Ways=2 ProbSets=2 ProbWays=2 ProbFpBits=4 ProbCountBits=3)
# The whole path profiler with that area (128 x 4 + 128 x 4 x (12 + 14)).
hwprof_rtl_unit(path_profiler_prob TOP hwprof_path_profiler MANIFEST hwprof_path_profiler)
hwprof_rtl_config(Vpath_profiler_prob_q4_d16_l32_s128_w4_p128 test
  QueueDepth=4 Depth=16 MaxLen=32 Sets=128 Ways=4 ProbSets=128 ProbWays=4 ProbFpBits=12 ProbCountBits=14)
