rtl/rap/rap_event_queue.sv
