/// hwprof_stat_bank_fv: formal harness of hwprof_stat_bank (make formal,
/// docs/verification.md). A reference counter per lane, written from the
/// specification (clear wins; an increment adds add_i and saturates at
/// 2^W - 1; otherwise the count holds), must equal cnt_o at every cycle.
/// The assertion is its own inductive invariant: proved, not bounded.
`default_nettype none

module hwprof_stat_bank_fv #(
  parameter int unsigned N = 2,
  parameter int unsigned W = 4,
  parameter int unsigned AddW = 3
) (
  input wire logic                   clk_i,
  input wire logic                   rst_ni,
  input wire logic                   clear_i,
  input wire logic [N-1:0]           inc_i,
  input wire logic [N-1:0][AddW-1:0] add_i
);
  logic [N-1:0][W-1:0] cnt_o;

  hwprof_stat_bank #(.N(N), .W(W), .AddW(AddW)) dut (.clk_i, .rst_ni, .clear_i, .inc_i, .add_i, .cnt_o);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
  end

  localparam logic [W:0] Max = {1'b0, {W{1'b1}}};
  logic [N-1:0][W-1:0] ref_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ref_q <= '0;
    else begin
      for (int unsigned k = 0; k < N; k++) begin
        if (clear_i) ref_q[k] <= '0;
        else if (inc_i[k]) begin
          // W + AddW + 1 bits hold the sum without overflow.
          if ((W+AddW+1)'(ref_q[k]) + (W+AddW+1)'(add_i[k]) > (W+AddW+1)'(Max)) ref_q[k] <= Max[W-1:0];
          else ref_q[k] <= ref_q[k] + W'(add_i[k]);
        end
      end
    end
  end

  always_comb begin
    if (!init_q) assert (cnt_o == ref_q);
  end
  always_comb begin
    if (!init_q) cover (cnt_o[0] == Max[W-1:0] && cnt_o[1] != '0);
  end
endmodule

`default_nettype wire
