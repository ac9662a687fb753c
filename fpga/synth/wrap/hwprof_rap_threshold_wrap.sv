// hwprof_rap_threshold_wrap: synthesis wrapper for hwprof_rap_threshold (the RAP engine's
// threshold unit, the paper's "ALU"; combinational, so the Fmax is one
// register-to-register pass through the multiplier: eps_i and n_i from the
// input stage, t_o into the output stage). All DUT inputs come from registers
// loaded over one serial pin and all DUT outputs land in registers folded
// into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is
// the core's register-to-register Fmax and the design fits every package.
// Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_threshold_wrap #(
  /// Value width; passed to hwprof_rap_threshold.
  parameter int unsigned RangeW = 32,
  /// Counter width; passed to hwprof_rap_threshold (hwprof_rap_engine's default).
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

  // DUT inputs: eps_i, n_i.
  localparam int unsigned InW  = 16 + CntW;
  // DUT outputs: t_o.
  localparam int unsigned OutW = CntW;

  logic            dut_rst_n;
  logic [InW-1:0]  dut_in;
  logic [OutW-1:0] dut_out;

  logic [15:0]     eps;
  logic [CntW-1:0] n, t;

  assign {eps, n} = dut_in;
  assign dut_out = t;

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

  // Combinational core: the shell's synchronised reset is not used.
  logic unused_rst_n;
  assign unused_rst_n = dut_rst_n;

  hwprof_rap_threshold #(
    .RangeW(RangeW),
    .CntW  (CntW)
  ) u_dut (
    .eps_i(eps),
    .n_i  (n),
    .t_o  (t)
  );

endmodule

`default_nettype wire
