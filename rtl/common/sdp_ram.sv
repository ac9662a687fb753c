// sdp_ram: simple dual-port RAM, one write port and one read port on the
// same clock, registered read. Written so that Yosys maps it to block RAM
// (iCE40 SB_RAM40_4K, ECP5 DP16KD/PDPW16KD) with no logic around it.
//
// Cycle behaviour:
//   * Write: we_i at an edge stores wdata_i at waddr_i.
//   * Read: re_i at an edge loads rdata_o with the word at raddr_i; without
//     re_i rdata_o holds its value (the block RAM's read clock enable).
//   * Read and write of the same address at the same edge: rdata_o is
//     undefined (X). Block RAMs differ here (old data, new data, garbage),
//     and emulating either defined behaviour costs a Width-bit register and a
//     Width-bit mux in fabric; a user that needs the new word forwards it
//     itself (hpt does). Verilator (-x-assign unique) turns the X into a
//     random value, so a missing forward fails in simulation.
// The array and the read register have no reset (block RAM).
`default_nettype none

module sdp_ram #(
  /// Number of words (>= 1).
  parameter int unsigned Depth = 128,
  /// Bits per word (>= 1).
  parameter int unsigned Width = 8,
  /// Width of the addresses.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  /// Clock of both ports.
  input  wire logic              clk_i,
  // Write port.
  /// Write enable, sampled at the edge.
  input  wire logic              we_i,
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
    if (Depth < 1) $fatal(1, "sdp_ram: Depth must be >= 1");
    if (Width < 1) $fatal(1, "sdp_ram: Width must be >= 1");
  end

  logic [Width-1:0] mem_q [Depth];  // no reset: block RAM
  logic [Width-1:0] rdata_q;        // no reset: the RAM's output register
  logic             collide;

  assign collide = we_i && (waddr_i == raddr_i);

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  // The X on a collision tells Yosys the read port need not be transparent
  // nor read-first ("don't care on collision"), so nothing is emulated.
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= collide ? 'x : mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule
