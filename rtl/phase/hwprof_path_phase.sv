// hwprof_path_phase: the path-based phase detector of paper 000 section 6: descriptor hash,
// path instructions.
// hwprof_phase_detector with Mode = 1, as a top of its own for synthesis and
// the manifests; see hwprof_phase_detector.sv and docs/phase_detector.md
// (model: sim_models/phase/phase_detector.h, PhaseDetector with
// DetectorParams::mode = Path). Parameters and ports mean exactly what
// they mean on hwprof_phase_detector (documented once there, port by port).
`default_nettype none

module hwprof_path_phase #(
  /// Accumulators; signature element width; table entries; Markov slots.
  parameter int unsigned Counters = 32, SigW = 10, Entries = 32, MarkovEntries = 256,
  /// Reset values of INTERVAL and THRESHOLD.
  parameter int unsigned IntervalInsns = 1000000, Threshold = 128,
  /// Path stack entries; maximum branches per path (1..32).
  parameter int unsigned Depth = 16, MaxLen = 32
) (
  /// Clock, reset, record / result / register handshakes and strobes.
  input  wire logic                    clk_i, rst_ni, rec_valid_i, res_ready_i, csr_we_i,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t rec_data_i,
  /// Register word address and write data.
  input  wire logic [3:0]              csr_addr_i,
  input  wire logic [31:0]             csr_wdata_i,
  /// Ready, result valid and the result's flags.
  output logic                         rec_ready_o, res_valid_o, res_changed_o, res_matched_o, res_scored_o,
                                       res_correct_o,
  /// Phase ids (this interval, the predicted next), distance, register read data.
  output logic [15:0]                  res_phase_o, res_pred_o,
  output logic [SigW+1:0]              res_distance_o,
  output logic [31:0]                  csr_rdata_o
);

  hwprof_phase_detector #(
    .Mode(1), .Counters(Counters), .SigW(SigW), .Entries(Entries), .MarkovEntries(MarkovEntries),
    .IntervalInsns(IntervalInsns), .Threshold(Threshold), .Depth(Depth), .MaxLen(MaxLen)
  ) u_det (.*);

endmodule

`default_nettype wire
