// hwprof_path_profiler_wrap: synthesis wrapper for the whole path profiler
// (hwprof_path_frontend + hwprof_hpt). All DUT inputs come from registers loaded over one
// serial pin and all DUT outputs land in registers folded into one serial
// pin (hwprof_synth_io_shell), so the Fmax that nextpnr reports is the core's
// register-to-register Fmax and the design fits every package. Measurement
// harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_path_profiler_wrap #(
  /// Records held by the branch queue; passed to hwprof_path_profiler.
  parameter int unsigned QueueDepth = 4,
  /// Path stack entries; passed to hwprof_path_profiler.
  parameter int unsigned Depth = 16,
  /// Maximum branches per path; passed to hwprof_path_profiler.
  parameter int unsigned MaxLen = 32,
  /// HPT sets; passed to hwprof_path_profiler.
  parameter int unsigned Sets = 128,
  /// HPT ways; passed to hwprof_path_profiler.
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

  localparam int unsigned RecW = hwprof_pkg::BranchRecW;
  localparam int unsigned SetW = Sets > 1 ? $clog2(Sets) : 1;
  localparam int unsigned WayW = Ways > 1 ? $clog2(Ways) : 1;
  // DUT inputs: rec_valid_i, rec_data_i, dump_ready_i, csr_we_i,
  // csr_addr_i, csr_wdata_i.
  localparam int unsigned InW  = 1 + RecW + 1 + 1 + 5 + 32;
  // DUT outputs: rec_ready_o, dump_valid_o, the dump entry, dump_busy_o,
  // csr_rdata_o.
  localparam int unsigned OutW = 2 + SetW + WayW + 32 + 6 + 32 + 32 + 1 + 32;

  logic                    dut_rst_n;
  logic [InW-1:0]          dut_in;
  logic [OutW-1:0]         dut_out;

  logic                    rec_valid, rec_ready, dump_valid, dump_ready, dump_busy;
  hwprof_pkg::branch_rec_t rec_data;
  logic [SetW-1:0]         dump_set;
  logic [WayW-1:0]         dump_way;
  logic [31:0]             dump_start, dump_dirs, dump_acc;
  logic [5:0]              dump_length;
  logic                    csr_we;
  logic [4:0]              csr_addr;
  logic [31:0]             csr_wdata, csr_rdata;

  assign {rec_valid, rec_data, dump_ready, csr_we, csr_addr, csr_wdata} = dut_in;
  assign dut_out = {rec_ready, dump_valid, dump_set, dump_way, dump_start, dump_length, dump_dirs,
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

  hwprof_path_profiler #(
    .QueueDepth(QueueDepth),
    .Depth     (Depth),
    .MaxLen    (MaxLen),
    .Sets      (Sets),
    .Ways      (Ways)
  ) u_dut (
    .clk_i,
    .rst_ni       (dut_rst_n),
    .rec_valid_i  (rec_valid),
    .rec_ready_o  (rec_ready),
    .rec_data_i   (rec_data),
    .dump_valid_o (dump_valid),
    .dump_ready_i (dump_ready),
    .dump_set_o   (dump_set),
    .dump_way_o   (dump_way),
    .dump_start_o (dump_start),
    .dump_length_o(dump_length),
    .dump_dirs_o  (dump_dirs),
    .dump_acc_o   (dump_acc),
    .dump_busy_o  (dump_busy),
    .csr_we_i     (csr_we),
    .csr_addr_i   (csr_addr),
    .csr_wdata_i  (csr_wdata),
    .csr_rdata_o  (csr_rdata)
  );

endmodule

`default_nettype wire
