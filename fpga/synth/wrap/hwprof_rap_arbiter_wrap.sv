// hwprof_rap_arbiter_wrap: synthesis wrapper for hwprof_rap_arbiter (the RAP engine's
// priority arbiter, longest prefix wins; combinational, so the Fmax is one
// register-to-register pass: match_i and pdepth_i from the input stage, the
// winner into the output stage). All DUT inputs come from registers
// loaded over one serial pin and all DUT outputs land in registers folded
// into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is
// the core's register-to-register Fmax and the design fits every package.
// Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_arbiter_wrap #(
  /// Value width; passed to hwprof_rap_arbiter.
  parameter int unsigned RangeW = 32,
  /// Entries; passed to hwprof_rap_arbiter.
  parameter int unsigned Groups = 128
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
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1);
  // DUT inputs: match_i, pdepth_i.
  localparam int unsigned InW  = Groups + Groups * DepthW;
  // DUT outputs: hit_o, idx_o, pdepth_o.
  localparam int unsigned OutW = 1 + IdxW + DepthW;

  logic                       dut_rst_n;
  logic [InW-1:0]             dut_in;
  logic [OutW-1:0]            dut_out;

  logic [Groups-1:0]          match;
  logic [Groups*DepthW-1:0]   pdepth;
  logic                       hit;
  logic [IdxW-1:0]            idx;
  logic [DepthW-1:0]          win_pdepth;

  assign {match, pdepth} = dut_in;
  assign dut_out = {hit, idx, win_pdepth};

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

  hwprof_rap_arbiter #(
    .RangeW(RangeW),
    .Groups(Groups)
  ) u_dut (
    .match_i (match),
    .pdepth_i(pdepth),
    .hit_o   (hit),
    .idx_o   (idx),
    .pdepth_o(win_pdepth)
  );

endmodule

`default_nettype wire
