// hwprof_rap_engine_wrap: synthesis wrapper for hwprof_rap_engine. All DUT inputs come from
// registers loaded over one serial pin and all DUT outputs land in registers
// folded into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr
// reports is the core's register-to-register Fmax and the design fits every
// package. Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_rap_engine_wrap #(
  /// Value width; passed to hwprof_rap_engine.
  parameter int unsigned RangeW = 32,
  /// Child groups; passed to hwprof_rap_engine.
  parameter int unsigned Groups = 127,
  /// Event queue depth; passed to hwprof_rap_engine.
  parameter int unsigned QueueDepth = 1024,
  /// Counter width; passed to hwprof_rap_engine.
  parameter int unsigned CntW = 40,
  /// TCAM slice width (0: flip-flop TCAM); passed to hwprof_rap_engine.
  parameter int unsigned TcamSlice = 4
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

  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1);
  // DUT inputs: ev_valid_i, ev_value_i, ev_weight_i, dump_ready_i, csr_we_i,
  // csr_addr_i, csr_wdata_i.
  localparam int unsigned InW  = 1 + RangeW + 16 + 1 + 1 + 5 + 32;
  // DUT outputs: ev_ready_o, dump_valid_o, dump_last_o, dump_slot_valid_o,
  // dump_depth_o, dump_prefix_o, dump_cnt0..3_o, csr_rdata_o.
  localparam int unsigned OutW = 4 + DepthW + RangeW + 4 * CntW + 32;

  logic              dut_rst_n;
  logic [InW-1:0]    dut_in;
  logic [OutW-1:0]   dut_out;

  logic              ev_valid, ev_ready, dump_ready, dump_valid, dump_last, dump_slot_valid, csr_we;
  logic [RangeW-1:0] ev_value, dump_prefix;
  logic [15:0]       ev_weight;
  logic [4:0]        csr_addr;
  logic [31:0]       csr_wdata, csr_rdata;
  logic [DepthW-1:0] dump_depth;
  logic [CntW-1:0]   dump_cnt0, dump_cnt1, dump_cnt2, dump_cnt3;

  assign {ev_valid, ev_value, ev_weight, dump_ready, csr_we, csr_addr, csr_wdata} = dut_in;
  assign dut_out = {ev_ready, dump_valid, dump_last, dump_slot_valid, dump_depth, dump_prefix,
                    dump_cnt0, dump_cnt1, dump_cnt2, dump_cnt3, csr_rdata};

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

  hwprof_rap_engine #(
    .RangeW    (RangeW),
    .Groups    (Groups),
    .QueueDepth(QueueDepth),
    .CntW      (CntW),
    .TcamSlice (TcamSlice)
  ) u_dut (
    .clk_i,
    .rst_ni           (dut_rst_n),
    .ev_valid_i       (ev_valid),
    .ev_ready_o       (ev_ready),
    .ev_value_i       (ev_value),
    .ev_weight_i      (ev_weight),
    .dump_valid_o     (dump_valid),
    .dump_ready_i     (dump_ready),
    .dump_last_o      (dump_last),
    .dump_slot_valid_o(dump_slot_valid),
    .dump_depth_o     (dump_depth),
    .dump_prefix_o    (dump_prefix),
    .dump_cnt0_o      (dump_cnt0),
    .dump_cnt1_o      (dump_cnt1),
    .dump_cnt2_o      (dump_cnt2),
    .dump_cnt3_o      (dump_cnt3),
    .csr_we_i         (csr_we),
    .csr_addr_i       (csr_addr),
    .csr_wdata_i      (csr_wdata),
    .csr_rdata_o      (csr_rdata)
  );

endmodule

`default_nettype wire
