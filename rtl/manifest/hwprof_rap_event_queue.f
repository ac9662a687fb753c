rtl/rap/hwprof_rap_event_queue.sv
