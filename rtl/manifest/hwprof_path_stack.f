rtl/common/hwprof_pkg.sv
rtl/prim/hwprof_prim_pkg.sv
rtl/prim/hwprof_stat_bank.sv
rtl/path_profiler/hwprof_path_stack.sv
