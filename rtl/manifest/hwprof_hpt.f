rtl/path_profiler/hwprof_hpt_reg_pkg.sv
rtl/common/hwprof_sdp_ram.sv
rtl/path_profiler/hwprof_hpt.sv
