rtl/prim/hwprof_ram_2p.sv
rtl/rap/hwprof_rap_counter_ram.sv
