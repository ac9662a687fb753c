// hwprof_bbv_phase: the BBV baseline (Sherwood et al.): branch-pc hash, record instructions.
// hwprof_phase_detector with Mode = 0; see hwprof_phase_detector.sv and
// docs/hwprof_phase_detector.md (model: sim_models/phase/hwprof_phase_detector.h,
// PhaseDetector with DetectorParams::mode = Bbv).
`default_nettype none

module hwprof_bbv_phase #(
  /// Accumulators (a power of two, 2..128).
  parameter int unsigned Counters = 32,
  /// Signature element width; scaled total 2^SigW (4..16).
  parameter int unsigned SigW = 10,
  /// Signature table entries (1..64).
  parameter int unsigned Entries = 32,
  /// Markov predictor slots (a power of two >= 2).
  parameter int unsigned MarkovEntries = 256,
  /// Reset value of INTERVAL (>= 1).
  parameter int unsigned IntervalInsns = 1000000,
  /// Reset value of THRESHOLD (1..2^(SigW+1)).
  parameter int unsigned Threshold = 128,
  /// Width of a distance.
  localparam int unsigned DistW = SigW + 2
) (
  /// Clock.
  input  wire logic                      clk_i,
  /// Asynchronous active-low reset: everything, registers to their reset values.
  input  wire logic                      rst_ni,
  // Branch records.
  /// A record is offered.
  input  wire logic                      rec_valid_i,
  /// It is taken (combinational from csr_we_i and the state).
  output logic                           rec_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t   rec_data_i,
  // Results, one per interval (registered; held until taken).
  /// A result is offered.
  output logic                           res_valid_o,
  /// The consumer takes it (records stall while a result waits).
  input  wire logic                      res_ready_i,
  /// Phase id.
  output logic [15:0]                    res_phase_o,
  /// The phase differs from the previous interval's (1 for the first).
  output logic                           res_changed_o,
  /// A table entry was within the threshold.
  output logic                           res_matched_o,
  /// Smallest Manhattan distance to a valid entry (all ones when none).
  output logic [DistW-1:0]               res_distance_o,
  /// Predicted phase of the next interval (Markov).
  output logic [15:0]                    res_pred_o,
  /// A prediction for this interval existed ...
  output logic                           res_scored_o,
  /// ... and was right.
  output logic                           res_correct_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic                      csr_we_i,
  /// Word address.
  input  wire logic [3:0]                csr_addr_i,
  /// Write data.
  input  wire logic [31:0]               csr_wdata_i,
  /// Read data of csr_addr_i (combinational).
  output logic [31:0]                    csr_rdata_o
);

  hwprof_phase_detector #(
    .Mode         (0),
    .Counters     (Counters),
    .SigW         (SigW),
    .Entries      (Entries),
    .MarkovEntries(MarkovEntries),
    .IntervalInsns(IntervalInsns),
    .Threshold    (Threshold)
  ) u_det (
    .clk_i,
    .rst_ni,
    .rec_valid_i,
    .rec_ready_o,
    .rec_data_i,
    .res_valid_o,
    .res_ready_i,
    .res_phase_o,
    .res_changed_o,
    .res_matched_o,
    .res_distance_o,
    .res_pred_o,
    .res_scored_o,
    .res_correct_o,
    .csr_we_i,
    .csr_addr_i,
    .csr_wdata_i,
    .csr_rdata_o
  );

endmodule

`default_nettype wire
