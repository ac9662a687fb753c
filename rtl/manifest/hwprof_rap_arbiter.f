rtl/prim/hwprof_lzc.sv
rtl/rap/hwprof_rap_arbiter.sv
