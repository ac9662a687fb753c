# The interval boundary counter (docs/phase.md).
rtl/common/hwprof_pkg.sv
rtl/phase/hwprof_interval_counter.sv
