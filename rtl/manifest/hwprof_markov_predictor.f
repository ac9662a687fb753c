# The Markov next-phase predictor (docs/phase.md).
rtl/common/hwprof_sdp_ram.sv
rtl/phase/hwprof_markov_predictor.sv
