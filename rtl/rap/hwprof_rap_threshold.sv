// hwprof_rap_threshold: the RAP engine's threshold unit (the paper's "ALU", 001
// Fig. 6; docs/rap.md "SplitThreshold"): T(n) = floor(E * n / (65536 * H))
// with H = RangeW / 2 a power of two, so the division is a right shift by
// 16 + log2(H). Combinational. Equal to rap_split_threshold() for every
// n < 2^CntW.
`default_nettype none

module hwprof_rap_threshold #(
  /// Value width W (2, 4, 8, 16, 32 or 64: H = W/2 must be a power of two).
  parameter int unsigned RangeW = 32,
  /// Width of n and of the threshold.
  parameter int unsigned CntW = 40
) (
  /// eps in Q0.16 (E).
  input  wire logic [15:0]     eps_i,
  /// The total weight n.
  input  wire logic [CntW-1:0] n_i,
  /// SplitThreshold(n).
  output logic [CntW-1:0]      t_o
);

  localparam int unsigned H = RangeW / 2;
  localparam int unsigned Shift = 16 + $clog2(H);

  initial begin
    if (RangeW < 2 || RangeW > 64 || (H & (H - 1)) != 0)
      $fatal(1, "hwprof_rap_threshold: RangeW must be 2, 4, 8, 16, 32 or 64");
  end

  logic [CntW+15:0] prod;
  assign prod = {16'b0, n_i} * {{CntW{1'b0}}, eps_i};
  // E < 2^16 and Shift >= 16, so the result fits in CntW bits.
  assign t_o = CntW'(prod >> Shift);

endmodule

`default_nettype wire
