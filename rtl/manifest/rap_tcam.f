rtl/rap/rap_tcam.sv
