rtl/rap/rap_event_queue.sv
rtl/rap/rap_merge_buffer.sv
rtl/rap/rap_threshold.sv
rtl/rap/rap_tcam.sv
rtl/rap/rap_arbiter.sv
rtl/rap/rap_engine.sv
