rtl/common/sdp_ram.sv
rtl/path_profiler/hpt.sv
