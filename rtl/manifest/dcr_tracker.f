# The DCR phase tracker (docs/dcr.md) and the shared phase cells it instantiates.
rtl/common/hwprof_pkg.sv
rtl/common/sdp_ram.sv
rtl/phase/interval_counter.sv
rtl/phase/markov_predictor.sv
rtl/phase/dcr_tracker.sv
