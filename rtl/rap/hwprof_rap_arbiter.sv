// hwprof_rap_arbiter: the RAP engine's priority arbiter (docs/rap_engine.md,
// "Arbiter"; paper 001 Fig. 6): among the matching TCAM entries, the one with
// the longest prefix (largest pdepth) wins. Entries at one pdepth are
// disjoint, so at most one matches per pdepth and the winner is unique (no
// tie-break needed; with several matches at one pdepth, which a correct table
// never has, the indices would be ORed). No match: the root is the longest
// match (hit_o low, idx_o and pdepth_o 0).
//
// Combinational: per pdepth d, any entry matching at d (an OR over the
// entries of match AND the one-hot depth copy the TCAM keeps in flip-flops,
// hwprof_rap_tcam_flags); the deepest such d (hwprof_lzc, highest first);
// the entries matching at that depth (one pdepth compare per entry); their
// indices ORed. Before, every pdepth ORed the indices of its own matches
// and the deepest was picked after: H x IdxW OR trees over all entries
// (about 5,600 LUT4s at 127 entries and RangeW 32, against about 2,000).
`default_nettype none

module hwprof_rap_arbiter #(
  /// Value width W.
  parameter int unsigned RangeW = 32,
  /// Entries.
  parameter int unsigned Groups = 127,
  /// Width of an entry index.
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1,
  /// Width of a depth.
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1),
  /// Parent depths (H).
  localparam int unsigned H = RangeW / 2
) (
  /// Match vector from the TCAM.
  input  wire logic [Groups-1:0]        match_i,
  /// Every entry's pdepth (entry e in bits [e*DepthW +: DepthW]).
  input  wire logic [Groups*DepthW-1:0] pdepth_i,
  /// The same one-hot (bit e*H + d: entry e's pdepth is d).
  input  wire logic [Groups*H-1:0]      pdepth_hot_i,
  /// Some entry matches.
  output logic                          hit_o,
  /// The winning entry.
  output logic [IdxW-1:0]               idx_o,
  /// Its pdepth.
  output logic [DepthW-1:0]             pdepth_o
);

  // Per pdepth: some entry matches at it (reduction ORs: a chain of
  // Groups two-input ORs per pdepth exhausts the WebAssembly Yosys's stack).
  logic [H-1:0]      any;
  logic [Groups-1:0] at_depth [H];
  always_comb begin
    for (int unsigned d = 0; d < H; d++) begin
      for (int unsigned e = 0; e < Groups; e++) at_depth[d][e] = match_i[e] & pdepth_hot_i[e*H + d];
      any[d] = |at_depth[d];
    end
  end

  // The deepest pdepth with a match.
  logic [(H > 1 ? $clog2(H) : 1)-1:0] deepest;
  hwprof_lzc #(.N(H), .HighFirst(1)) u_deepest (.in_i(any), .idx_o(deepest), .valid_o(hit_o));
  assign pdepth_o = DepthW'(deepest);

  // The entries matching at it; bit b of the index is the OR over those
  // whose index has bit b set.
  logic [Groups-1:0] win;
  logic [Groups-1:0] with_bit [IdxW];
  always_comb begin
    for (int unsigned e = 0; e < Groups; e++)
      win[e] = match_i[e] && pdepth_i[e*DepthW +: DepthW] == pdepth_o;
    for (int unsigned b = 0; b < IdxW; b++) begin
      for (int unsigned e = 0; e < Groups; e++) with_bit[b][e] = win[e] & ((e >> b) & 1) != 0;
      idx_o[b] = |with_bit[b];
    end
  end

endmodule

`default_nettype wire
