// hwprof_path_phase_wrap: synthesis wrapper for hwprof_path_phase (the path-based phase detector). All DUT inputs
// come from registers loaded over one serial pin and all DUT outputs land in
// registers folded into one serial pin (hwprof_synth_io_shell), so the Fmax that
// nextpnr reports is the core's register-to-register Fmax and the design fits
// every package. Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_path_phase_wrap #(
  /// Accumulators; passed to hwprof_path_phase.
  parameter int unsigned Counters = 32,
  /// Signature element width; passed to hwprof_path_phase.
  parameter int unsigned SigW = 10,
  /// Signature table entries; passed to hwprof_path_phase.
  parameter int unsigned Entries = 32,
  /// Path stack entries; passed to hwprof_path_phase.
  parameter int unsigned Depth = 16,
  /// Maximum branches per path; passed to hwprof_path_phase.
  parameter int unsigned MaxLen = 32,
  /// Markov predictor slots; passed to hwprof_path_phase.
  parameter int unsigned MarkovEntries = 256
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

  localparam int unsigned DistW = SigW + 2;
  // DUT inputs: rec_valid_i, rec_data_i, res_ready_i, csr_we_i, csr_addr_i,
  // csr_wdata_i.
  localparam int unsigned InW  = 1 + hwprof_pkg::BranchRecW + 1 + 1 + 4 + 32;
  // DUT outputs: rec_ready_o, res_valid_o, the result fields, csr_rdata_o.
  localparam int unsigned OutW = 2 + 16 + 2 + DistW + 16 + 2 + 32;

  logic            dut_rst_n;
  logic [InW-1:0]  dut_in;
  logic [OutW-1:0] dut_out;

  logic                      rec_valid, rec_ready, res_valid, res_ready;
  hwprof_pkg::branch_rec_t   rec_data;
  logic [15:0]               res_phase, res_pred;
  logic                      res_changed, res_matched, res_scored, res_correct;
  logic [DistW-1:0]          res_distance;
  logic                      csr_we;
  logic [3:0]                csr_addr;
  logic [31:0]               csr_wdata, csr_rdata;

  assign {rec_valid, rec_data, res_ready, csr_we, csr_addr, csr_wdata} = dut_in;
  assign dut_out = {rec_ready, res_valid, res_phase, res_changed, res_matched, res_distance, res_pred,
                    res_scored, res_correct, csr_rdata};

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

  hwprof_path_phase #(
    .Counters     (Counters),
    .SigW         (SigW),
    .Entries      (Entries),
    .Depth        (Depth),
    .MaxLen       (MaxLen),
    .MarkovEntries(MarkovEntries)
  ) u_dut (
    .clk_i,
    .rst_ni        (dut_rst_n),
    .rec_valid_i   (rec_valid),
    .rec_ready_o   (rec_ready),
    .rec_data_i    (rec_data),
    .res_valid_o   (res_valid),
    .res_ready_i   (res_ready),
    .res_phase_o   (res_phase),
    .res_changed_o (res_changed),
    .res_matched_o (res_matched),
    .res_distance_o(res_distance),
    .res_pred_o    (res_pred),
    .res_scored_o  (res_scored),
    .res_correct_o (res_correct),
    .csr_we_i      (csr_we),
    .csr_addr_i    (csr_addr),
    .csr_wdata_i   (csr_wdata),
    .csr_rdata_o   (csr_rdata)
  );

endmodule

`default_nettype wire
