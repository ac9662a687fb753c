// hwprof_sdp_ram: simple dual-port RAM, one write port and one read port on the
// same clock, registered read. The word is two fields with their own write
// enables (bits LoW-1:0 and Width-1:LoW), so a user can rewrite one field
// and leave the other. Written so that Yosys maps it to block RAM (iCE40
// SB_RAM40_4K, which has a per-bit write mask; ECP5 DP16KD/PDPW16KD) with
// no logic around it.
//
// Cycle behaviour:
//   * Write: at an edge, we_i[0] stores wdata_i[LoW-1:0] and we_i[1] stores
//     wdata_i[Width-1:LoW] into the word at waddr_i (either, both or none).
//   * Read: re_i at an edge loads rdata_o with the word at raddr_i; without
//     re_i rdata_o holds its value (the block RAM's read clock enable).
//   * Read and write of the same address at the same edge: the field being
//     written reads as undefined (X), the other reads normally. Block RAMs
//     differ here (old data, new data, garbage), and emulating either
//     defined behaviour costs a register and a mux per bit in fabric; a user
//     that needs the new word forwards it itself (hwprof_hpt does). Verilator
//     (-x-assign unique) turns the X into a random value, so a missing
//     forward fails in simulation.
// The array and the read register have no reset (block RAM).
`default_nettype none

module hwprof_sdp_ram #(
  /// Number of words (>= 1).
  parameter int unsigned Depth = 128,
  /// Bits per word (>= 2).
  parameter int unsigned Width = 8,
  /// Bits of the low field (1..Width-1); the high field is the rest.
  parameter int unsigned LoW = Width / 2,
  /// Width of the addresses.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  /// Clock of both ports.
  input  wire logic              clk_i,
  // Write port.
  /// Write enables, sampled at the edge: bit 0 the low field, bit 1 the high.
  input  wire logic [1:0]        we_i,
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

  initial begin
    if (Depth < 1) $fatal(1, "hwprof_sdp_ram: Depth must be >= 1");
    if (Width < 2) $fatal(1, "hwprof_sdp_ram: Width must be >= 2");
    if (LoW < 1 || LoW >= Width) $fatal(1, "hwprof_sdp_ram: LoW must be 1..Width-1");
  end

  logic [Width-1:0] mem_q [Depth];  // no reset: block RAM
  logic [Width-1:0] rdata_q;        // no reset: the RAM's output register
  logic             same_addr;

  assign same_addr = (waddr_i == raddr_i);

  always_ff @(posedge clk_i) begin
    if (we_i[0]) mem_q[waddr_i][LoW-1:0] <= wdata_i[LoW-1:0];
    if (we_i[1]) mem_q[waddr_i][Width-1:LoW] <= wdata_i[Width-1:LoW];
  end

  // The X on a colliding field tells Yosys the read port need not be
  // transparent nor read-first ("don't care on collision"), so nothing is
  // emulated.
  always_ff @(posedge clk_i) begin
    if (re_i) begin
      rdata_q[LoW-1:0]     <= (we_i[0] && same_addr) ? 'x : mem_q[raddr_i][LoW-1:0];
      rdata_q[Width-1:LoW] <= (we_i[1] && same_addr) ? 'x : mem_q[raddr_i][Width-1:LoW];
    end
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
