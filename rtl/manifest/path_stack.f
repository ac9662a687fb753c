rtl/common/hwprof_pkg.sv
rtl/path_profiler/path_stack.sv
