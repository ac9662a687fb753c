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
//   * trained bits in flip-flops (TrainRam = 0, the default; clear_i
//     forgets them all at once); their Entries:1 lookup is split over S0
//     (candidates per value of the upper 3/8 of the index bits) and S1
//     (p's candidate); or (TrainRam = 1, the detectors) in a RAM of
//     TrainW-bit words with one live flip-flop per word: clear_i clears the
//     live bits, training into a dead word rewrites the whole word, S0
//     reads p's word and S1 picks p's bit. No cycle count differs;
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
  /// Trained bits in flip-flops (0, the default: cleared in one cycle, an
  /// Entries:1 lookup split over S0 and S1) or in a RAM of TrainW-bit words
  /// with one live flip-flop per word (1: the detectors, for the iCE40 fit);
  /// the same cycle behaviour either way (docs/phase.md).
  parameter int unsigned TrainRam = 0,
  /// Trained bits per RAM word with TrainRam = 1 (a power of two >= 2; 16
  /// is one SB_RAM40_4K word and one TRELLIS_DPR16X4 group of four).
  parameter int unsigned TrainW = 16,
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
    if (TrainW < 2 || (TrainW & (TrainW - 1)) != 0) $fatal(1, "hwprof_markov_predictor: TrainW must be a power of two >= 2");
  end

  // ------------------------------------------------------------------ state
  logic               have_prev_q;         // an update since clear
  logic [IdxW-1:0]    prev_idx_q;          // slot of the last update's phase
  logic               have_pred_q;         // pred_q is a prediction
  logic [IdW-1:0]     pred_q;              // the last prediction (when S1 is idle)
  // S1: the update of the previous cycle.
  logic               s1_valid_q;
  logic [IdW-1:0]     s1_phase_q;
  logic               s1_use_ram;          // predict the RAM word (else the phase)
  logic               s1_scored_q;

  // --------------------------------------------------------------------- S0
  logic               upd;
  logic [IdxW-1:0]    idx;
  logic               train;
  logic               same_slot;           // prev and p share a slot: predict p
  logic               last_valid;
  logic [IdW-1:0]     ram_rdata;           // the slot word read in S0 (no reset)

  assign upd = upd_valid_i && !clear_i;
  assign idx = upd_phase_i[IdxW-1:0];
  assign train = upd && have_prev_q;
  assign same_slot = train && prev_idx_q == idx;
  // A prediction to score: S1's (back to back), else a stored one.
  assign last_valid = s1_valid_q || have_pred_q;

  // Trained bits. Both forms see them as they were before the update's own
  // training (prev's slot trained in the same cycle counts only through
  // same_slot: the prediction is then p).
  if (TrainRam == 0) begin : g_train_ff
    // Flip-flops, cleared at once. The lookup trained_q[idx] is an
    // Entries:1 mux; S0 does the first half (one candidate per value of the
    // upper index bits, selected by the lower ones) and S1 the second, so
    // neither cycle holds the whole tree.
    localparam int unsigned HiW = (3 * IdxW) / 8;  // index bits resolved in S1 (upper 3/8)
    localparam int unsigned LoW = IdxW - HiW;      // index bits resolved in S0
    localparam int unsigned Cands = 1 << HiW;      // candidates S0 hands to S1
    logic [Entries-1:0] trained_q;  // slot holds a trained id
    logic [Cands-1:0]   cand;
    logic [Cands-1:0]   s1_cand_q;  // trained bits of the slots sharing p's low index bits
    logic [Cands-1:0]   s1_sel_q;   // one-hot: p's candidate; none when same_slot

    always_comb begin
      for (int unsigned g = 0; g < Cands; g++) begin
        cand[g] = trained_q[IdxW'((g << LoW) | 32'(idx[LoW-1:0]))];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        trained_q <= '0;
        s1_cand_q <= '0;
        s1_sel_q  <= '0;
      end else begin
        if (upd) begin
          s1_cand_q <= cand;
          s1_sel_q  <= same_slot ? '0 : Cands'(1) << (32'(idx) >> LoW);
          if (train) trained_q[prev_idx_q] <= 1'b1;
        end
        if (clear_i) trained_q <= '0;
      end
    end

    // An AND-OR of two registered vectors: two LUT levels on iCE40.
    assign s1_use_ram = |(s1_cand_q & s1_sel_q);
  end else begin : g_train_ram
    // A RAM of TWords words of TW trained bits (word = index / TW) and one
    // live flip-flop per word: a word whose live bit is clear reads as all
    // untrained, so clear_i and reset clear TWords flip-flops and no RAM
    // (its contents are never reset). Training slot prev sets its bit: in a
    // live word through the per-bit write mask, in a dead word by writing
    // the whole word (only prev's bit set, the stale bits cleared) and
    // setting the word live. S0 reads p's word and registers p's live bit;
    // S1 picks p's bit. A word written and read in the same cycle (prev and
    // p in one word): a live word writes prev's bit only and p's bit reads
    // normally (different bits; the same bit is same_slot); a dead word
    // writes every bit, and its read is not used (p's live bit was clear).
    localparam int unsigned TW = (Entries < TrainW) ? Entries : TrainW;
    localparam int unsigned TWords = Entries / TW;
    localparam int unsigned TBW = $clog2(TW);                       // bit within a word
    localparam int unsigned TAW = (TWords > 1) ? $clog2(TWords) : 1;  // word address
    logic [TWords-1:0] tlive_q;    // the word's bits are meaningful
    logic [TAW-1:0]    pw, iw;     // words of prev and p
    logic [TBW-1:0]    pb, ib;     // bits of prev and p
    logic [TW-1:0]     t_wmask, t_wdata;
    logic              s1_tuse_q;  // p's word live and not same_slot
    logic              s1_tbit;    // p's trained bit from the RAM

    assign pw = TAW'(32'(prev_idx_q) >> TBW);
    assign iw = TAW'(32'(idx) >> TBW);
    assign pb = prev_idx_q[TBW-1:0];
    assign ib = idx[TBW-1:0];
    assign t_wdata = TW'(1) << pb;
    assign t_wmask = tlive_q[pw] ? t_wdata : '1;

    if (LutRam != 0) begin : g_lut
      // LUT RAM (TRELLIS_DPR16X4), asynchronous read: S0 picks p's bit of
      // its word and registers it.
      (* ram_style = "distributed" *)
      logic [TW-1:0] tmem_q [TWords];  // no reset: RAM
      logic          tbit_q;           // no reset: p's bit, in S1
      always_ff @(posedge clk_i) begin
        for (int unsigned j = 0; j < TW; j++) begin
          if (train && t_wmask[j]) tmem_q[pw][j] <= t_wdata[j];
        end
        tbit_q <= tmem_q[iw][ib];
      end
      assign s1_tbit = tbit_q;
    end else begin : g_bram
      // Block RAM (one SB_RAM40_4K at 256 slots: 16 x 16 with the per-bit
      // mask): S1 picks p's bit of the registered word.
      logic [TW-1:0]  t_rdata;
      logic [TBW-1:0] s1_ib_q;  // no reset: p's bit, in S1
      hwprof_ram_2p #(
        .Depth(TWords),
        .Width(TW),
        .GranW(1)
      ) u_trained (
        .clk_i,
        .wmask_i(train ? t_wmask : '0),
        .waddr_i(pw),
        .wdata_i(t_wdata),
        .re_i   (1'b1),
        .raddr_i(iw),
        .rdata_o(t_rdata)
      );
      always_ff @(posedge clk_i) begin
        s1_ib_q <= ib;
      end
      assign s1_tbit = t_rdata[s1_ib_q];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tlive_q   <= '0;
        s1_tuse_q <= 1'b0;
      end else begin
        if (upd) begin
          s1_tuse_q <= tlive_q[iw] && !same_slot;
          if (train) tlive_q[pw] <= 1'b1;
        end
        if (clear_i) tlive_q <= '0;
      end
    end

    assign s1_use_ram = s1_tuse_q && s1_tbit;
  end

  // Slot ids. A read of the slot being written in the same cycle is not
  // used (the prediction is then p: same_slot), and ram_rdata is used only
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
      have_prev_q  <= 1'b0;
      prev_idx_q   <= '0;
      have_pred_q  <= 1'b0;
      pred_q       <= '0;
      s1_valid_q   <= 1'b0;
      s1_phase_q   <= '0;
      s1_scored_q  <= 1'b0;
    end else begin
      s1_valid_q <= upd;
      if (s1_valid_q) pred_q <= res_pred_o;
      if (s1_valid_q) have_pred_q <= 1'b1;
      if (upd) begin
        s1_phase_q   <= upd_phase_i;
        s1_scored_q  <= last_valid;
        have_prev_q  <= 1'b1;
        prev_idx_q   <= idx;
      end
      if (clear_i) begin
        have_prev_q <= 1'b0;
        have_pred_q <= 1'b0;
      end
    end
  end

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
