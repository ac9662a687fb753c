rtl/common/hwprof_pkg.sv
rtl/path_profiler/hwprof_ppcr_reg.sv
