rtl/rap/hwprof_rap_arbiter.sv
