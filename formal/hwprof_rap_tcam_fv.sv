/// hwprof_rap_tcam_fv: formal harness of the RAP TCAMs (make formal,
/// formal/rap_tcam.sby, docs/verification.md "RAP engine"): the flip-flop
/// hwprof_rap_tcam (TcamSlice = 0) or the RAM hwprof_rap_tcam_ram (TcamSlice
/// = SliceW), followed by hwprof_rap_arbiter as in the engine. Checked
/// through the ports: the harness keeps a reference table {valid, pdepth,
/// prefix} written from the specification (clear invalidates all and wins;
/// set wins over an invalidation of the same entry; the stored prefix keeps
/// the top 2 * pdepth bits) and asserts, with free keys and free commands:
///   * match_o = the reference match: entry e matches key k exactly when it
///     is valid and the top 2 * pdepth bits of k equal its prefix (the RAM
///     TCAM: the key given at the last edge; not while busy_o, where the
///     slice RAMs' reads serve the rewrite and match_o is undefined);
///   * valid_o, pdepth_o, pdepth_hot_o (one-hot), sel_o and the registered
///     read port agree with it;
///   * match priority: the arbiter's winner is the reference longest-prefix
///     match (the deepest matching entry; the root when none matches), for
///     tables the engine can build (assumed: no two valid entries with the
///     same pdepth and prefix);
///   * the RAM TCAM's write latency: busy_o for exactly 2^SliceW + 1 cycles
///     after a set, last_o in the last of them.
/// Immediate assertions with $past-style registers only.
`default_nettype none

module hwprof_rap_tcam_fv #(
  parameter int unsigned RangeW = 4,
  parameter int unsigned Groups = 3,
  /// 0: hwprof_rap_tcam; else hwprof_rap_tcam_ram with SliceW = TcamSlice.
  parameter int unsigned TcamSlice = 0,
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1,
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  input wire logic              clk_i,
  input wire logic              rst_ni,
  input wire logic              clear_i,
  input wire logic [RangeW-1:0] key_i,
  input wire logic              set_i,
  input wire logic [IdxW-1:0]   set_idx_i,
  input wire logic [DepthW-1:0] set_pdepth_i,
  input wire logic [RangeW-1:0] set_prefix_i,
  input wire logic              inv_i,
  input wire logic [IdxW-1:0]   inv_idx_i,
  input wire logic [IdxW-1:0]   rd_idx_i,
  input wire logic [DepthW-1:0] sel_pdepth_i
);
  import hwprof_rap_pkg::prefix_mask;
  localparam int unsigned H = RangeW / 2;
  localparam int unsigned Lat = (TcamSlice == 0) ? 0 : (1 << TcamSlice) + 1;
  localparam int unsigned LatW = $clog2(Lat + 2);

  logic [Groups-1:0]        match, valid, sel;
  logic [Groups*DepthW-1:0] pdepth;
  logic [Groups*H-1:0]      pdepth_hot;
  logic                     busy, last, rd_valid;
  logic [DepthW-1:0]        rd_pdepth;
  logic [RangeW-1:0]        rd_prefix;
  if (TcamSlice == 0) begin : gen_ff
    hwprof_rap_tcam #(.RangeW(RangeW), .Groups(Groups)) dut (
      .clk_i, .rst_ni, .clear_i, .key_i, .match_o(match), .pdepth_o(pdepth), .pdepth_hot_o(pdepth_hot),
      .set_i, .set_idx_i, .set_pdepth_i, .set_prefix_i, .inv_i, .inv_idx_i,
      .rd_idx_i, .rd_valid_o(rd_valid), .rd_pdepth_o(rd_pdepth), .rd_prefix_o(rd_prefix),
      .valid_o(valid), .sel_pdepth_i, .sel_o(sel));
    assign busy = 1'b0;
    assign last = 1'b0;
  end else begin : gen_ram
    hwprof_rap_tcam_ram #(.RangeW(RangeW), .Groups(Groups), .SliceW(TcamSlice)) dut (
      .clk_i, .rst_ni, .clear_i, .key_next_i(key_i), .match_o(match), .pdepth_o(pdepth), .pdepth_hot_o(pdepth_hot),
      .set_i, .set_idx_i, .set_pdepth_i, .set_prefix_i, .inv_i, .inv_idx_i,
      .busy_o(busy), .last_o(last),
      .rd_idx_i, .rd_valid_o(rd_valid), .rd_pdepth_o(rd_pdepth), .rd_prefix_o(rd_prefix),
      .valid_o(valid), .sel_pdepth_i, .sel_o(sel));
  end

  logic              hit;
  logic [IdxW-1:0]   win;
  logic [DepthW-1:0] win_pdepth;
  hwprof_rap_arbiter #(.RangeW(RangeW), .Groups(Groups)) u_arb (
    .match_i(match), .pdepth_i(pdepth), .pdepth_hot_i(pdepth_hot), .hit_o(hit), .idx_o(win), .pdepth_o(win_pdepth));

  // Reset in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  function automatic logic [RangeW-1:0] mask_of(logic [DepthW-1:0] d);
    return RangeW'(prefix_mask(RangeW, 32'(d)));
  endfunction

  // Reference table.
  logic [Groups-1:0] ref_valid_q;
  logic [DepthW-1:0] ref_pdepth_q [Groups];
  logic [RangeW-1:0] ref_prefix_q [Groups];
  logic [LatW-1:0]   ref_busy_q;   // busy cycles left (RAM TCAM)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ref_valid_q <= '0;
      ref_busy_q <= '0;
    end else if (clear_i) begin
      ref_valid_q <= '0;
      ref_busy_q <= '0;
    end else begin
      if (inv_i) ref_valid_q[inv_idx_i] <= 1'b0;
      if (set_i) ref_valid_q[set_idx_i] <= 1'b1;
      if (set_i) ref_busy_q <= LatW'(Lat);
      else if (ref_busy_q != '0) ref_busy_q <= ref_busy_q - 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (set_i && !clear_i) begin
      ref_pdepth_q[set_idx_i] <= set_pdepth_i;
      ref_prefix_q[set_idx_i] <= set_prefix_i & mask_of(set_pdepth_i);
    end
  end

  // Commands the engine can give.
  always_comb begin
    assume (32'(set_idx_i) < Groups && 32'(inv_idx_i) < Groups && 32'(rd_idx_i) < Groups);
    assume (32'(set_pdepth_i) < H);
    if (TcamSlice != 0) assume (!(set_i && ref_busy_q != '0 && !clear_i));
    // A legal table: no second valid entry with the same pdepth and prefix.
    if (set_i)
      for (int unsigned e = 0; e < Groups; e++)
        if (IdxW'(e) != set_idx_i && ref_valid_q[e] && !(inv_i && inv_idx_i == IdxW'(e)))
          assume (!(ref_pdepth_q[e] == set_pdepth_i && ref_prefix_q[e] == (set_prefix_i & mask_of(set_pdepth_i))));
  end

  // The key the match answers for: the current one (flip-flop TCAM) or the
  // one given at the last edge (RAM TCAM).
  logic [RangeW-1:0] key_q;
  always_ff @(posedge clk_i) key_q <= key_i;
  logic [RangeW-1:0] key;
  assign key = (TcamSlice == 0) ? key_i : key_q;

  logic [Groups-1:0] ref_match, checked;
  logic              ref_hit;
  logic [IdxW-1:0]   ref_win;
  logic [DepthW-1:0] ref_win_pdepth;
  always_comb begin
    ref_hit = 1'b0;
    ref_win = '0;
    ref_win_pdepth = '0;
    for (int unsigned e = 0; e < Groups; e++) begin
      ref_match[e] = ref_valid_q[e] && (key & mask_of(ref_pdepth_q[e])) == ref_prefix_q[e];
      checked[e] = ref_busy_q == '0;
      if (ref_match[e] && (!ref_hit || ref_pdepth_q[e] > ref_win_pdepth)) begin
        ref_hit = 1'b1;
        ref_win = IdxW'(e);
        ref_win_pdepth = ref_pdepth_q[e];
      end
    end
  end

  // Read port: the entry addressed at the last edge, as before that edge.
  logic              past_ok_q, past_valid_q, past_set_same_q;
  logic [DepthW-1:0] past_pdepth_q;
  logic [RangeW-1:0] past_prefix_q;
  always_ff @(posedge clk_i) begin
    past_ok_q       <= rst_ni && !init_q;
    past_valid_q    <= ref_valid_q[rd_idx_i];
    past_pdepth_q   <= ref_pdepth_q[rd_idx_i];
    past_prefix_q   <= ref_prefix_q[rd_idx_i];
    past_set_same_q <= set_i && set_idx_i == rd_idx_i;
  end

  always_comb begin
    if (rst_ni && !init_q) begin
      assert (valid == ref_valid_q);
      for (int unsigned e = 0; e < Groups; e++) begin
        if (checked[e]) assert (match[e] == ref_match[e]);
        if (ref_valid_q[e]) assert (pdepth[e*DepthW +: DepthW] == ref_pdepth_q[e]);
        if (ref_valid_q[e])
          for (int unsigned d = 0; d < H; d++)
            assert (pdepth_hot[e*H + d] == (ref_pdepth_q[e] == DepthW'(d)));
        assert (sel[e] == (ref_valid_q[e] && ref_pdepth_q[e] == sel_pdepth_i));
      end
      // Match priority: the longest prefix wins (the root when none matches).
      if (&checked) begin
        assert (hit == ref_hit);
        if (ref_hit) begin
          assert (win == ref_win);
          assert (win_pdepth == ref_win_pdepth);
        end
      end
      assert (busy == (ref_busy_q != '0));
      assert (last == (ref_busy_q == LatW'(1)));
      if (past_ok_q) begin
        assert (rd_valid == past_valid_q);
        if (past_valid_q) begin
          if (!(TcamSlice != 0 && past_set_same_q)) begin
            assert (rd_pdepth == past_pdepth_q);
            assert (rd_prefix == past_prefix_q);
          end
        end
      end
      cover (&checked && ref_hit && ref_win_pdepth == DepthW'(H - 1) && $countones(ref_match) >= 2);
      cover (&ref_valid_q && &checked);
    end
  end

endmodule

`default_nettype wire
