/// hwprof_argmin_tree_fv: formal harness of hwprof_argmin_tree (make formal,
/// docs/verification.md). For every input (and, with Pipe = 1, for the
/// inputs of the previous cycle) it asserts the specification, written
/// without a tree: valid_o = any valid candidate; the winner is valid, its
/// value is the winner's value, no valid candidate is strictly better, and
/// no valid candidate of lower index is as good (lowest index wins ties);
/// outputs are 0 without a valid candidate. A combinational (Pipe = 0)
/// check holds for all inputs at depth 1, so the proof is complete.
`default_nettype none

module hwprof_argmin_tree_fv #(
  parameter int unsigned N = 5,
  parameter int unsigned W = 3,
  parameter int unsigned ArgMax = 0,
  parameter int unsigned Pipe = 0
) (
  input wire logic                clk_i,
  input wire logic                rst_ni,
  input wire logic [N-1:0]        valid_i,
  input wire logic [N-1:0][W-1:0] val_i
);
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;

  logic            valid_o;
  logic [IdxW-1:0] idx_o;
  logic [W-1:0]    val_o;

  hwprof_argmin_tree #(.N(N), .W(W), .ArgMax(ArgMax), .Pipe(Pipe)) dut (
    .clk_i, .rst_ni, .valid_i, .val_i, .valid_o, .idx_o, .val_o);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  // The candidates the outputs answer for.
  logic [N-1:0]        cv;
  logic [N-1:0][W-1:0] cval;
  logic                check;
  if (Pipe == 0) begin : gen_comb
    assign cv    = valid_i;
    assign cval  = val_i;
    assign check = 1'b1;
  end else begin : gen_pipe
    // The previous cycle's inputs, and whether the DUT was out of reset
    // when it registered them.
    logic [N-1:0]        v_q;
    logic [N-1:0][W-1:0] val_q;
    logic                rst_q = 1'b0;
    always_ff @(posedge clk_i) begin
      v_q   <= valid_i;
      val_q <= val_i;
      rst_q <= rst_ni;
    end
    assign cv    = v_q;
    assign cval  = val_q;
    assign check = !init_q && rst_ni && rst_q;
  end

  function automatic logic better(logic [W-1:0] a, logic [W-1:0] b);  // a strictly better than b
    return (ArgMax != 0) ? (a > b) : (a < b);
  endfunction

  always_comb begin
    if (check) begin
      assert (valid_o == (|cv));
      if (!valid_o) begin
        assert (idx_o == '0);
      end else begin
        assert (32'(idx_o) < N);
        assert (cv[idx_o]);
        assert (val_o == cval[idx_o]);
        for (int unsigned j = 0; j < N; j++) begin
          if (cv[j]) assert (!better(cval[j], val_o));
          if (cv[j] && j < 32'(idx_o)) assert (better(val_o, cval[j]));
        end
      end
    end
  end

  // A tie between several candidates is reached (lowest index must win).
  always_comb begin
    if (check) cover (valid_o && idx_o != '0 && cv[0] == 1'b0 && $countones(cv) >= 3);
  end
endmodule

`default_nettype wire
