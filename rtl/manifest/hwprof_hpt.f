rtl/common/hwprof_sdp_ram.sv
rtl/path_profiler/hwprof_hpt.sv
