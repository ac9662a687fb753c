rtl/common/hwprof_sdp_ram.sv
rtl/rap/hwprof_rap_counter_ram.sv
