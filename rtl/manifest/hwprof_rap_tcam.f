rtl/rap/hwprof_rap_tcam.sv
