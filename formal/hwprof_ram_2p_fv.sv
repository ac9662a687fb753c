/// hwprof_ram_2p_fv: formal harness of hwprof_ram_2p (make formal,
/// docs/verification.md). A word address and a granule are chosen freely in
/// the first cycle; the harness remembers the last value written into that
/// granule and asserts that a read of the word (re_i) returns it on rdata_o
/// one edge later, unless the same edge also wrote that granule (undefined
/// by the specification); without re_i rdata_o holds. Bounded (the storage
/// is not visible to the harness, so k-induction has no invariant).
`default_nettype none

module hwprof_ram_2p_fv #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 4,
  parameter int unsigned GranW = 2
) (
  input wire logic                      clk_i,
  input wire logic [Width/GranW-1:0]    wmask_i,
  input wire logic [$clog2(Depth)-1:0]  waddr_i,
  input wire logic [Width-1:0]          wdata_i,
  input wire logic                      re_i,
  input wire logic [$clog2(Depth)-1:0]  raddr_i,
  input wire logic [$clog2(Depth)-1:0]  pick_addr_i,
  input wire logic [$clog2(Width/GranW > 1 ? Width/GranW : 2)-1:0] pick_gran_i
);
  localparam int unsigned MaskW = Width / GranW;
  localparam int unsigned AddrW = $clog2(Depth);

  logic [Width-1:0] rdata_o;
  hwprof_ram_2p #(.Depth(Depth), .Width(Width), .GranW(GranW)) dut (
    .clk_i, .wmask_i, .waddr_i, .wdata_i, .re_i, .raddr_i, .rdata_o);

  logic init_q = 1'b1;
  logic [AddrW-1:0] a_q;
  logic [$bits(pick_gran_i)-1:0] g_q;
  logic known_q = 1'b0;         // the tracked granule has been written
  logic [GranW-1:0] val_q;      // its last written value
  logic expect_q = 1'b0;        // rdata_o must show exp_q this cycle
  logic [GranW-1:0] exp_q;
  logic hold_q = 1'b0;          // no read at the last edge: rdata_o holds
  logic [Width-1:0] prev_q;

  always_comb begin
    if (init_q) assume (32'(pick_gran_i) < MaskW);
  end

  wire wr_g  = !init_q && wmask_i[g_q] && waddr_i == a_q;
  wire rd_a  = !init_q && re_i && raddr_i == a_q;

  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
    if (init_q) begin
      a_q <= pick_addr_i;
      g_q <= pick_gran_i;
    end
    if (wr_g) begin
      known_q <= 1'b1;
      val_q <= wdata_i[g_q*GranW +: GranW];
    end
    expect_q <= rd_a && known_q && !wr_g;
    exp_q <= val_q;
    hold_q <= !init_q && !re_i;
    prev_q <= rdata_o;
  end

  always_comb begin
    if (expect_q) assert (rdata_o[g_q*GranW +: GranW] == exp_q);
    if (hold_q) assert (rdata_o == prev_q);
    cover (expect_q && exp_q == '1);
  end
endmodule

`default_nettype wire
