// rap_tcam: the RAP engine's ternary match table (docs/rap_engine.md, "TCAM";
// paper 001 Fig. 6). One entry per child group: {valid, pdepth, prefix}.
// Entry e matches key k when it is valid and the top 2*pdepth bits of k equal
// those of its prefix (the prefix's low RangeW - 2*pdepth bits are stored as
// zero and masked: a ternary value/mask entry whose mask is the prefix
// length). Entries at one pdepth cover disjoint ranges, so at most one entry
// per pdepth matches.
//
// This is the flip-flop variant: a search is combinational and a write takes
// effect at the edge (write latency 1, so the controller's one-cycle replay
// after a split covers it). The RAM-based variant (docs/rap_engine.md,
// "TCAM organisation", not built yet) keeps the same ports.
//
// Ports besides the search: one write port (set or invalidate an entry),
// clear (invalidate all), a read port for the dump, and the valid and
// depth-selected vectors for the allocator and the merge scan.
`default_nettype none

module rap_tcam #(
  /// Value width W.
  parameter int unsigned RangeW = 32,
  /// Entries (child groups).
  parameter int unsigned Groups = 127,
  /// Width of an entry index.
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1,
  /// Width of a depth (0..RangeW/2).
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  /// Clock.
  input  wire logic                     clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                     rst_ni,
  /// Invalidate every entry at the edge.
  input  wire logic                     clear_i,
  /// Search key.
  input  wire logic [RangeW-1:0]        key_i,
  /// One bit per entry: the entry matches key_i.
  output logic [Groups-1:0]             match_o,
  /// Every entry's pdepth, entry e in bits [e*DepthW +: DepthW].
  output logic [Groups*DepthW-1:0]      pdepth_o,
  /// Write: set entry wr_idx_i to {1, wr_pdepth_i, wr_prefix_i} ...
  input  wire logic                     wr_set_i,
  /// ... or invalidate it (wr_set_i wins if both).
  input  wire logic                     wr_inv_i,
  /// Entry written.
  input  wire logic [IdxW-1:0]          wr_idx_i,
  /// Parent depth of the written entry.
  input  wire logic [DepthW-1:0]        wr_pdepth_i,
  /// Parent prefix of the written entry (low bits zero).
  input  wire logic [RangeW-1:0]        wr_prefix_i,
  /// Read port (dump): entry index.
  input  wire logic [IdxW-1:0]          rd_idx_i,
  /// Read port: valid.
  output logic                          rd_valid_o,
  /// Read port: parent depth.
  output logic [DepthW-1:0]             rd_pdepth_o,
  /// Read port: parent prefix.
  output logic [RangeW-1:0]             rd_prefix_o,
  /// Valid bits.
  output logic [Groups-1:0]             valid_o,
  /// Depth selector for sel_o.
  input  wire logic [DepthW-1:0]        sel_pdepth_i,
  /// One bit per entry: valid with pdepth == sel_pdepth_i.
  output logic [Groups-1:0]             sel_o
);

  logic [Groups-1:0] valid_q;
  logic [DepthW-1:0] pdepth_q [Groups];
  logic [RangeW-1:0] prefix_q [Groups];

  // Mask of the top 2*d bits.
  function automatic logic [RangeW-1:0] mask_of(logic [DepthW-1:0] d);
    return ~({RangeW{1'b1}} >> (2 * 32'(d)));
  endfunction

  always_comb begin
    for (int unsigned e = 0; e < Groups; e++) begin
      match_o[e] = valid_q[e] && ((key_i & mask_of(pdepth_q[e])) == prefix_q[e]);
      sel_o[e] = valid_q[e] && pdepth_q[e] == sel_pdepth_i;
      pdepth_o[e*DepthW +: DepthW] = pdepth_q[e];
    end
  end
  assign valid_o     = valid_q;
  assign rd_valid_o  = valid_q[rd_idx_i];
  assign rd_pdepth_o = pdepth_q[rd_idx_i];
  assign rd_prefix_o = prefix_q[rd_idx_i];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else if (clear_i) begin
      valid_q <= '0;
    end else if (wr_set_i) begin
      valid_q[wr_idx_i] <= 1'b1;
    end else if (wr_inv_i) begin
      valid_q[wr_idx_i] <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_set_i) begin
      pdepth_q[wr_idx_i] <= wr_pdepth_i;
      prefix_q[wr_idx_i] <= wr_prefix_i & mask_of(wr_pdepth_i);
    end
  end

endmodule
