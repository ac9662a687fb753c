// hwprof_detector_core: the source-agnostic phase detector of docs/phase_detector.md
// (hwprof-spec.md section 3.3; paper 000 section 6; Sherwood et al.'s BBV
// scheme). Model: sim_models/phase/phase_detector.h, DetectorCore, which
// commits every interval end through DetectorAlgo::end_interval.
//
// Items: one per handshake, {optional feature (key, weight), tick (insns)}.
// The feature is accumulated first (acc[fold(key)] += weight, saturating at
// 2^32-1), then the tick counts insns toward the interval (hwprof_interval_counter).
// An item that ends an interval starts the signature pass:
//   Sum     Counters cycles: total = sum of the accumulators.
//   Div     Counters*SigW cycles: element j = min(floor(acc[j]*2^SigW /
//           total), 2^SigW-1) by restoring division, one quotient bit per
//           cycle (0 when total = 0; a division of total by itself yields
//           all ones, which is the clamp); acc[j] is cleared.
//   Search  Entries*Counters+1 cycles: the table RAM (word e*Counters+j =
//           element j of entry e) is read one element per cycle; the
//           Manhattan distance of every entry is accumulated; the best is
//           the valid entry with the smallest distance, ties to the lowest
//           index.
//   Match   1 cycle: the outcome below is registered (match, entry, age).
//   Decide  1 cycle: matched = a best exists and distance < threshold (the
//           THRESHOLD value when the interval ended). Matched: its phase id,
//           its signature kept. Else a new phase id (next_id, 16-bit, +1
//           modulo 2^16) in the victim: the lowest invalid entry, else the
//           least recently used. The used entry becomes the most recent.
//   Write   Counters cycles, allocation only: the signature into the victim.
//   Pred    1 cycle: Markov update with the phase.
//   Capt    1 cycle: Markov result captured.
//   Res     the result is offered (res_valid_o) until taken; then Idle.
// item_ready_o is high only in Idle, and low in a cycle with restart_i or
// hold_i. LRU: a 0..Entries-1 age per valid entry (0 = most recent); using
// entry m ages every valid entry younger than m (every valid entry if m was
// invalid) by one and sets m's age to 0.
// restart_i (priority over everything): accumulators, interval count,
// valid bits, next id, previous phase and the predictor are cleared and the
// FSM returns to Idle (a pending result is dropped). interval_we_i restarts
// the interval count (interval_i is the new value from then on).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_detector_core #(
  /// Accumulators (a power of two, 2..128).
  parameter int unsigned Counters = 32,
  /// Signature element width; the scaled total is 2^SigW (4..16).
  parameter int unsigned SigW = 10,
  /// Signature table entries (1..64).
  parameter int unsigned Entries = 32,
  /// Markov predictor slots (a power of two >= 2).
  parameter int unsigned MarkovEntries = 256,
  /// Width of a distance (a distance is at most 2^(SigW+1)).
  localparam int unsigned DistW = SigW + 2,
  /// Width of a feature weight.
  localparam int unsigned WeightW = hwprof_pkg::DescInsnsW
) (
  /// Clock.
  input  wire logic                       clk_i,
  /// Asynchronous active-low reset: as restart_i, and the counters cleared.
  input  wire logic                       rst_ni,
  // Control (from the register file).
  /// Restart (see above).
  input  wire logic                       restart_i,
  /// INTERVAL was written: restart the interval count.
  input  wire logic                       interval_we_i,
  /// IntervalInsns (>= 1).
  input  wire logic [31:0]                interval_i,
  /// THRESHOLD (1..2^(SigW+1)).
  input  wire logic [DistW-1:0]           threshold_i,
  /// A register write this cycle: no item is taken.
  input  wire logic                       hold_i,
  // Items.
  /// An item is offered.
  input  wire logic                       item_valid_i,
  /// The core takes it (combinational from restart_i, hold_i and the state).
  output logic                            item_ready_o,
  /// The item carries a feature.
  input  wire logic                       item_feat_i,
  /// Feature key (folded into the accumulator index).
  input  wire logic [31:0]                item_key_i,
  /// Feature weight.
  input  wire logic [WeightW-1:0]         item_weight_i,
  /// Tick: instructions of the record.
  input  wire logic [hwprof_pkg::InsnsW-1:0] item_insns_i,
  // Results, one per interval (registered): the res_* ports of
  // hwprof_phase_detector, which documents each of them.
  /// Result offered (held until taken) and its flags.
  output logic                            res_valid_o, res_changed_o, res_matched_o, res_scored_o, res_correct_o,
  /// The consumer takes the result.
  input  wire logic                       res_ready_i,
  /// Phase id and predicted phase id of the next interval.
  output logic [15:0]                     res_phase_o, res_pred_o,
  /// Smallest distance to a valid entry (all ones when none).
  output logic [DistW-1:0]                res_distance_o,
  // Status and counters (32-bit saturating).
  /// The signature pass is running (Sum .. Capt).
  output logic                            busy_o,
  /// Items taken.
  output logic [31:0]                     stat_records_o,
  /// Features accumulated.
  output logic [31:0]                     stat_features_o,
  /// Results taken.
  output logic [31:0]                     stat_intervals_o,
  /// Results taken that allocated a new phase.
  output logic [31:0]                     stat_phases_o,
  /// Cycles in the signature pass.
  output logic [31:0]                     stat_busy_o
);

  initial begin
    if (Counters < 2 || Counters > 128 || (Counters & (Counters - 1)) != 0)
      $fatal(1, "hwprof_detector_core: Counters must be a power of two 2..128");
    if (SigW < 4 || SigW > 16) $fatal(1, "hwprof_detector_core: SigW must be 4..16");
    if (Entries < 1 || Entries > 64) $fatal(1, "hwprof_detector_core: Entries must be 1..64");
  end

  localparam int unsigned AccW = 32;
  localparam int unsigned IdxW = $clog2(Counters);
  localparam int unsigned TotW = AccW + IdxW;
  localparam int unsigned EntW = (Entries > 1) ? $clog2(Entries) : 1;
  localparam int unsigned AgeW = $clog2(Entries + 1);
  localparam int unsigned Words = Entries * Counters;
  localparam int unsigned RamAW = (Words > 1) ? $clog2(Words) : 1;
  localparam int unsigned KW = $clog2(Words + 1);
  localparam int unsigned BitW = $clog2(SigW);
  localparam int unsigned NumSlices = (32 + IdxW - 1) / IdxW;

  typedef enum logic [3:0] {
    StIdle, StSum, StDiv, StSearch, StMatch, StDecide, StWrite, StPred, StCapt, StRes
  } state_e;

  state_e            state_q, state_d;
  logic              go, int_end;

  assign item_ready_o = (state_q == StIdle) && !restart_i && !hold_i;
  assign go = item_valid_i && item_ready_o;

  hwprof_interval_counter #(
    .IntervalW(32),
    .InsnsW   (hwprof_pkg::InsnsW)
  ) u_interval (
    .clk_i,
    .rst_ni,
    .interval_i(interval_i),
    .restart_i (restart_i || interval_we_i),
    .step_i    (go),
    .insns_i   (item_insns_i),
    .end_o     (int_end)
  );

  // ---------------------------------------------------------------- index
  logic [IdxW-1:0] idx;
  always_comb begin
    logic [NumSlices*IdxW-1:0] padded;
    padded = (NumSlices * IdxW)'(item_key_i);
    idx = '0;
    for (int unsigned s = 0; s < NumSlices; s++) idx ^= padded[s*IdxW +: IdxW];
  end

  // ---------------------------------------------------------------- state
  logic [AccW-1:0]   acc_q [Counters];
  logic [SigW-1:0]   sig_q [Counters];   // no reset: data
  logic [15:0]       id_q [Entries];     // no reset: qualified by valid_q
  logic [AgeW-1:0]   age_q [Entries];
  logic [Entries-1:0] valid_q;
  logic [IdxW-1:0]   cnt_q;
  logic [BitW-1:0]   bit_q;
  logic [KW-1:0]     k_q;
  logic [TotW-1:0]   total_q;
  logic [TotW-1:0]   rem_q;
  logic [SigW-2:0]   quo_q;    // quotient bits so far (the last comes from div_bit)
  logic [DistW-1:0]  dist_q, best_d_q, thr_q;
  logic              best_found_q;
  logic [EntW-1:0]   best_q, victim_q;
  logic [15:0]       next_id_q, prev_q;
  logic              have_prev_q;
  logic [15:0]       res_phase_q, res_pred_q;
  logic              res_changed_q, res_matched_q, res_scored_q, res_correct_q;
  logic [DistW-1:0]  res_dist_q;

  // Two accumulator read ports: the feature's index (Idle) and the pass's
  // element (Sum, Div). One shared port would put the record's key on the
  // division's timing path.
  logic [AccW-1:0]   acc_rd, acc_el;
  assign acc_rd = acc_q[idx];
  assign acc_el = acc_q[cnt_q];

  // Division step of the current element.
  logic [TotW:0]     div_t;
  logic              div_bit;
  logic [TotW-1:0]   div_rem;
  always_comb begin
    div_t = (bit_q == '0) ? {1'b0, (TotW)'(acc_el)} << 1 : {rem_q, 1'b0};
    div_bit = (total_q != '0) && (div_t >= {1'b0, total_q});
    div_rem = div_bit ? TotW'(div_t - {1'b0, total_q}) : TotW'(div_t);
  end

  // Search: the word read in the previous cycle is address k_q - 1.
  logic [KW-1:0]     prev_k;
  logic [IdxW-1:0]   s_elem;
  logic [EntW-1:0]   s_ent;
  logic [SigW-1:0]   ram_rdata, s_sig;
  logic [DistW-1:0]  s_diff, s_sum;
  assign prev_k = k_q - KW'(1);
  assign s_elem = prev_k[IdxW-1:0];
  assign s_ent = EntW'(prev_k >> IdxW);
  // One signature read port: the element being compared in Search, the
  // element being written in Write.
  logic [IdxW-1:0]   sig_sel;
  assign sig_sel = (state_q == StWrite) ? cnt_q : s_elem;
  assign s_sig = sig_q[sig_sel];
  logic [SigW-1:0]   s_absdiff;
  assign s_absdiff = (s_sig > ram_rdata) ? s_sig - ram_rdata : ram_rdata - s_sig;
  assign s_diff = DistW'(s_absdiff);
  assign s_sum = ((s_elem == '0) ? '0 : dist_q) + s_diff;

  // Victim: the lowest invalid entry, else the one with age Entries-1 (the
  // ages of valid entries are distinct; the highest index wins otherwise).
  logic [EntW-1:0]    victim, inv_ent, old_ent;
  logic               inv_found;
  logic [Entries-1:0] oldest;
  logic               unused_old_found;
  always_comb begin
    for (int unsigned i = 0; i < Entries; i++) oldest[i] = (age_q[i] == AgeW'(Entries - 1));
  end

  hwprof_lzc #(
    .N        (Entries),
    .HighFirst(0)
  ) u_lzc_invalid (
    .in_i   (~valid_q),
    .idx_o  (inv_ent),
    .valid_o(inv_found)
  );

  hwprof_lzc #(
    .N        (Entries),
    .HighFirst(1)
  ) u_lzc_oldest (
    .in_i   (oldest),
    .idx_o  (old_ent),
    .valid_o(unused_old_found)  // an entry is always that old when none is invalid
  );

  assign victim = inv_found ? inv_ent : old_ent;

  // Match: the outcome of the search, registered for Decide.
  logic            match, decide_match;
  logic [EntW-1:0] touch_ent, match_ent, touch_ent_q;
  logic [AgeW-1:0] touch_age, touch_age_q;  // Entries for an invalid entry: older than all
  assign match = best_found_q && (best_d_q < thr_q);
  assign match_ent = match ? best_q : victim;
  assign touch_age = valid_q[match_ent] ? age_q[match_ent] : AgeW'(Entries);
  logic match_q;
  assign decide_match = match_q;
  assign touch_ent = touch_ent_q;
  logic [15:0]     ph;
  assign ph = decide_match ? id_q[best_q] : next_id_q;

  // Accumulator update of a feature (saturating).
  logic [AccW-1:0] acc_sum;
  assign acc_sum = AccW'(hwprof_prim_pkg::sat_add(64'(acc_rd), 64'(item_weight_i), AccW));

  // RAM: table signatures.
  logic [RamAW-1:0]  ram_waddr, ram_raddr;
  logic              ram_re;
  assign ram_waddr = RamAW'(32'(victim_q) * Counters + 32'(cnt_q));
  assign ram_re = (state_q == StSearch) && (k_q < KW'(Words));
  assign ram_raddr = RamAW'(k_q);

  hwprof_ram_2p #(
    .Depth(Words),
    .Width(SigW),
    .GranW(SigW)
  ) u_table (
    .clk_i,
    .wmask_i(state_q == StWrite),
    .waddr_i(ram_waddr),
    .wdata_i(s_sig),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );

  // Markov predictor.
  logic        mk_res_valid, mk_scored, mk_correct;
  logic [15:0] mk_pred;
  hwprof_markov_predictor #(
    .Entries(MarkovEntries),
    .IdW    (16)
  ) u_markov (
    .clk_i,
    .rst_ni,
    .clear_i      (restart_i),
    .upd_valid_i  (state_q == StPred),
    .upd_phase_i  (res_phase_q),
    .res_valid_o  (mk_res_valid),
    .res_pred_o   (mk_pred),
    .res_scored_o (mk_scored),
    .res_correct_o(mk_correct)
  );

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:   if (go && int_end) state_d = StSum;
      StSum:    if (cnt_q == IdxW'(Counters - 1)) state_d = StDiv;
      StDiv:    if (cnt_q == IdxW'(Counters - 1) && bit_q == BitW'(SigW - 1)) state_d = StSearch;
      StSearch: if (k_q == KW'(Words)) state_d = StMatch;
      StMatch:  state_d = StDecide;
      StDecide: state_d = decide_match ? StPred : StWrite;
      StWrite:  if (cnt_q == IdxW'(Counters - 1)) state_d = StPred;
      StPred:   state_d = StCapt;
      StCapt:   state_d = StRes;
      StRes:    if (res_ready_i) state_d = StIdle;
      default:  state_d = StIdle;
    endcase
    if (restart_i) state_d = StIdle;
  end

  // Counters (hwprof_stat_bank; cleared only by reset): records, features,
  // intervals, phases, busy cycles.
  logic              res_taken;
  logic [4:0][31:0]  stat;
  assign res_taken = (state_q == StRes) && res_ready_i && !restart_i;

  hwprof_stat_bank #(
    .N(5),
    .W(32)
  ) u_stats (
    .clk_i,
    .rst_ni,
    .clear_i(1'b0),
    .inc_i  ({busy_o && !restart_i, res_taken && !res_matched_q, res_taken, go && item_feat_i, go}),
    .add_i  ('1),
    .cnt_o  (stat)
  );
  assign {stat_busy_o, stat_phases_o, stat_intervals_o, stat_features_o, stat_records_o} = stat;

  // Control state (asynchronous reset).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      for (int unsigned i = 0; i < Counters; i++) acc_q[i] <= '0;
      for (int unsigned i = 0; i < Entries; i++) age_q[i] <= '0;
      valid_q <= '0;
      cnt_q <= '0;
      bit_q <= '0;
      k_q <= '0;
      total_q <= '0;
      rem_q <= '0;
      quo_q <= '0;
      dist_q <= '0;
      best_d_q <= '0;
      thr_q <= '0;
      best_found_q <= 1'b0;
      best_q <= '0;
      victim_q <= '0;
      match_q <= 1'b0;
      touch_ent_q <= '0;
      touch_age_q <= '0;
      next_id_q <= '0;
      prev_q <= '0;
      have_prev_q <= 1'b0;
      res_phase_q <= '0;
      res_pred_q <= '0;
      res_changed_q <= 1'b0;
      res_matched_q <= 1'b0;
      res_scored_q <= 1'b0;
      res_correct_q <= 1'b0;
      res_dist_q <= '0;
    end else begin
      state_q <= state_d;
      if (restart_i) begin
        for (int unsigned i = 0; i < Counters; i++) acc_q[i] <= '0;
        valid_q <= '0;
        next_id_q <= '0;
        have_prev_q <= 1'b0;
      end else begin
        unique case (state_q)
          StIdle: begin
            if (go) begin
              if (item_feat_i) acc_q[idx] <= acc_sum;
              if (int_end) begin
                thr_q <= threshold_i;
                cnt_q <= '0;
                total_q <= '0;
              end
            end
          end
          StSum: begin
            total_q <= total_q + TotW'(acc_el);
            cnt_q <= cnt_q + IdxW'(1);  // wraps to 0 at the end
            bit_q <= '0;
          end
          StDiv: begin
            rem_q <= div_rem;
            quo_q <= {quo_q[SigW-3:0], div_bit};
            if (bit_q == BitW'(SigW - 1)) begin
              sig_q[cnt_q] <= {quo_q[SigW-2:0], div_bit};
              acc_q[cnt_q] <= '0;
              bit_q <= '0;
              cnt_q <= cnt_q + IdxW'(1);
            end else begin
              bit_q <= bit_q + BitW'(1);
            end
            k_q <= '0;
            best_found_q <= 1'b0;
          end
          StSearch: begin
            k_q <= k_q + KW'(1);
            if (k_q != '0) begin
              dist_q <= s_sum;
              if (s_elem == IdxW'(Counters - 1) && valid_q[s_ent] && (!best_found_q || s_sum < best_d_q)) begin
                best_found_q <= 1'b1;
                best_q <= s_ent;
                best_d_q <= s_sum;
              end
            end
          end
          StMatch: begin
            match_q <= match;
            touch_ent_q <= match_ent;
            touch_age_q <= touch_age;
            victim_q <= victim;
          end
          StDecide: begin
            res_phase_q <= ph;
            res_matched_q <= decide_match;
            res_dist_q <= best_found_q ? best_d_q : '1;
            res_changed_q <= !have_prev_q || (prev_q != ph);
            have_prev_q <= 1'b1;
            prev_q <= ph;
            if (!decide_match) next_id_q <= next_id_q + 16'd1;
            cnt_q <= '0;
            for (int unsigned i = 0; i < Entries; i++)
              if (EntW'(i) != touch_ent && valid_q[i] && age_q[i] < touch_age_q) age_q[i] <= age_q[i] + AgeW'(1);
            age_q[touch_ent] <= '0;
            valid_q[touch_ent] <= 1'b1;
          end
          StWrite: cnt_q <= cnt_q + IdxW'(1);
          StCapt: begin
            res_pred_q <= mk_pred;
            res_scored_q <= mk_scored;
            res_correct_q <= mk_correct;
          end
          default: ;
        endcase
      end
    end
  end

  // Phase ids of the entries (no reset: qualified by valid_q).
  always_ff @(posedge clk_i) begin
    if (state_q == StDecide && !restart_i && !decide_match) id_q[victim_q] <= next_id_q;
  end

  assign res_valid_o = (state_q == StRes);
  assign res_phase_o = res_phase_q;
  assign res_changed_o = res_changed_q;
  assign res_matched_o = res_matched_q;
  assign res_distance_o = res_dist_q;
  assign res_pred_o = res_pred_q;
  assign res_scored_o = res_scored_q;
  assign res_correct_o = res_correct_q;
  assign busy_o = (state_q != StIdle) && (state_q != StRes);

  // The Markov result valid is implied by the Capt state.
  logic unused_mk_valid;
  assign unused_mk_valid = mk_res_valid;

  `HWPROF_ASSERT(markov_result_in_capt, state_q == StCapt && !restart_i |-> mk_res_valid)
  `HWPROF_ASSERT(result_held, res_valid_o && !res_ready_i && !restart_i |=> res_valid_o && $stable(res_phase_o))
  `HWPROF_ASSERT(no_item_when_busy, busy_o |-> !item_ready_o)

endmodule

`default_nettype wire
