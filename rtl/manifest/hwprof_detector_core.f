rtl/common/hwprof_pkg.sv
rtl/common/hwprof_sdp_ram.sv
rtl/phase/hwprof_interval_counter.sv
rtl/phase/hwprof_markov_predictor.sv
rtl/phase/hwprof_detector_core.sv
