rtl/common/hwprof_pkg.sv
rtl/common/sdp_ram.sv
rtl/phase/interval_counter.sv
rtl/phase/markov_predictor.sv
rtl/phase/detector_core.sv
