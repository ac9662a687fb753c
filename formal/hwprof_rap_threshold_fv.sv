/// hwprof_rap_threshold_fv: formal harness of hwprof_rap_threshold (make
/// formal, formal/rap_threshold.sby, docs/verification.md "RAP engine"):
/// for every eps and every n, T(n) < n when n >= 1 and T(0) = 0, i.e. the
/// threshold never reaches the whole count. With the engine's conservation
/// (the counts sum to n) this rules out a merge into the root (whose merge
/// sum is n). Combinational: proven for every input.
`default_nettype none

module hwprof_rap_threshold_fv #(
  parameter int unsigned RangeW = 4,
  parameter int unsigned CntW = 40
) (
  input wire logic [15:0]     eps_i,
  input wire logic [CntW-1:0] n_i
);
  logic [CntW-1:0] t;
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) dut (.eps_i, .n_i, .t_o(t));

  always_comb begin
    if (n_i == '0) assert (t == '0);
    else assert (t < n_i);
    cover (n_i != '0 && t == n_i - 1'b1);
  end

endmodule

`default_nettype wire
