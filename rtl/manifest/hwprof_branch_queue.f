rtl/common/hwprof_pkg.sv
rtl/common/hwprof_sync_fifo.sv
rtl/path_profiler/hwprof_branch_queue.sv
