/// hwprof_onehot2bin: one-hot to binary. bin_o is the index of the set bit of
/// oh_i (0 when none). The input must be one-hot or zero ($onehot0, asserted
/// at every clock edge out of reset; the clock and reset feed only that
/// assertion and may be tied off in synthesis). With more than one bit set
/// bin_o is the OR of their indices. Combinational (no latency).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_onehot2bin #(
  /// Width of the one-hot input (>= 1).
  parameter int unsigned N = 8,
  /// Width of the index.
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  /// Clock, for the assertion only.
  input  wire logic            clk_i,
  /// Reset, active low, for the assertion only.
  input  wire logic            rst_ni,
  /// One-hot (or all-zero) input.
  input  wire logic [N-1:0]    oh_i,
  /// Index of the set bit.
  output logic      [IdxW-1:0] bin_o
);

  `HWPROF_ASSERT_INIT(params_legal, N >= 1)

  always_comb begin
    bin_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (oh_i[i]) bin_o |= IdxW'(i);
    end
  end

  `HWPROF_ASSERT(oh_onehot0, $onehot0(oh_i))

`ifdef SYNTHESIS
  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;
`endif

endmodule

`default_nettype wire
