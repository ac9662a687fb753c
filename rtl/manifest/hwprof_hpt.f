rtl/prim/hwprof_prim_pkg.sv
rtl/prim/hwprof_lzc.sv
rtl/prim/hwprof_argmin_tree.sv
rtl/prim/hwprof_stat_bank.sv
rtl/prim/hwprof_ram_2p.sv
rtl/path_profiler/hwprof_hpt.sv
