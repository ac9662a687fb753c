/// hwprof_encoders_fv: formal harness of the priority encoder (hwprof_lzc,
/// both directions) and the one-hot decoder (hwprof_onehot2bin) (make
/// formal, docs/verification.md). Combinational: the assertions hold for all
/// inputs, so the proof is complete at depth 1.
///   * lzc: valid_o = any bit set; idx_o is a set bit, and no set bit has a
///     lower (HighFirst = 0) or higher (HighFirst = 1) index; 0 without one.
///   * onehot2bin: for a one-hot or zero input, bin_o is the index of the
///     set bit (0 for zero).
`default_nettype none

module hwprof_encoders_fv #(
  parameter int unsigned N = 6
) (
  input wire logic         clk_i,
  input wire logic         rst_ni,
  input wire logic [N-1:0] in_i
);
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;

  logic [IdxW-1:0] lo_idx, hi_idx, bin;
  logic            lo_valid, hi_valid;

  hwprof_lzc #(.N(N), .HighFirst(0)) u_lo (.in_i, .idx_o(lo_idx), .valid_o(lo_valid));
  hwprof_lzc #(.N(N), .HighFirst(1)) u_hi (.in_i, .idx_o(hi_idx), .valid_o(hi_valid));

  // The decoder is only specified for one-hot or zero inputs.
  logic [N-1:0] oh;
  assign oh = in_i & (~in_i + 1'b1);  // lowest set bit of in_i: one-hot or zero
  hwprof_onehot2bin #(.N(N)) u_oh (.clk_i, .rst_ni, .oh_i(oh), .bin_o(bin));

  always_comb begin
    assert (lo_valid == (|in_i));
    assert (hi_valid == (|in_i));
    if (in_i == '0) begin
      assert (lo_idx == '0);
      assert (hi_idx == '0);
      assert (bin == '0);
    end else begin
      assert (32'(lo_idx) < N && in_i[lo_idx]);
      assert (32'(hi_idx) < N && in_i[hi_idx]);
      for (int unsigned j = 0; j < N; j++) begin
        if (j < 32'(lo_idx)) assert (!in_i[j]);
        if (j > 32'(hi_idx)) assert (!in_i[j]);
      end
      assert (oh[bin]);
      assert (bin == lo_idx);
    end
    cover (lo_idx != hi_idx && lo_valid);
  end
endmodule

`default_nettype wire
