// hwprof_rap_counter_ram: the RAP engine's counter SRAM (docs/rap_engine.md,
// "Counter SRAM"; paper 001 Fig. 6). Groups rows of four CntW-bit counters
// (a row is the four children of one internal node) in block RAM, with one
// write port and two registered read ports:
//   * port A reads a whole row (the S1 read of the matched leaf's row, the
//     merge scan's child row, the dump);
//   * port B reads one counter (the merge scan's parent).
// Port A is four column RAMs (Groups x CntW each) and port B one RAM of
// 4 * Groups counters at address 4 * row + col; every write goes to both
// (the column RAM of its column and the flat RAM), so the two ports always
// hold the same values.
//
// Cycle behaviour (one edge):
//   * clear_i: every counter reads as zero on port A from this edge on;
//   * zero_i: the four counters of row zero_row_i read as zero on port A (a
//     split's new row); a zeroed counter stays zero until it is written;
//   * we_i: counter (wrow_i, wcol_i) <= wdata_i (a write wins over a zero
//     of the same row at the same edge: the engine never does both);
//   * port A: rowa_o shows the row addressed at the last edge AS IT IS AFTER
//     THAT EDGE'S WRITES ("write first"). The RAMs' own read of an address
//     written at the same edge is undefined (hwprof_ram_2p), so a write at
//     the read's edge is forwarded: its data is registered beside the read
//     and selected for the written counter. This is the read-modify-write
//     forwarding for back-to-back hits on one counter: the engine's S1 reads
//     the row of the pair that the previous pair's commit writes in the same
//     edge.
//   * port B: cntb_o is the block RAM's registered read, nothing else. It is
//     UNDEFINED for a counter zeroed (by reset, clear or its row's zero) and
//     not written since (no "reads as zero" bits), and for a counter written
//     at the read's edge (no forwarding). The engine reads port B only in a
//     merge pass, at a live group's parent counter: the group's split wrote
//     it (the commit's write, or the commit that started the capacity pass
//     whose end splits) and no zero reaches it while the group lives (a row
//     is zeroed only when allocated; a group's parent row is freed only after
//     the group itself); and a pass writes only merged parents, which are
//     other nodes of the same depth (each node has one child group), while
//     commits happen outside passes. The engine asserts both
//     (parent_counter_written and parent_counter_not_written_at_read, with
//     the simulation-only cntb_zeroed_q and cntb_collide_q below; formally in
//     formal/rap_engine.sby). The 508:1 zero-bit lookup set this module's
//     clock (9.8 ns), then the forward's compare and multiplexer after the
//     RAM (8.5 ns).
// The "reads as zero" bits are flip-flops. Port A's lookup is split around
// its read register: before the edge the high row bits select a block of
// 2^LoW rows (4 * 2^LoW bits), with the edge's zero and write at the read
// row registered as two flags; after the edge the low row bits pick the row
// in the block. The RAM contents have no reset; the zero bits make reset
// and clear one edge.
`default_nettype none

module hwprof_rap_counter_ram #(
  /// Rows (child groups), >= 1.
  parameter int unsigned Groups = 127,
  /// Counter width.
  parameter int unsigned CntW = 40,
  /// Width of a row index.
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1
) (
  /// Clock.
  input  wire logic                clk_i,
  /// Asynchronous reset, active low: every counter reads as zero (port A).
  input  wire logic                rst_ni,
  /// Every counter reads as zero on port A from this edge on.
  input  wire logic                clear_i,
  /// Zero the four counters of row zero_row_i at the edge.
  input  wire logic                zero_i,
  /// Row zeroed.
  input  wire logic [IdxW-1:0]     zero_row_i,
  /// Write one counter at the edge.
  input  wire logic                we_i,
  /// Row written.
  input  wire logic [IdxW-1:0]     wrow_i,
  /// Column written.
  input  wire logic [1:0]          wcol_i,
  /// Data written.
  input  wire logic [CntW-1:0]     wdata_i,
  /// Port A: row read at the edge.
  input  wire logic [IdxW-1:0]     ra_i,
  /// Port A: the four counters of the row read at the last edge (column c in
  /// bits [c*CntW +: CntW]).
  output logic [4*CntW-1:0]        rowa_o,
  /// Port B: row of the counter read at the edge.
  input  wire logic [IdxW-1:0]     rb_row_i,
  /// Port B: column of the counter read at the edge.
  input  wire logic [1:0]          rb_col_i,
  /// Port B: the counter read at the last edge (undefined for a counter
  /// zeroed and not written since, or written at the read's edge: header).
  output logic [CntW-1:0]          cntb_o
);

  localparam int unsigned FlatW = $clog2(4 * Groups);

  // "Reads as zero" bits, one per counter: bit 4 * row + col. The clear is
  // folded into two per-row signals (set: clear or the row zeroed; write:
  // the row written and no clear), so each bit's next value is one 4-input
  // function of its own value, its row's two signals and its column's
  // decode: (q or set) and not (write and column). Written as a clear over
  // indexed writes, every bit also took the clear: two LUTs a bit.
  logic [4*Groups-1:0] zero_q, zero_d;
  logic [Groups-1:0]   row_set, row_wr;
  logic [3:0]          wcol_hit;
  always_comb begin
    for (int unsigned r = 0; r < Groups; r++) begin
      row_set[r] = clear_i || (zero_i && zero_row_i == IdxW'(r));
      row_wr[r] = !clear_i && we_i && wrow_i == IdxW'(r);
    end
    for (int unsigned c = 0; c < 4; c++) wcol_hit[c] = wcol_i == 2'(c);
    for (int unsigned r = 0; r < Groups; r++)
      for (int unsigned c = 0; c < 4; c++)
        zero_d[4*r+c] = (zero_q[4*r+c] || row_set[r]) && !(row_wr[r] && wcol_hit[c]);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) zero_q <= '1;
    else zero_q <= zero_d;
  end

  logic wr;
  assign wr = we_i && !clear_i;

  // Port A: four column RAMs.
  logic [CntW-1:0] col_q [4];
  for (genvar c = 0; c < 4; c++) begin : gen_col
    hwprof_ram_2p #(.Depth(Groups), .Width(CntW), .GranW(CntW)) u_ram (
      .clk_i, .wmask_i(wr && wcol_i == 2'(c)), .waddr_i(wrow_i), .wdata_i,
      .re_i(1'b1), .raddr_i(ra_i), .rdata_o(col_q[c]));
  end

  // Port B: one flat RAM.
  logic [CntW-1:0] flat_q;
  hwprof_ram_2p #(.Depth(4 * Groups), .Width(CntW), .GranW(CntW)) u_flat (
    .clk_i, .wmask_i(wr), .waddr_i(FlatW'({wrow_i, wcol_i})), .wdata_i,
    .re_i(1'b1), .raddr_i(FlatW'({rb_row_i, rb_col_i})), .rdata_o(flat_q));

  // Port A's zero bits, split around the read register (header). The rows
  // are padded to 2^IdxW with zero bits set (never read: ra_i < Groups).
  localparam int unsigned Rows = 1 << IdxW;
  localparam int unsigned LoW = (IdxW >= 2) ? 2 : IdxW;
  localparam int unsigned BlkW = 4 << LoW;
  logic [4*Rows-1:0] zero_pad;
  logic [BlkW-1:0]   zblk_d;
  if (Rows > Groups) begin : gen_pad
    assign zero_pad = {{(4 * (Rows - Groups)){1'b1}}, zero_q};
  end else begin : gen_nopad
    assign zero_pad = zero_q;
  end
  if (IdxW > LoW) begin : gen_blk
    assign zblk_d = zero_pad[BlkW*32'(ra_i[IdxW-1:LoW]) +: BlkW];
  end else begin : gen_blk_all
    assign zblk_d = zero_pad;
  end

  // Forwarding, port A's block and the edge's updates at the read row,
  // registered with the reads.
  logic            fwd_a_q;
  logic [1:0]      fwd_col_q;
  logic [CntW-1:0] fwd_data_q;
  logic [BlkW-1:0] zblk_q;
  logic [LoW-1:0]  ra_lo_q;
  logic            clear_q, zhit_a_q;
  always_ff @(posedge clk_i) begin
    fwd_a_q <= wr && wrow_i == ra_i;
    fwd_col_q <= wcol_i;
    fwd_data_q <= wdata_i;
    zblk_q <= zblk_d;
    ra_lo_q <= ra_i[LoW-1:0];
    clear_q <= clear_i;
    zhit_a_q <= zero_i && zero_row_i == ra_i;
  end

  // The zero bits of the row read at the last edge, after that edge's clear,
  // zero and write (the write wins over the zero; a write at a clear is
  // dropped, and fwd_a_q is then 0).
  logic [3:0] za;
  always_comb begin
    for (int unsigned c = 0; c < 4; c++)
      za[c] = clear_q || ((zblk_q[4*32'(ra_lo_q) + c] || zhit_a_q) && !(fwd_a_q && fwd_col_q == 2'(c)));
  end

  always_comb begin
    for (int unsigned c = 0; c < 4; c++) begin
      if (za[c]) rowa_o[c*CntW +: CntW] = '0;
      else if (fwd_a_q && fwd_col_q == 2'(c)) rowa_o[c*CntW +: CntW] = fwd_data_q;
      else rowa_o[c*CntW +: CntW] = col_q[c];
    end
  end
  assign cntb_o = flat_q;

`ifndef SYNTHESIS
  // Simulation only: port B read a counter that reads as zero on port A
  // (zeroed and not written since), or one written at the read's edge; in
  // both cases cntb_o is undefined. The engine asserts that it never uses
  // such a read (parent_counter_written, parent_counter_not_written_at_read,
  // by hierarchical references: unused inside this module).
  /* verilator lint_off UNUSEDSIGNAL */
  logic cntb_zeroed_q, cntb_collide_q;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    // zero_d holds every counter's zero bit after this edge's clear, zero
    // and write.
    cntb_zeroed_q <= zero_d[4*32'(rb_row_i) + 32'(rb_col_i)];
    cntb_collide_q <= wr && wrow_i == rb_row_i && wcol_i == rb_col_i;
  end
`endif

endmodule

`default_nettype wire
