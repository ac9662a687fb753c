rtl/rap/rap_threshold.sv
