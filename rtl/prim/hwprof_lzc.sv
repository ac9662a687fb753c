/// hwprof_lzc: priority encoder. idx_o is the index of the lowest set bit of
/// in_i (HighFirst = 0: the trailing-zero count; lowest index wins) or of the
/// highest set bit (HighFirst = 1: highest index wins); valid_o when any bit
/// is set. With no bit set idx_o is 0. Combinational (no clock, no latency).
/// Model: hwprof::model::lowest_set / highest_set (sim_models/common/prim.h).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_lzc #(
  /// Width of the input vector (>= 1).
  parameter int unsigned N = 8,
  /// 0: the lowest set bit wins; 1: the highest set bit wins.
  parameter int unsigned HighFirst = 0,
  /// Width of the index.
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  /// Request vector.
  input  wire logic [N-1:0]    in_i,
  /// Index of the winning set bit (0 when none).
  output logic      [IdxW-1:0] idx_o,
  /// Any bit of in_i set.
  output logic                 valid_o
);

  `HWPROF_ASSERT_INIT(params_legal, N >= 1)

  // The last assignment in scan order wins: scan from the losing end.
  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (HighFirst != 0) begin
        if (in_i[i]) idx_o = IdxW'(i);
      end else begin
        if (in_i[N-1-i]) idx_o = IdxW'(N - 1 - i);
      end
    end
  end

  assign valid_o = |in_i;

endmodule

`default_nettype wire
