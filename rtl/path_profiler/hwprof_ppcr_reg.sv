// hwprof_ppcr_reg: the path profiler control register (PPCR) and its sticky error
// flag. See docs/path_stack.md, "PPCR" and "Register map".
//
// Behaviour (identical in PpcrReg, sim_models/path_profiler/path_frontend.h):
//   * Reset: value = PathPpcrReset (BL), err = 0.
//     Fields and reset value: hwprof_path_reg_pkg (data/regs/path.json).
//   * A write (we_i) is legal unless some class c = 0..4 has update (bit 4c)
//     and update-count (bit 4c+1) both set; reserved bits 31:23 never make a
//     write illegal.
//   * A legal write stores wdata_i & PpcrMask (the field bits 22:0;
//     reserved bits read as 0) at the clock edge; the new value is on ppcr_o
//     from the next cycle.
//   * An illegal write leaves the value unchanged and sets err.
//   * err_clear_i clears err at the edge, except that an illegal write in the
//     same cycle wins: err is then set.
`default_nettype none

module hwprof_ppcr_reg (
  /// Clock.
  input  wire logic                          clk_i,
  /// Asynchronous active-low reset: value to BL, error flag cleared.
  input  wire logic                          rst_ni,
  /// Write strobe, sampled at the clock edge.
  input  wire logic                          we_i,
  /// Write data (reserved bits 31:23 ignored).
  input  wire logic [hwprof_pkg::PpcrW-1:0]  wdata_i,
  /// Clear the sticky error flag (a rejected write in the same cycle wins).
  input  wire logic                          err_clear_i,
  /// Current register value (reserved bits 0), registered.
  output logic [hwprof_pkg::PpcrW-1:0]       ppcr_o,
  /// Sticky error flag: an illegal write was rejected. Registered.
  output logic                               err_o
);

  import hwprof_pkg::*;
  import hwprof_path_reg_pkg::*;

  /// Bits that hold state: every field up to max_ext, the highest.
  localparam logic [PpcrW-1:0] PpcrMask = PpcrW'((64'd1 << (PathPpcrMaxExtLsb + PathPpcrMaxExtW)) - 1);

  logic [PpcrW-1:0] value_q;
  logic             err_q;
  logic             illegal;

  // Illegal: update (bit 4c) and update-count (bit 4c+1) together in one
  // class c = 0..NumClasses-1.
  localparam logic [PpcrW-1:0] UpdBits = PpcrW'({NumClasses{4'b0001}});
  assign illegal = |(wdata_i & (wdata_i >> 1) & UpdBits);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      value_q <= PathPpcrReset;
      err_q   <= 1'b0;
    end else begin
      if (we_i && !illegal) value_q <= wdata_i & PpcrMask;
      err_q <= (we_i && illegal) || (err_q && !err_clear_i);
    end
  end

  assign ppcr_o = value_q;
  assign err_o  = err_q;

endmodule

`default_nettype wire
