// hwprof_rap_counter_ram_wrap: synthesis wrapper for hwprof_rap_counter_ram (the counter
// SRAM). All DUT inputs come from registers loaded over one serial pin and
// all DUT outputs land in registers folded into one serial pin
// (hwprof_synth_io_shell), so the Fmax that nextpnr reports is the core's
// register-to-register Fmax and the design fits every package. Measurement
// harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_counter_ram_wrap #(
  /// Rows (child groups); passed to hwprof_rap_counter_ram.
  parameter int unsigned Groups = 128,
  /// Counter width; passed to hwprof_rap_counter_ram.
  parameter int unsigned CntW = 40
) (
  /// Clock.
  input  wire logic clk_i,
  /// Asynchronous active-low reset (synchronised inside).
  input  wire logic rst_ni,
  /// Serial input: DUT input bits, one per clock.
  input  wire logic sin_i,
  /// Load the shifted-in bits onto the DUT inputs.
  input  wire logic load_i,
  /// Serial output: signature of the DUT outputs.
  output logic      sout_o
);

  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1;
  // DUT inputs: clear_i, zero_i, zero_row_i, we_i, wrow_i, wcol_i, wdata_i,
  // ra_i, rb_row_i, rb_col_i.
  localparam int unsigned InW  = 1 + 1 + IdxW + 1 + IdxW + 2 + CntW + IdxW + IdxW + 2;
  // DUT outputs: rowa_o, cntb_o.
  localparam int unsigned OutW = 4 * CntW + CntW;

  logic              dut_rst_n;
  logic [InW-1:0]    dut_in;
  logic [OutW-1:0]   dut_out;

  logic              clear, zero, we;
  logic [IdxW-1:0]   zero_row, wrow, ra, rb_row;
  logic [1:0]        wcol, rb_col;
  logic [CntW-1:0]   wdata, cntb;
  logic [4*CntW-1:0] rowa;

  assign {clear, zero, zero_row, we, wrow, wcol, wdata, ra, rb_row, rb_col} = dut_in;
  assign dut_out = {rowa, cntb};

  hwprof_synth_io_shell #(
    .InW (InW),
    .OutW(OutW)
  ) u_shell (
    .clk_i,
    .rst_ni,
    .sin_i,
    .load_i,
    .sout_o,
    .dut_rst_no(dut_rst_n),
    .dut_in_o  (dut_in),
    .dut_out_i (dut_out)
  );

  hwprof_rap_counter_ram #(
    .Groups(Groups),
    .CntW  (CntW)
  ) u_dut (
    .clk_i,
    .rst_ni    (dut_rst_n),
    .clear_i   (clear),
    .zero_i    (zero),
    .zero_row_i(zero_row),
    .we_i      (we),
    .wrow_i    (wrow),
    .wcol_i    (wcol),
    .wdata_i   (wdata),
    .ra_i      (ra),
    .rowa_o    (rowa),
    .rb_row_i  (rb_row),
    .rb_col_i  (rb_col),
    .cntb_o    (cntb)
  );

endmodule

`default_nettype wire
