rtl/rap/hwprof_rap_merge_buffer.sv
