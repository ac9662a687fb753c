// hwprof_branch_queue_wrap: synthesis wrapper for hwprof_branch_queue. All DUT inputs come
// from registers loaded over one serial pin and all DUT outputs land in
// registers folded into one serial pin (hwprof_synth_io_shell), so the Fmax that
// nextpnr reports is the core's register-to-register Fmax and the design
// fits every package. Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_branch_queue_wrap #(
  /// Number of records held; passed to hwprof_branch_queue.
  parameter int unsigned Depth = 4
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

  localparam int unsigned RecW   = hwprof_pkg::BranchRecW;
  localparam int unsigned CountW = $clog2(Depth + 1);
  // DUT inputs: enq_valid_i, deq_ready_i, enq_data_i.
  localparam int unsigned InW    = 2 + RecW;
  // DUT outputs: enq_ready_o, deq_valid_o, deq_data_o, count_o.
  localparam int unsigned OutW   = 2 + RecW + CountW;

  logic                    dut_rst_n;
  logic [InW-1:0]          dut_in;
  logic [OutW-1:0]         dut_out;

  logic                    enq_valid, enq_ready, deq_valid, deq_ready;
  hwprof_pkg::branch_rec_t enq_data, deq_data;
  logic [CountW-1:0]       count;

  assign {enq_valid, deq_ready, enq_data} = dut_in;
  assign dut_out = {enq_ready, deq_valid, deq_data, count};

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

  hwprof_branch_queue #(
    .Depth(Depth)
  ) u_dut (
    .clk_i,
    .rst_ni     (dut_rst_n),
    .enq_valid_i(enq_valid),
    .enq_ready_o(enq_ready),
    .enq_data_i (enq_data),
    .deq_valid_o(deq_valid),
    .deq_ready_i(deq_ready),
    .deq_data_o (deq_data),
    .count_o    (count)
  );

endmodule

`default_nettype wire
