// hwprof_rap_arbiter: the RAP engine's priority arbiter (docs/rap_engine.md,
// "Arbiter"; paper 001 Fig. 6): among the matching TCAM entries, the one with
// the longest prefix (largest pdepth) wins. Entries at one pdepth are
// disjoint, so at most one matches per pdepth and the winner is unique (no
// tie-break needed; with several matches at one pdepth, which a correct table
// never has, the indices would be ORed). Combinational: per pdepth an OR of
// the matching indices, then a priority pick of the deepest pdepth with a
// match. No match: the root is the longest match (hit_o low).
`default_nettype none

module hwprof_rap_arbiter #(
  /// Value width W.
  parameter int unsigned RangeW = 32,
  /// Entries.
  parameter int unsigned Groups = 127,
  /// Width of an entry index.
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1,
  /// Width of a depth.
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  /// Match vector from the TCAM.
  input  wire logic [Groups-1:0]        match_i,
  /// Every entry's pdepth (entry e in bits [e*DepthW +: DepthW]).
  input  wire logic [Groups*DepthW-1:0] pdepth_i,
  /// Some entry matches.
  output logic                          hit_o,
  /// The winning entry.
  output logic [IdxW-1:0]               idx_o,
  /// Its pdepth.
  output logic [DepthW-1:0]             pdepth_o
);

  localparam int unsigned H = RangeW / 2;

  logic [H-1:0]    any;
  logic [IdxW-1:0] idx_at [H];
  logic [(H > 1 ? $clog2(H) : 1)-1:0] deepest;

  // Per pdepth: any match, and the OR of the matching indices.
  always_comb begin
    for (int unsigned d = 0; d < H; d++) begin
      any[d] = 1'b0;
      idx_at[d] = '0;
      for (int unsigned e = 0; e < Groups; e++) begin
        if (match_i[e] && pdepth_i[e*DepthW +: DepthW] == DepthW'(d)) begin
          any[d] = 1'b1;
          idx_at[d] = idx_at[d] | IdxW'(e);
        end
      end
    end
  end

  // The deepest pdepth with a match.
  hwprof_lzc #(.N(H), .HighFirst(1)) u_deepest (.in_i(any), .idx_o(deepest), .valid_o(hit_o));
  assign idx_o = idx_at[deepest];
  assign pdepth_o = DepthW'(deepest);

endmodule

`default_nettype wire
