// hwprof_rap_event_queue_wrap: synthesis wrapper for hwprof_rap_event_queue (the RAP
// engine's event queue, default 1024 x 48 = RangeW 32 + 16-bit weight, as in
// hwprof_rap_engine). All DUT inputs come from registers
// loaded over one serial pin and all DUT outputs land in registers folded
// into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is
// the core's register-to-register Fmax and the design fits every package.
// Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_event_queue_wrap #(
  /// Entry width; passed to hwprof_rap_event_queue.
  parameter int unsigned Width = 48,
  /// Entries; passed to hwprof_rap_event_queue.
  parameter int unsigned Depth = 1024
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

  // DUT inputs: clear_i, in_valid_i, in_data_i, out_ready_i.
  localparam int unsigned InW  = 3 + Width;
  // DUT outputs: in_ready_o, out_valid_o, out_data_o.
  localparam int unsigned OutW = 2 + Width;

  logic             dut_rst_n;
  logic [InW-1:0]   dut_in;
  logic [OutW-1:0]  dut_out;

  logic             clear, in_valid, in_ready, out_valid, out_ready;
  logic [Width-1:0] in_data, out_data;

  assign {clear, in_valid, in_data, out_ready} = dut_in;
  assign dut_out = {in_ready, out_valid, out_data};

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

  hwprof_rap_event_queue #(
    .Width(Width),
    .Depth(Depth)
  ) u_dut (
    .clk_i,
    .rst_ni     (dut_rst_n),
    .clear_i    (clear),
    .in_valid_i (in_valid),
    .in_ready_o (in_ready),
    .in_data_i  (in_data),
    .out_valid_o(out_valid),
    .out_ready_i(out_ready),
    .out_data_o (out_data)
  );

endmodule

`default_nettype wire
