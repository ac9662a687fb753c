# The DCR phase tracker (docs/dcr.md) and the shared phase cells it instantiates.
rtl/common/hwprof_pkg.sv
rtl/phase/hwprof_dcr_reg_pkg.sv
rtl/prim/hwprof_prim_pkg.sv
rtl/prim/hwprof_stat_bank.sv
rtl/prim/hwprof_lzc.sv
rtl/prim/hwprof_ram_2p.sv
rtl/phase/hwprof_interval_counter.sv
rtl/phase/hwprof_markov_predictor.sv
rtl/phase/hwprof_dcr_stack.sv
rtl/phase/hwprof_dcr_sigtable.sv
rtl/phase/hwprof_dcr_tracker.sv
