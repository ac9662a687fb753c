rtl/rap/hwprof_rap_threshold.sv
