rtl/rap/hwprof_rap_pkg.sv
rtl/rap/hwprof_rap_tcam_flags.sv
rtl/rap/hwprof_rap_tcam.sv
