rtl/common/hwprof_pkg.sv
rtl/prim/hwprof_prim_pkg.sv
rtl/prim/hwprof_fifo_sync.sv
rtl/path_profiler/hwprof_branch_queue.sv
