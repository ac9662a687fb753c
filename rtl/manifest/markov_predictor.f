# The Markov next-phase predictor (docs/phase.md).
rtl/common/sdp_ram.sv
rtl/phase/markov_predictor.sv
