rtl/common/sdp_ram.sv
rtl/rap/rap_tcam_ram.sv
