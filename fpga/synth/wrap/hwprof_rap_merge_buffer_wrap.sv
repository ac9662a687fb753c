// hwprof_rap_merge_buffer_wrap: synthesis wrapper for hwprof_rap_merge_buffer (the RAP
// engine's merging event buffer, with hwprof_rap_engine's widths: RangeW 32 values,
// 16-bit event weights, 32-bit pair weights, MaxBuf 8). All DUT inputs come from registers
// loaded over one serial pin and all DUT outputs land in registers folded
// into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is
// the core's register-to-register Fmax and the design fits every package.
// Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_merge_buffer_wrap #(
  /// Largest depth; passed to hwprof_rap_merge_buffer.
  parameter int unsigned MaxBuf = 8,
  /// Value width; passed to hwprof_rap_merge_buffer.
  parameter int unsigned ValW = 32,
  /// Raw event weight width; passed to hwprof_rap_merge_buffer.
  parameter int unsigned WtW = 16,
  /// Pair weight width; passed to hwprof_rap_merge_buffer.
  parameter int unsigned PairWtW = 32
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

  localparam int unsigned DepthW = $clog2(MaxBuf + 1);
  // DUT inputs: clear_i, depth_i, flush_i, in_valid_i, in_value_i,
  // in_weight_i, out_ready_i.
  localparam int unsigned InW  = 1 + DepthW + 1 + 1 + ValW + WtW + 1;
  // DUT outputs: in_ready_o, out_valid_o, out_value_o, out_weight_o, empty_o.
  localparam int unsigned OutW = 2 + ValW + PairWtW + 1;

  logic               dut_rst_n;
  logic [InW-1:0]     dut_in;
  logic [OutW-1:0]    dut_out;

  logic               clear, flush, in_valid, in_ready, out_valid, out_ready, empty;
  logic [DepthW-1:0]  depth;
  logic [ValW-1:0]    in_value, out_value;
  logic [WtW-1:0]     in_weight;
  logic [PairWtW-1:0] out_weight;

  assign {clear, depth, flush, in_valid, in_value, in_weight, out_ready} = dut_in;
  assign dut_out = {in_ready, out_valid, out_value, out_weight, empty};

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

  hwprof_rap_merge_buffer #(
    .MaxBuf (MaxBuf),
    .ValW   (ValW),
    .WtW    (WtW),
    .PairWtW(PairWtW)
  ) u_dut (
    .clk_i,
    .rst_ni      (dut_rst_n),
    .clear_i     (clear),
    .depth_i     (depth),
    .flush_i     (flush),
    .in_valid_i  (in_valid),
    .in_ready_o  (in_ready),
    .in_value_i  (in_value),
    .in_weight_i (in_weight),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready),
    .out_value_o (out_value),
    .out_weight_o(out_weight),
    .empty_o     (empty)
  );

endmodule

`default_nettype wire
