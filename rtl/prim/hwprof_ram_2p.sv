/// hwprof_ram_2p: simple dual-port RAM, one write port and one read port on
/// the same clock, registered read, write mask in granules of GranW bits.
/// Written so that Yosys maps it to block RAM with no logic around it (iCE40
/// SB_RAM40_4K has a per-bit write mask; ECP5 DP16KD / PDPW16KD get one RAM
/// column per distinct mask net, so a user whose mask bits are copies of a
/// few enables, e.g. two fields, costs no extra RAM).
///
/// Replaced the former two-field hwprof_sdp_ram (GranW = 1,
/// wmask_i = {{Width-LoW{we[1]}}, {LoW{we[0]}}}).
///
/// Cycle behaviour (model: RamModel in tb/prim/prim_test.cpp):
///   * Write: at an edge, each granule g with wmask_i[g] stores
///     wdata_i[g*GranW +: GranW] into the word at waddr_i.
///   * Read: re_i at an edge loads rdata_o with the word at raddr_i (latency
///     1); without re_i rdata_o holds its value (the RAM's read clock enable).
///   * Read and write of the same address at the same edge: a granule being
///     written reads as undefined (X), the others read normally. Block RAMs
///     differ here (old data, new data, garbage), and emulating a defined
///     behaviour costs a register and a mux per bit in fabric; a user that
///     needs the new word forwards it itself. Verilator (-x-assign unique)
///     turns the X into a random value, so a missing forward fails in
///     simulation.
/// The array and the read register have no reset (block RAM).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_ram_2p #(
  /// Number of words (>= 1).
  parameter int unsigned Depth = 128,
  /// Bits per word (>= 1, a multiple of GranW).
  parameter int unsigned Width = 8,
  /// Bits per write-mask granule (1: per-bit mask).
  parameter int unsigned GranW = 1,
  /// Width of the addresses.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  /// Number of write-mask granules.
  localparam int unsigned MaskW = Width / GranW
) (
  /// Clock of both ports.
  input  wire logic              clk_i,
  // Write port.
  /// Write mask, sampled at the edge: granule g is written when wmask_i[g].
  input  wire logic [MaskW-1:0]  wmask_i,
  /// Write address (< Depth).
  input  wire logic [AddrW-1:0]  waddr_i,
  /// Write data.
  input  wire logic [Width-1:0]  wdata_i,
  // Read port.
  /// Read enable: load rdata_o at the edge.
  input  wire logic              re_i,
  /// Read address (< Depth).
  input  wire logic [AddrW-1:0]  raddr_i,
  /// Read data, registered: the word at raddr_i at the last edge with re_i.
  output logic [Width-1:0]       rdata_o
);

  `HWPROF_ASSERT_INIT(params_legal, Depth >= 1 && GranW >= 1 && Width >= GranW && Width % GranW == 0)

  logic [Width-1:0] mem_q [Depth];  // no reset: block RAM
  logic [Width-1:0] rdata_q;        // no reset: the RAM's output register
  logic [Width-1:0] rword;
  logic             same_addr;

  assign same_addr = (waddr_i == raddr_i);

`ifndef VERILATOR
  // Synthesis: one masked write per granule, which Yosys maps to the block
  // RAM's write-enable mask (iCE40 per bit, ECP5 per port width).
  always_ff @(posedge clk_i) begin
    for (int unsigned g = 0; g < MaskW; g++) begin
      if (wmask_i[g]) mem_q[waddr_i][g*GranW +: GranW] <= wdata_i[g*GranW +: GranW];
    end
  end
`else
  // Simulation: Verilator 5.006 rejects a non-blocking write to an array inside a loop it
  // does not unroll (BLKLOOPINIT, more than 64 granules), so it simulates the
  // same masked write as a read-merge-write of the whole word. (Yosys does not
  // infer block RAM from this form: it is for simulation only.)
  logic [Width-1:0] wbits;
  always_comb begin
    for (int unsigned g = 0; g < MaskW; g++) wbits[g*GranW +: GranW] = {GranW{wmask_i[g]}};
  end
  always_ff @(posedge clk_i) begin
    if (|wmask_i) mem_q[waddr_i] <= (mem_q[waddr_i] & ~wbits) | (wdata_i & wbits);
  end
`endif

  // The X on a colliding granule tells Yosys the read port need not be
  // transparent nor read-first ("don't care on collision"), so nothing is
  // emulated.
  always_comb begin
    rword = mem_q[raddr_i];
    for (int unsigned g = 0; g < MaskW; g++) begin
      if (wmask_i[g] && same_addr) rword[g*GranW +: GranW] = 'x;
    end
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= rword;
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
