rtl/common/sdp_ram.sv
rtl/rap/rap_counter_ram.sv
