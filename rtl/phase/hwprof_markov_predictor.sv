// hwprof_markov_predictor: the next-phase predictor shared by the DCR tracker and
// the phase detectors (hwprof-spec.md section 5, docs/phase.md "Next-phase
// prediction"; model: sim_models/phase/markov.h, MarkovPredictor, which
// commits through MarkovAlgo).
//
// A table of Entries slots indexed by phase id modulo Entries (no tag, no
// history bits). An update with phase p, at an interval end:
//   1. score: scored = a prediction exists (an update since clear);
//      correct = scored and that prediction == p;
//   2. train: if a previous update exists, slot[prev] := p;
//   3. predict: slot[p] if trained, else p. Training comes first, so when
//      prev and p share a slot the prediction is p.
//
// Cycle behaviour: one update per clock; its result is on res_*_o in the
// next cycle (res_valid_o high for one cycle). clear_i forgets the table's
// trained bits and the history, discards an update offered in the same
// cycle, and does not cancel a result already on the outputs.
//
// Implementation: slot ids in a simple dual-port RAM (hwprof_ram_2p, block RAM),
// trained bits in flip-flops. S0 writes slot[prev] and reads slot[p] in the
// same cycle; when they are the same slot the RAM's read is undefined, but
// the prediction is then p itself, so S1 uses p and not the RAM word.
// pred_q takes every result as it leaves S1, so in S1's cycle it holds the
// prediction the update in S1 is scored against: res_correct_o compares
// two registers (pred_q, s1_phase_q) and the RAM's read data only passes
// one mux (res_pred_o) before a register.
`default_nettype none

module hwprof_markov_predictor #(
  /// Slots (a power of two >= 2).
  parameter int unsigned Entries = 256,
  /// Width of a phase id.
  parameter int unsigned IdW = 16,
  localparam int unsigned IdxW = $clog2(Entries)
) (
  /// Clock.
  input  wire logic           clk_i,
  /// Asynchronous active-low reset: as clear_i.
  input  wire logic           rst_ni,
  /// Forget the table and the history (see above).
  input  wire logic           clear_i,
  // Updates, one per interval end.
  /// An interval ended with phase upd_phase_i.
  input  wire logic           upd_valid_i,
  /// Its phase id.
  input  wire logic [IdW-1:0] upd_phase_i,
  // Results, one cycle after each update.
  /// The result of the update of the previous cycle.
  output logic                res_valid_o,
  /// Predicted phase id of the next interval.
  output logic [IdW-1:0]      res_pred_o,
  /// A prediction for the updated interval existed ...
  output logic                res_scored_o,
  /// ... and it was right.
  output logic                res_correct_o
);

  initial begin
    if (Entries < 2 || (Entries & (Entries - 1)) != 0) $fatal(1, "hwprof_markov_predictor: Entries must be a power of two >= 2");
  end

  // ------------------------------------------------------------------ state
  logic [Entries-1:0] trained_q;           // slot holds a trained id
  logic               have_prev_q;         // an update since clear
  logic [IdxW-1:0]    prev_idx_q;          // slot of the last update's phase
  logic               have_pred_q;         // pred_q is a prediction
  logic [IdW-1:0]     pred_q;              // the last prediction (when S1 is idle)
  // S1: the update of the previous cycle.
  logic               s1_valid_q;
  logic [IdW-1:0]     s1_phase_q;
  logic               s1_use_ram_q;        // predict the RAM word (else the phase)
  logic               s1_scored_q;

  // --------------------------------------------------------------------- S0
  logic               upd;
  logic [IdxW-1:0]    idx;
  logic               train;
  logic               last_valid;
  logic [IdW-1:0]     ram_rdata;

  assign upd = upd_valid_i && !clear_i;
  assign idx = upd_phase_i[IdxW-1:0];
  assign train = upd && have_prev_q;
  // A prediction to score: S1's (back to back), else a stored one.
  assign last_valid = s1_valid_q || have_pred_q;

  hwprof_ram_2p #(
    .Depth(Entries),
    .Width(IdW),
    .GranW(IdW)
  ) u_slots (
    .clk_i  (clk_i),
    .wmask_i(train),
    .waddr_i(prev_idx_q),
    .wdata_i(upd_phase_i),
    .re_i   (upd),
    .raddr_i(idx),
    .rdata_o(ram_rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trained_q    <= '0;
      have_prev_q  <= 1'b0;
      prev_idx_q   <= '0;
      have_pred_q  <= 1'b0;
      pred_q       <= '0;
      s1_valid_q   <= 1'b0;
      s1_phase_q   <= '0;
      s1_use_ram_q <= 1'b0;
      s1_scored_q  <= 1'b0;
    end else begin
      s1_valid_q <= upd;
      if (s1_valid_q) pred_q <= res_pred_o;
      if (s1_valid_q) have_pred_q <= 1'b1;
      if (upd) begin
        s1_phase_q   <= upd_phase_i;
        // A slot trained in this very cycle is the phase's own slot only
        // when prev and p share it; the prediction is then p.
        s1_use_ram_q <= trained_q[idx] && !(train && prev_idx_q == idx);
        s1_scored_q  <= last_valid;
        if (train) trained_q[prev_idx_q] <= 1'b1;
        have_prev_q  <= 1'b1;
        prev_idx_q   <= idx;
      end
      if (clear_i) begin
        trained_q   <= '0;
        have_prev_q <= 1'b0;
        have_pred_q <= 1'b0;
      end
    end
  end

  assign res_valid_o   = s1_valid_q;
  assign res_pred_o    = s1_use_ram_q ? ram_rdata : s1_phase_q;
  assign res_scored_o  = s1_scored_q;
  // pred_q, in S1's cycle, is the prediction S0 scored against (the
  // previous result, registered), so the comparison sits behind registers
  // and not behind the RAM's read port.
  assign res_correct_o = s1_scored_q && (pred_q == s1_phase_q);

endmodule

`default_nettype wire
