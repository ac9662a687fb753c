// hwprof_rap_tcam_ram: the RAP engine's ternary match table built from RAM
// (docs/rap_engine.md, "TCAM"; spec 4.2; paper 001 Fig. 6). Same table as
// hwprof_rap_tcam (one entry per child group: {valid, pdepth, prefix}; entry e
// matches key k when valid and the top 2*pdepth bits of k equal its prefix),
// but the prefix comparison is stored in RAM: the key is cut into
// NSlice = RangeW / SliceW slices of SliceW bits (slice 0 the top bits), and
// slice i has a RAM of 2^SliceW words of Groups bits, bit e of word a being
// "entry e accepts a in slice i" ((a ^ prefix slice) & mask slice == 0). A
// search reads word key-slice-i of every slice RAM and ANDs them with the
// valid bits. The slice RAMs are hwprof_ram_2p instances written in
// granules of PackW entries; they map to LUT RAM (ECP5, SliceW 4: one
// DPR16X4 holds four entries' bits of 16 words) or block RAM (iCE40 EBR
// 256 x 16, SliceW 8). With PackW > 1 a rewrite is a read-modify-write:
// the other entries of the granule are written back as read.
//
// Cycle behaviour:
//   * search: key_next_i at an edge is the key of the next cycle; match_o in
//     that cycle is the RAM words read at the edge ANDed with the current
//     valid bits (so an invalidation is seen at once);
//   * set_i (entry set_idx_i := {1, set_pdepth_i, set_prefix_i}): valid and
//     pdepth change at the edge; the slice RAMs are then rewritten one
//     address per cycle for 2^SliceW cycles (all slices in parallel, only bit
//     set_idx_i of each word), followed by one refresh cycle whose read sees
//     the last write. busy_o is high for these 2^SliceW + 1 cycles (the
//     write latency) and last_o in the last of them; match_o is valid again
//     in the cycle after last_o. While busy_o, match_o is undefined: each
//     slice RAM's read port serves the rewrite (PackW > 1: every word is
//     read one edge before it is written back with the new entry's bit; a
//     slice starts at the word its search read fetched at set_i's edge and
//     goes round all 2^SliceW words), and a search read may meet a write of
//     its word, which reads X. The engine does not search while busy
//     (docs/rap_engine.md, "TCAM write latency"). set_i while busy_o is not
//     allowed (asserted);
//   * inv_i (entry inv_idx_i invalid): at the edge, nothing else to do (the
//     valid bits are flip-flops). set_i wins over inv_i of the same entry;
//   * clear_i: every entry invalid, a write in progress is abandoned;
//   * read port (dump): rd_idx_i at an edge; rd_valid_o, rd_pdepth_o and
//     rd_prefix_o show that entry (as before the edge) in the next cycle,
//     except that rd_pdepth_o and rd_prefix_o are undefined if the entry is
//     set at the same edge (the pdepths and prefixes for the dump are in an
//     hwprof_ram_2p, not read from the flip-flops through a Groups:1
//     multiplexer; the engine reads only while dumping, when nothing is set).
// The flip-flop valid bits and pdepths also give the allocator its free
// entries (valid_o) and the merge scan its depth-selected entries (sel_o).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rap_tcam_ram #(
  /// Value width W.
  parameter int unsigned RangeW = 32,
  /// Entries (child groups).
  parameter int unsigned Groups = 127,
  /// Bits per key slice (RangeW must be a multiple); 2^SliceW words per slice RAM.
  parameter int unsigned SliceW = 4,
  /// Entries per slice-RAM write granule (1: a per-entry write mask and no
  /// read-modify-write; 4: one ECP5 DPR16X4 per four entries of a slice).
  parameter int unsigned PackW = 4,
  /// Width of an entry index.
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1,
  /// Width of a depth (0..RangeW/2).
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  /// Clock.
  input  wire logic                     clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                     rst_ni,
  /// Invalidate every entry at the edge (and abandon a write).
  input  wire logic                     clear_i,
  /// Search key of the next cycle (read at the edge).
  input  wire logic [RangeW-1:0]        key_next_i,
  /// One bit per entry: the entry matches the key read at the last edge.
  output logic [Groups-1:0]             match_o,
  /// Every entry's pdepth, entry e in bits [e*DepthW +: DepthW].
  output logic [Groups*DepthW-1:0]      pdepth_o,
  /// The same one-hot (hwprof_rap_tcam_flags), for the arbiter.
  output logic [Groups*(RangeW/2)-1:0]  pdepth_hot_o,
  /// Set entry set_idx_i to {1, set_pdepth_i, set_prefix_i} (starts the RAM write).
  input  wire logic                     set_i,
  /// Entry set.
  input  wire logic [IdxW-1:0]          set_idx_i,
  /// Parent depth of the set entry.
  input  wire logic [DepthW-1:0]        set_pdepth_i,
  /// Parent prefix of the set entry (bits below 2*set_pdepth_i are ignored).
  input  wire logic [RangeW-1:0]        set_prefix_i,
  /// Invalidate entry inv_idx_i.
  input  wire logic                     inv_i,
  /// Entry invalidated.
  input  wire logic [IdxW-1:0]          inv_idx_i,
  /// The slice RAMs are being rewritten (2^SliceW + 1 cycles after set_i).
  output logic                          busy_o,
  /// The last busy cycle.
  output logic                          last_o,
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

  localparam int unsigned NSlice = RangeW / SliceW;
  localparam int unsigned Words = 1 << SliceW;
  localparam int unsigned WaW = SliceW + 1;

  initial begin
    if (SliceW < 1 || SliceW > 8 || RangeW % SliceW != 0)
      $fatal(1, "hwprof_rap_tcam_ram: SliceW must be 1..8 and divide RangeW");
  end

  import hwprof_rap_pkg::prefix_mask;

  logic [RangeW-1:0] set_mask;
  assign set_mask = RangeW'(prefix_mask(RangeW, 32'(set_pdepth_i)));

  logic [DepthW-1:0] unused_ff_rd_pdepth;  // the dump's pdepth comes from u_prefix
  hwprof_rap_tcam_flags #(.Groups(Groups), .IdxW(IdxW), .DepthW(DepthW), .Depths(RangeW / 2)) u_flags (
    .clk_i, .rst_ni, .clear_i, .set_i, .set_idx_i, .set_pdepth_i, .inv_i, .inv_idx_i,
    .rd_idx_i, .rd_valid_o, .rd_pdepth_o(unused_ff_rd_pdepth), .valid_o, .pdepth_o, .pdepth_hot_o,
    .sel_pdepth_i, .sel_o);

  // Write sequencer: addresses 0 .. Words-1, then the refresh cycle.
  logic              busy_q;
  logic [WaW-1:0]    wa_q;
  logic [IdxW-1:0]   w_idx_q;
  logic [RangeW-1:0] w_prefix_q, w_mask_q;
  logic              wr_now;
  assign wr_now = busy_q && wa_q != WaW'(Words);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {busy_q, wa_q} <= '0;
    end else if (clear_i || set_i) begin  // clear abandons, set starts at address 0
      {busy_q, wa_q} <= {set_i && !clear_i, WaW'(0)};
    end else if (busy_q) begin
      {busy_q, wa_q} <= {!last_o, wa_q + WaW'(1)};
    end
  end
  always_ff @(posedge clk_i) begin
    if (set_i) begin
      w_idx_q <= set_idx_i;
      w_mask_q <= set_mask;
      w_prefix_q <= set_prefix_i & set_mask;
    end
  end
  assign busy_o = busy_q;
  assign last_o = busy_q && wa_q == WaW'(Words);

  // Slice RAMs: hwprof_ram_2p written in granules of PackW entries. The
  // rewrite of entry w_idx_q: in busy cycle j (wa_q = j < Words) the word
  // read at the last edge (address ra_q) is written back with bit w_idx_q
  // replaced by the entry's accept bit for that address, and the next word
  // (ra_q + 1) is read; in the last write cycle and the refresh cycle the
  // search reads again. Reads never meet a write of their own word during
  // the rewrite; the search read of the last write cycle may (X), and is
  // not used (busy).
  // Only the granule holding w_idx_q is written, so every granule gets the
  // same write word: that granule's word as read, with the entry's bit
  // replaced (a Gran:1 multiplexer per slice, not a multiplexer per bit).
  localparam int unsigned Gran = (Groups + PackW - 1) / PackW;
  localparam int unsigned WidthP = Gran * PackW;
  localparam int unsigned PosW = (PackW > 1) ? $clog2(PackW) : 1;
  logic              rmw_rd;   // the read port serves the rewrite at this edge
  logic [Gran-1:0]   gmask;    // the granule holding w_idx_q, while writing
  logic [IdxW:0]     w_gran;   // that granule
  logic [PosW-1:0]   w_pos;    // the entry's bit in it
  logic [Groups-1:0] hit [NSlice];
  assign rmw_rd = busy_q && wa_q < WaW'(Words - 1);
  assign w_gran = (IdxW + 1)'(32'(w_idx_q) / PackW);
  assign w_pos  = PosW'(32'(w_idx_q) % PackW);
  always_comb begin
    for (int unsigned g = 0; g < Gran; g++) gmask[g] = wr_now && w_gran == (IdxW + 1)'(g);
  end
  for (genvar i = 0; i < NSlice; i++) begin : gen_slice
    localparam int unsigned Lo = RangeW - (i + 1) * SliceW;
    logic              bit_w;
    logic [SliceW-1:0] raddr, ra_q;
    logic [WidthP-1:0] rdata;
    logic [PackW-1:0]  gword, wword;
    assign raddr = rmw_rd ? ra_q + SliceW'(1) : key_next_i[Lo +: SliceW];
    always_ff @(posedge clk_i) ra_q <= raddr;
    assign bit_w = ((ra_q ^ w_prefix_q[Lo +: SliceW]) & w_mask_q[Lo +: SliceW]) == '0;
    always_comb begin
      gword = rdata[w_gran*PackW +: PackW];
      for (int unsigned p = 0; p < PackW; p++) wword[p] = w_pos == PosW'(p) ? bit_w : gword[p];
    end
    hwprof_ram_2p #(.Depth(Words), .Width(WidthP), .GranW(PackW)) u_ram (
      .clk_i, .wmask_i(gmask), .waddr_i(ra_q), .wdata_i({Gran{wword}}),
      .re_i(1'b1), .raddr_i(raddr), .rdata_o(rdata));
    assign hit[i] = rdata[Groups-1:0];
    if (WidthP > Groups) begin : gen_pad
      logic [WidthP-Groups-1:0] unused_pad;
      assign unused_pad = rdata[WidthP-1:Groups];
    end
  end

  always_comb begin
    match_o = valid_o;
    for (int unsigned i = 0; i < NSlice; i++) match_o = match_o & hit[i];
  end

  // Read port: the pdepths and prefixes in a RAM (valid in u_flags).
  hwprof_ram_2p #(.Depth(Groups), .Width(DepthW + RangeW), .GranW(DepthW + RangeW)) u_prefix (
    .clk_i, .wmask_i(set_i), .waddr_i(set_idx_i), .wdata_i({set_pdepth_i, set_prefix_i & set_mask}),
    .re_i(1'b1), .raddr_i(rd_idx_i), .rdata_o({rd_pdepth_o, rd_prefix_o}));

  `HWPROF_ASSERT(no_set_while_busy, !(set_i && busy_q && !clear_i))

endmodule

`default_nettype wire
