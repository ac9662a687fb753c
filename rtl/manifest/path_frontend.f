rtl/common/hwprof_pkg.sv
rtl/common/sync_fifo.sv
rtl/path_profiler/branch_queue.sv
rtl/path_profiler/ppcr_reg.sv
rtl/path_profiler/path_classifier.sv
rtl/path_profiler/path_stack.sv
rtl/path_profiler/path_frontend.sv
