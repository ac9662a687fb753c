// hwprof_assert.svh: assertion macros that stay live in Verilator (--assert)
// and vanish in synthesis (SYNTHESIS is defined by the synthesis scripts).
`ifndef HWPROF_ASSERT_SVH
`define HWPROF_ASSERT_SVH

`ifndef SYNTHESIS
// Concurrent assertion on clk_i, disabled during reset.
`define HWPROF_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[%m] assertion %s failed", `"name`");
`else
`define HWPROF_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni)
`endif

`endif
