# The Markov next-phase predictor (docs/phase.md).
rtl/prim/hwprof_ram_2p.sv
rtl/phase/hwprof_markov_predictor.sv
