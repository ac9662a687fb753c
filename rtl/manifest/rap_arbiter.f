rtl/rap/rap_arbiter.sv
