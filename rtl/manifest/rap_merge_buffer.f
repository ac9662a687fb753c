rtl/rap/rap_merge_buffer.sv
