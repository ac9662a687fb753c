// hwprof_rap_tcam: the RAP engine's ternary match table (docs/rap_engine.md, "TCAM";
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
  /// The same one-hot (hwprof_rap_tcam_flags), for the arbiter.
  output logic [Groups*(RangeW/2)-1:0]  pdepth_hot_o,
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

  import hwprof_rap_pkg::prefix_mask;

  logic [RangeW-1:0] prefix_q [Groups];  // no reset: read only through a valid bit

  hwprof_rap_tcam_flags #(.Groups(Groups), .IdxW(IdxW), .DepthW(DepthW), .Depths(RangeW / 2)) u_flags (
    .clk_i, .rst_ni, .clear_i, .set_i, .set_idx_i, .set_pdepth_i, .inv_i, .inv_idx_i,
    .rd_idx_i, .rd_valid_o, .rd_pdepth_o, .valid_o, .pdepth_o, .pdepth_hot_o, .sel_pdepth_i, .sel_o);

  always_comb begin
    for (int unsigned e = 0; e < Groups; e++)
      match_o[e] = valid_o[e] &&
                   (key_i & RangeW'(prefix_mask(RangeW, 32'(pdepth_o[e*DepthW +: DepthW])))) == prefix_q[e];
  end

  always_ff @(posedge clk_i) begin
    if (set_i) prefix_q[set_idx_i] <= set_prefix_i & RangeW'(prefix_mask(RangeW, 32'(set_pdepth_i)));
    rd_prefix_o <= prefix_q[rd_idx_i];
  end

endmodule

`default_nettype wire
