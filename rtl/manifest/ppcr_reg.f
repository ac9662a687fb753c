rtl/common/hwprof_pkg.sv
rtl/path_profiler/ppcr_reg.sv
