rtl/common/hwprof_pkg.sv
rtl/common/sync_fifo.sv
rtl/path_profiler/branch_queue.sv
