rtl/common/hwprof_pkg.sv
rtl/path_profiler/hwprof_path_reg_pkg.sv
rtl/common/hwprof_sync_fifo.sv
rtl/path_profiler/hwprof_branch_queue.sv
rtl/path_profiler/hwprof_ppcr_reg.sv
rtl/path_profiler/hwprof_path_classifier.sv
rtl/path_profiler/hwprof_path_stack.sv
rtl/path_profiler/hwprof_path_frontend.sv
