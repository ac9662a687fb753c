/// hwprof_argmin_tree: index and value of the minimum (ArgMax = 1: maximum)
/// of the valid candidates, by a balanced binary tree of compare-select
/// nodes (depth ceil(log2 N)).
///
///   * Ties: the lowest index wins (each node keeps its left, lower-index
///     child unless the right one is strictly better), as OpenTitan
///     prim_max_tree. Invalid candidates never win.
///   * valid_o when any valid_i bit is set; idx_o / val_o are meaningful
///     only with valid_o (0 otherwise).
///   * Pipe = 0: combinational, no latency; the clock and reset then feed
///     only the assertions. Pipe = 1: one register stage after the root
///     (latency 1 cycle, throughput 1 per cycle; valid_o resets to 0).
/// Model: hwprof::model::argmin (sim_models/common/prim.h).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_argmin_tree #(
  /// Number of candidates (>= 1).
  parameter int unsigned N = 4,
  /// Bits per candidate value (>= 1).
  parameter int unsigned W = 8,
  /// 0: minimum; 1: maximum.
  parameter int unsigned ArgMax = 0,
  /// Register stages after the root (0 or 1).
  parameter int unsigned Pipe = 0,
  /// Width of the index.
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  /// Clock (the Pipe register and the assertions).
  input  wire logic                 clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                 rst_ni,
  /// Candidate valid mask.
  input  wire logic [N-1:0]         valid_i,
  /// Candidate values.
  input  wire logic [N-1:0][W-1:0]  val_i,
  /// Any candidate valid (Pipe cycles later).
  output logic                      valid_o,
  /// Index of the winner.
  output logic [IdxW-1:0]           idx_o,
  /// Value of the winner.
  output logic [W-1:0]              val_o
);

  `HWPROF_ASSERT_INIT(params_legal, N >= 1 && W >= 1 && Pipe <= 1)

  localparam int unsigned Levels = (N > 1) ? $clog2(N) : 0;
  localparam int unsigned Leaves = 1 << Levels;

  // Level l holds Leaves >> l nodes; level 0 the (padded) candidates.
  for (genvar l = 0; l <= Levels; l++) begin : gen_lvl
    localparam int unsigned Nodes = Leaves >> l;
    logic [Nodes-1:0]           vld;
    logic [Nodes-1:0][IdxW-1:0] idx;
    logic [Nodes-1:0][W-1:0]    val;
    if (l == 0) begin : gen_leaf
      for (genvar k = 0; k < Nodes; k++) begin : gen_k
        if (k < N) begin : gen_in
          assign vld[k] = valid_i[k];
          assign val[k] = valid_i[k] ? val_i[k] : '0;
        end else begin : gen_pad
          assign vld[k] = 1'b0;
          assign val[k] = '0;
        end
        assign idx[k] = IdxW'(k);
      end
    end else begin : gen_node
      for (genvar k = 0; k < Nodes; k++) begin : gen_k
        logic lv, rv, take_r;
        logic [W-1:0] lval, rval;
        assign lv   = gen_lvl[l-1].vld[2*k];
        assign rv   = gen_lvl[l-1].vld[2*k+1];
        assign lval = gen_lvl[l-1].val[2*k];
        assign rval = gen_lvl[l-1].val[2*k+1];
        // Right (higher indices) only when strictly better or left invalid.
        assign take_r = rv && (!lv || (ArgMax != 0 ? (rval > lval) : (rval < lval)));
        assign vld[k] = lv | rv;
        assign idx[k] = take_r ? gen_lvl[l-1].idx[2*k+1] : gen_lvl[l-1].idx[2*k];
        assign val[k] = take_r ? rval : lval;
      end
    end
  end

  logic            root_vld;
  logic [IdxW-1:0] root_idx;
  logic [W-1:0]    root_val;
  assign root_vld = gen_lvl[Levels].vld[0];
  assign root_idx = root_vld ? gen_lvl[Levels].idx[0] : '0;
  assign root_val = gen_lvl[Levels].val[0];

  if (Pipe == 0) begin : gen_comb
    assign valid_o = root_vld;
    assign idx_o   = root_idx;
    assign val_o   = root_val;
  end else begin : gen_pipe
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_o <= 1'b0;
        idx_o   <= '0;
        val_o   <= '0;
      end else begin
        valid_o <= root_vld;
        idx_o   <= root_idx;
        val_o   <= root_val;
      end
    end
  end

  // The winner is a valid candidate and its value is the candidate's.
  `HWPROF_ASSERT(winner_valid, !root_vld || (valid_i[root_idx] && val_i[root_idx] == root_val))
  `HWPROF_ASSERT(valid_is_any, root_vld == (|valid_i))

endmodule

`default_nettype wire
