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
// Implementation (docs/phase.md "Cycle behaviour of markov_predictor"):
//   * slot ids in a simple dual-port RAM read every cycle: one block RAM
//     (LutRam = 0), or LUT RAM banks of 16 slots whose words at p's low
//     index bits S0 registers and S1 picks from (LutRam = 1, the default
//     when HWPROF_FAMILY_ECP5 is defined: a DP16KD read port without its
//     output register is too slow for 150 MHz). S0 writes slot[prev] and
//     reads slot[p]; when they are the same slot the read is not used (the
//     prediction is p itself);
//   * trained bits in flip-flops (clear_i forgets them all at once); their
//     Entries:1 lookup is split over S0 (candidates per value of the upper
//     3/8 of the index bits) and S1 (p's candidate);
//   * pred_q takes every result as it leaves S1, so in S1's cycle it holds
//     the prediction the update in S1 is scored against: res_correct_o
//     compares two registers (pred_q, s1_phase_q), and the RAM's word only
//     passes one mux (res_pred_o) before a register.
`default_nettype none

// The table's RAM kind follows the device family the synthesis flow names
// (fpga/synth/synth.py defines HWPROF_FAMILY_ECP5 or HWPROF_FAMILY_ICE40).
`ifdef HWPROF_FAMILY_ECP5
`define HWPROF_MARKOV_LUTRAM 1
`else
`define HWPROF_MARKOV_LUTRAM 0
`endif

module hwprof_markov_predictor #(
  /// Slots (a power of two >= 2).
  parameter int unsigned Entries = 256,
  /// Width of a phase id.
  parameter int unsigned IdW = 16,
  /// Slot table in LUT RAM banks (1: ECP5, the default there) or in one
  /// block RAM (0: iCE40 and simulation, the default elsewhere); the same
  /// cycle behaviour either way. 1 on iCE40 (no LUT RAM) costs flip-flops.
  parameter int unsigned LutRam = `HWPROF_MARKOV_LUTRAM,
  localparam int unsigned IdxW = $clog2(Entries),
  /// Index bits the trained-bit lookup resolves in S1 (the upper 3/8: balances the two cycles on iCE40).
  localparam int unsigned HiW = (3 * IdxW) / 8,
  /// Index bits it resolves in S0 (the rest).
  localparam int unsigned LoW = IdxW - HiW,
  /// Trained-bit candidates S0 hands to S1.
  localparam int unsigned Cands = 1 << HiW
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
  logic [Cands-1:0]   s1_cand_q;           // trained bits of the slots sharing p's low index bits
  logic [Cands-1:0]   s1_sel_q;            // one-hot: p's candidate; none when p's slot was
                                           // trained in S0 (prev and p share it)
  logic               s1_use_ram;          // predict the RAM word (else the phase)
  logic               s1_scored_q;

  // --------------------------------------------------------------------- S0
  logic               upd;
  logic [IdxW-1:0]    idx;
  logic               train;
  logic               last_valid;
  logic [IdW-1:0]     ram_rdata;           // the slot word read in S0 (no reset)
  logic [Cands-1:0]   cand;

  // The trained-bit lookup trained_q[idx] is an Entries:1 mux; S0 does the
  // first half (one candidate per value of the upper index bits, selected by
  // the lower ones) and S1 the second, so neither cycle holds the whole tree.
  always_comb begin
    for (int unsigned g = 0; g < Cands; g++) begin
      cand[g] = trained_q[IdxW'((g << LoW) | 32'(idx[LoW-1:0]))];
    end
  end

  assign upd = upd_valid_i && !clear_i;
  assign idx = upd_phase_i[IdxW-1:0];
  assign train = upd && have_prev_q;
  // A prediction to score: S1's (back to back), else a stored one.
  assign last_valid = s1_valid_q || have_pred_q;

  // Slot ids. A read of the slot being written in the same cycle is not
  // used (the prediction is then p: s1_sel_q is zero), and ram_rdata is used only
  // in the cycle after an update, so the RAM reads every cycle.
  if (LutRam != 0) begin : g_lutram
    // A DP16KD read port without its output register (5.8 ns
    // clock-to-out) cannot run at 150 MHz on ECP5 with a mux behind it, so
    // there the table is LUT RAM in banks of 16 slots (TRELLIS_DPR16X4,
    // asynchronous read): S0 registers each bank's word at p's low index
    // bits, S1 picks p's bank.
    localparam int unsigned BankLoW = (IdxW < 4) ? IdxW : 4;
    localparam int unsigned BankD = 1 << BankLoW;
    localparam int unsigned Banks = Entries / BankD;
    logic [IdW-1:0]  bank_q [Banks];  // no reset: the banks' read registers
    logic [IdxW-1:0] s1_idx_q;        // no reset: p's slot, in S1

    always_ff @(posedge clk_i) begin
      s1_idx_q <= idx;
    end

    for (genvar b = 0; b < Banks; b++) begin : g_bank
      (* ram_style = "distributed" *)
      logic [IdW-1:0] mem_q [BankD];  // no reset: RAM
      always_ff @(posedge clk_i) begin
        if (train && (32'(prev_idx_q) >> BankLoW) == b) mem_q[prev_idx_q[BankLoW-1:0]] <= upd_phase_i;
        bank_q[b] <= mem_q[idx[BankLoW-1:0]];
      end
    end

    assign ram_rdata = bank_q[32'(s1_idx_q) >> BankLoW];
  end else begin : g_bram
    // Block RAM (SB_RAM40_4K on iCE40): a simple dual-port RAM with a
    // registered read (hwprof_ram_2p's behaviour, written out to share the
    // read-every-cycle port with the LUT RAM form).
    logic [IdW-1:0] slots_q [Entries];  // no reset: RAM
    logic [IdW-1:0] rdata_q;            // no reset: the RAM's read register

    always_ff @(posedge clk_i) begin
      if (train) slots_q[prev_idx_q] <= upd_phase_i;
      rdata_q <= slots_q[idx];
    end

    assign ram_rdata = rdata_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trained_q    <= '0;
      have_prev_q  <= 1'b0;
      prev_idx_q   <= '0;
      have_pred_q  <= 1'b0;
      pred_q       <= '0;
      s1_valid_q   <= 1'b0;
      s1_phase_q   <= '0;
      s1_cand_q    <= '0;
      s1_sel_q     <= '0;
      s1_scored_q  <= 1'b0;
    end else begin
      s1_valid_q <= upd;
      if (s1_valid_q) pred_q <= res_pred_o;
      if (s1_valid_q) have_pred_q <= 1'b1;
      if (upd) begin
        s1_phase_q   <= upd_phase_i;
        // A slot trained in this very cycle is the phase's own slot only
        // when prev and p share it; the prediction is then p.
        s1_cand_q    <= cand;
        s1_sel_q     <= (train && prev_idx_q == idx) ? '0 : Cands'(1) << (32'(idx) >> LoW);
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

  // An AND-OR of two registered vectors: two LUT levels on iCE40.
  assign s1_use_ram = |(s1_cand_q & s1_sel_q);

  assign res_valid_o   = s1_valid_q;
  assign res_pred_o    = s1_use_ram ? ram_rdata : s1_phase_q;
  assign res_scored_o  = s1_scored_q;
  // pred_q, in S1's cycle, is the prediction S0 scored against (the
  // previous result, registered), so the comparison sits behind registers
  // and not behind the RAM's read port.
  assign res_correct_o = s1_scored_q && (pred_q == s1_phase_q);

endmodule

`undef HWPROF_MARKOV_LUTRAM
`default_nettype wire
