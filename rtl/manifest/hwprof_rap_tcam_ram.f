rtl/rap/hwprof_rap_pkg.sv
rtl/prim/hwprof_ram_2p.sv
rtl/rap/hwprof_rap_tcam_flags.sv
rtl/rap/hwprof_rap_tcam_ram.sv
