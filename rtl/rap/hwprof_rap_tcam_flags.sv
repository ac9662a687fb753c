// hwprof_rap_tcam_flags: the flip-flop part of both RAP TCAMs (hwprof_rap_tcam,
// hwprof_rap_tcam_ram; docs/rap_engine.md, "TCAM"): per entry the valid bit
// and the parent depth, the depth-selected vector for the merge scan and
// the registered read of one entry for the dump, and a one-hot copy of every
// parent depth for the arbiter (hwprof_rap_arbiter: a per-depth OR over the
// entries instead of a depth compare per entry and depth).
//
// Cycle behaviour (one edge):
//   * set_i: entry set_idx_i becomes valid with parent depth set_pdepth_i;
//   * inv_i: entry inv_idx_i becomes invalid; set wins over inv of the same
//     entry;
//   * clear_i: every entry invalid (wins over set);
//   * read port: rd_idx_i at an edge; rd_valid_o and rd_pdepth_o show that
//     entry as it was before the edge, in the next cycle.
// The valid bits have an asynchronous reset; the depths have none (read only
// through a valid bit, or by the dump of a free slot, whose depth is unused).
`default_nettype none

module hwprof_rap_tcam_flags #(
  /// Entries (child groups).
  parameter int unsigned Groups = 127,
  /// Width of an entry index.
  parameter int unsigned IdxW = 7,
  /// Width of a depth.
  parameter int unsigned DepthW = 5,
  /// Parent depths 0 .. Depths-1 (H = RangeW / 2) in the one-hot copy.
  parameter int unsigned Depths = 16
) (
  /// Clock.
  input  wire logic                     clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                     rst_ni,
  /// Invalidate every entry at the edge.
  input  wire logic                     clear_i,
  /// Set entry set_idx_i valid with parent depth set_pdepth_i at the edge.
  input  wire logic                     set_i,
  /// Entry set.
  input  wire logic [IdxW-1:0]          set_idx_i,
  /// Parent depth of the set entry.
  input  wire logic [DepthW-1:0]        set_pdepth_i,
  /// Invalidate entry inv_idx_i at the edge.
  input  wire logic                     inv_i,
  /// Entry invalidated.
  input  wire logic [IdxW-1:0]          inv_idx_i,
  /// Read port (dump): entry index, read at the edge.
  input  wire logic [IdxW-1:0]          rd_idx_i,
  /// Read port: valid of the entry read at the last edge.
  output logic                          rd_valid_o,
  /// Read port: its parent depth.
  output logic [DepthW-1:0]             rd_pdepth_o,
  /// Valid bits.
  output logic [Groups-1:0]             valid_o,
  /// Every entry's parent depth, entry e in bits [e*DepthW +: DepthW].
  output logic [Groups*DepthW-1:0]      pdepth_o,
  /// The same one-hot: bit e*Depths + d set when entry e's parent depth is d
  /// (no bit for a depth >= Depths). Not masked by the valid bit.
  output logic [Groups*Depths-1:0]      pdepth_hot_o,
  /// Depth selector for sel_o.
  input  wire logic [DepthW-1:0]        sel_pdepth_i,
  /// One bit per entry: valid with parent depth sel_pdepth_i.
  output logic [Groups-1:0]             sel_o
);

  logic [Groups-1:0] valid_q;
  logic [DepthW-1:0] pdepth_q [Groups];
  logic [Depths-1:0] pdepth_hot_q [Groups];

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
    if (set_i) pdepth_q[set_idx_i] <= set_pdepth_i;
    rd_valid_o <= valid_q[rd_idx_i];
    rd_pdepth_o <= pdepth_q[rd_idx_i];
  end

  // The one-hot copy, written with the binary depth.
  logic [Depths-1:0] set_hot;
  always_comb begin
    for (int unsigned d = 0; d < Depths; d++) set_hot[d] = set_pdepth_i == DepthW'(d);
  end
  for (genvar e = 0; e < Groups; e++) begin : gen_hot
    always_ff @(posedge clk_i) begin
      if (set_i && set_idx_i == IdxW'(e)) pdepth_hot_q[e] <= set_hot;
    end
  end

  always_comb begin
    for (int unsigned e = 0; e < Groups; e++) begin
      sel_o[e] = valid_q[e] && pdepth_q[e] == sel_pdepth_i;
      pdepth_o[e*DepthW +: DepthW] = pdepth_q[e];
      pdepth_hot_o[e*Depths +: Depths] = pdepth_hot_q[e];
    end
  end
  assign valid_o = valid_q;

endmodule

`default_nettype wire
