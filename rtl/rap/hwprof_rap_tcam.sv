// hwprof_rap_tcam: the RAP engine's ternary match table (docs/hwprof_rap_engine.md, "TCAM";
// paper 001 Fig. 6). One entry per child group: {valid, pdepth, prefix}.
// Entry e matches key k when it is valid and the top 2*pdepth bits of k equal
// those of its prefix (the prefix's low RangeW - 2*pdepth bits are stored as
// zero and masked: a ternary value/mask entry whose mask is the prefix
// length). Entries at one pdepth cover disjoint ranges, so at most one entry
// per pdepth matches.
//
// This is the flip-flop variant (TcamSlice = 0 in hwprof_rap_engine): a search is
// combinational on key_i and a write takes effect at the edge (write latency
// 1, so the controller's one-cycle replay after a split covers it). The
// RAM-based variant is hwprof_rap_tcam_ram (same table, same ports except the
// search key, which it reads one cycle ahead, and its busy/last outputs).
//
// Ports besides the search: set (one entry {1, pdepth, prefix}) and
// invalidate (another entry, or the same: set wins) at one edge, clear
// (invalidate all), a registered read port for the dump (rd_idx_i at an
// edge, the entry as before the edge in the next cycle), and the valid and
// depth-selected vectors for the allocator and the merge scan.
`default_nettype none

module hwprof_rap_tcam #(
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
  /// Set entry set_idx_i to {1, set_pdepth_i, set_prefix_i} at the edge.
  input  wire logic                     set_i,
  /// Entry set.
  input  wire logic [IdxW-1:0]          set_idx_i,
  /// Parent depth of the set entry.
  input  wire logic [DepthW-1:0]        set_pdepth_i,
  /// Parent prefix of the set entry (bits below 2*set_pdepth_i are ignored).
  input  wire logic [RangeW-1:0]        set_prefix_i,
  /// Invalidate entry inv_idx_i at the edge.
  input  wire logic                     inv_i,
  /// Entry invalidated.
  input  wire logic [IdxW-1:0]          inv_idx_i,
  /// Read port (dump): entry index, read at the edge.
  input  wire logic [IdxW-1:0]          rd_idx_i,
  /// Read port: valid of the entry read at the last edge.
  output logic                          rd_valid_o,
  /// Read port: parent depth.
  output logic [DepthW-1:0]             rd_pdepth_o,
  /// Read port: parent prefix (low bits zero).
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
  assign valid_o = valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else if (clear_i) begin
      valid_q <= '0;
    end else begin
      if (inv_i) valid_q[inv_idx_i] <= 1'b0;
      if (set_i) valid_q[set_idx_i] <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (set_i) begin
      pdepth_q[set_idx_i] <= set_pdepth_i;
      prefix_q[set_idx_i] <= set_prefix_i & mask_of(set_pdepth_i);
    end
    rd_valid_o <= valid_q[rd_idx_i];
    rd_pdepth_o <= pdepth_q[rd_idx_i];
    rd_prefix_o <= prefix_q[rd_idx_i];
  end

endmodule

`default_nettype wire
