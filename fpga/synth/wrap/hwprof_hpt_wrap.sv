// hwprof_hpt_wrap: synthesis wrapper for hwprof_hpt. All DUT inputs come from registers
// loaded over one serial pin and all DUT outputs land in registers folded
// into one serial pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is
// the core's register-to-register Fmax and the design fits every package.
// Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_hpt_wrap #(
  /// Sets (power of two); passed to hwprof_hpt.
  parameter int unsigned Sets = 128,
  /// Ways; passed to hwprof_hpt.
  parameter int unsigned Ways = 4
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

  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1;
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1;
  // DUT inputs: in_valid_i, dump_ready_i, the descriptor (start, length,
  // dirs, events, insns, incomplete), csr_we_i, csr_addr_i, csr_wdata_i.
  localparam int unsigned InW  = 2 + 32 + 6 + 32 + 16 + 24 + 1 + 1 + 4 + 32;
  // DUT outputs: in_ready_o, dump_valid_o, the dump entry, dump_busy_o,
  // csr_rdata_o.
  localparam int unsigned OutW = 2 + SetW + WayW + 32 + 6 + 32 + 32 + 1 + 32;

  logic            dut_rst_n;
  logic [InW-1:0]  dut_in;
  logic [OutW-1:0] dut_out;

  logic            in_valid, in_ready, dump_valid, dump_ready, dump_busy;
  logic [31:0]     in_start, in_dirs;
  logic [5:0]      in_length;
  logic [15:0]     in_events;
  logic [23:0]     in_insns;
  logic            in_incomplete;
  logic [SetW-1:0] dump_set;
  logic [WayW-1:0] dump_way;
  logic [31:0]     dump_start, dump_dirs, dump_acc;
  logic [5:0]      dump_length;
  logic            csr_we;
  logic [3:0]      csr_addr;
  logic [31:0]     csr_wdata, csr_rdata;

  assign {in_valid, dump_ready, in_start, in_length, in_dirs, in_events, in_insns, in_incomplete,
          csr_we, csr_addr, csr_wdata} = dut_in;
  assign dut_out = {in_ready, dump_valid, dump_set, dump_way, dump_start, dump_length, dump_dirs,
                    dump_acc, dump_busy, csr_rdata};

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

  hwprof_hpt #(
    .Sets(Sets),
    .Ways(Ways)
  ) u_dut (
    .clk_i,
    .rst_ni         (dut_rst_n),
    .in_valid_i     (in_valid),
    .in_ready_o     (in_ready),
    .in_start_i     (in_start),
    .in_length_i    (in_length),
    .in_dirs_i      (in_dirs),
    .in_events_i    (in_events),
    .in_insns_i     (in_insns),
    .in_incomplete_i(in_incomplete),
    .dump_valid_o   (dump_valid),
    .dump_ready_i   (dump_ready),
    .dump_set_o     (dump_set),
    .dump_way_o     (dump_way),
    .dump_start_o   (dump_start),
    .dump_length_o  (dump_length),
    .dump_dirs_o    (dump_dirs),
    .dump_acc_o     (dump_acc),
    .dump_busy_o    (dump_busy),
    .csr_we_i       (csr_we),
    .csr_addr_i     (csr_addr),
    .csr_wdata_i    (csr_wdata),
    .csr_rdata_o    (csr_rdata)
  );

endmodule

`default_nettype wire
