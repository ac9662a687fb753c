rtl/rap/hwprof_rap_pkg.sv
rtl/common/hwprof_sdp_ram.sv
rtl/rap/hwprof_rap_tcam_flags.sv
rtl/rap/hwprof_rap_tcam_ram.sv
