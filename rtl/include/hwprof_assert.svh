// hwprof_assert.svh: assertion macros that stay live in Verilator (--assert)
// and vanish in synthesis (SYNTHESIS is defined by the synthesis scripts).
//
// Label convention: every assertion, assumption and cover point is labelled
// in lower snake_case saying what must hold (`out_valid_held`,
// `count_in_range`, `grant_onehot0`), so a failure message reads as the
// broken rule. The label is the first macro argument and must be unique in
// its scope.
//
//   `HWPROF_ASSERT(name, prop [, clk, rst_n])
//       Concurrent assertion sampled at posedge clk (default clk_i), disabled
//       while rst_n (default rst_ni) is low. prop may use |-> / |=> / $past.
//   `HWPROF_ASSERT_KNOWN(name, sig [, clk, rst_n])
//       sig carries no X or Z at any edge out of reset (X-safe in reset).
//   `HWPROF_ASSERT_INIT(name, prop)
//       Immediate check once at time zero (elaboration constants: parameter
//       legality); a failure is fatal.
//   `HWPROF_ASSUME(name, prop [, clk, rst_n])
//       Concurrent assumption on the module's environment (an input rule).
//       Checked like an assertion in simulation; a formal tool assumes it.
//   `HWPROF_COVER(name, prop [, clk, rst_n])
//       Concurrent cover point (counted with verilator --coverage-user).
//
// All of them expand to nothing under SYNTHESIS. The SVA operators |->, |=>
// and ## are fine inside them: the synthesis front end never sees them.
`ifndef HWPROF_ASSERT_SVH
`define HWPROF_ASSERT_SVH

`ifndef SYNTHESIS
`define HWPROF_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[%m] assertion %s failed", `"name`");
`define HWPROF_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni) \
  `HWPROF_ASSERT(name, !$isunknown(sig), clk, rst_n)
`define HWPROF_ASSERT_INIT(name, prop) \
  initial begin : name \
    assert (prop) else $fatal(1, "[%m] initial assertion %s failed", `"name`"); \
  end
`define HWPROF_ASSUME(name, prop, clk = clk_i, rst_n = rst_ni) \
  name: assume property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[%m] assumption %s failed", `"name`");
`define HWPROF_COVER(name, prop, clk = clk_i, rst_n = rst_ni) \
  name: cover property (@(posedge clk) disable iff (!(rst_n)) (prop));
`else
`define HWPROF_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni)
`define HWPROF_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni)
`define HWPROF_ASSERT_INIT(name, prop)
`define HWPROF_ASSUME(name, prop, clk = clk_i, rst_n = rst_ni)
`define HWPROF_COVER(name, prop, clk = clk_i, rst_n = rst_ni)
`endif

`endif
