// hwprof_detector_core: the source-agnostic phase detector of docs/phase_detector.md
// (hwprof-spec.md section 3.3; paper 000 section 6; Sherwood et al.'s BBV
// scheme). Model: sim_models/phase/phase_detector.h, DetectorCore, which
// commits every interval end through DetectorAlgo::end_interval.
//
// Items: one per handshake, {optional feature (key, weight), tick (insns)}.
// The feature is accumulated first (acc[fold(key)] += weight, saturating at
// 2^32-1), then the tick counts insns toward the interval (hwprof_interval_counter).
//
// Accumulators: two banks of Counters x 32 bits, each a hwprof_ram_2p (block
// RAM), plus a live bit per counter and bank (a counter whose live bit is
// clear reads as 0, so a bank is cleared by clearing its live bits). Items
// go to the live bank (bank_q) through a read-modify-write pipeline:
//   take   (edge E0) read address fold(key) of the live bank; live bit set;
//          forward flag = the item in stage 1 has the same bank and index.
//   stage1 (edge E1) old = forwarded sum of the previous item (read-after-
//          write at distance 1: its write is at E0, the edge of this read),
//          else the RAM word if live, else 0; sum = sat(old + weight) is
//          written back and registered for forwarding.
// Distance 2 and more need no forwarding (the write is before the read).
//
// Interval end: the item that ends an interval starts the signature pass on
// its bank when the pass is free (Idle; registered state only, res_ready_i
// never starts a pass, so the result handshake stays off the bank swap): the
// banks swap at that edge (the new live bank is empty: a pass clears its
// bank's live bits in Search, after the last read in Div, so no wide clear
// hangs on the start) and items keep being taken while the pass runs in the
// background. When the pass is not free the interval end waits (end_pend_q):
// item_ready_o stays low until the FSM is back in Idle (the cycle after the
// running pass's result is taken), and the waiting pass starts (banks swap)
// at that edge. The THRESHOLD value at the
// ending item is the one used. The pass (busy_o):
//   Wait    2 cycles: the ending item's accumulator write lands.
//   Sum     Counters cycles: total = sum of the old bank's accumulators
//           (each RAM word read once; the read address runs one ahead).
//   Div     Counters*(SigW+1) cycles: per element one load cycle (rem =
//           acc[j] of the old bank) and SigW restoring-division steps, one
//           quotient bit per cycle: element j = min(floor(acc[j]*2^SigW /
//           total), 2^SigW-1) (0 when total = 0; a division of total by
//           itself yields all ones, which is the clamp); the element goes to
//           the signature RAM (Counters x SigW).
//   Search  Entries*Counters+3 cycles: the table RAM (word e*Counters+j =
//           element j of entry e) and the signature RAM are read one element
//           per cycle; pipeline a-b -> distance += |a-b| -> compare
//           (3 stages): the best is the valid entry with the smallest
//           distance, ties to the lowest index.
//   Match   1 cycle: match = a best exists and distance < threshold;
//           victim = the lowest invalid entry, else the least recently used.
//   Touch   1 cycle: the used entry (match: best, else victim) registered,
//           its age read from the age RAM;
//           the phase id RAM (Entries x 16) is read at best.
//   Decide  1 cycle: matched: the entry's phase id, its signature kept. Else
//           a new phase id (next_id, 16-bit, +1 modulo 2^16) into the
//           victim. The used entry and its age (read in Touch) are
//           registered and the age pass starts (below).
//   Write   Counters+1 cycles, allocation only: the signature RAM copied into
//           the victim's table words (read, then write one cycle later).
//   Pred    1 cycle: Markov update with the phase.
//   Capt    1 cycle: Markov result captured.
//   Res     the result is offered (res_valid_o) until taken; then Idle (a
//           waiting interval end starts from Idle at the next edge).
// item_ready_o = no interval end waiting and no hold_i (registered state and
// the register port only; restart_i must come with hold_i). LRU: a 0..Entries-1 age per valid entry
// (0 = most recent); using entry m ages every valid entry younger than m
// (every valid entry if m was invalid) by one and sets m's age to 0. The
// ages live in a RAM (Entries x AgeW, u_ages): after Decide the age pass
// reads entry i in cycle i and writes its new age one cycle later
// (Entries + 1 cycles, in the background of Write / Pred / Capt / Res and
// of the next interval; it ends long before the next pass's Touch or
// Match), and registers the entry whose new age is Entries-1 (oldest_q,
// the victim when no entry is invalid). It adds no cycle to the pass.
// restart_i (priority over everything): live bits, interval count,
// valid bits, next id, previous phase and the predictor are cleared and the
// FSM returns to Idle (a running pass, a waiting interval end and a pending
// result are dropped). interval_we_i restarts the interval count
// (interval_i is the new value from then on).
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
  /// The core takes it (combinational from hold_i and the state; restart_i comes with hold_i).
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
  /// The signature pass is running (Wait .. Capt) or an interval end waits for it.
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
  localparam int unsigned KW = $clog2(Words + 3);
  localparam int unsigned BitW = $clog2(SigW + 1);
  localparam int unsigned NumSlices = (32 + IdxW - 1) / IdxW;

  typedef enum logic [3:0] {
    StIdle, StWait, StSum, StDiv, StSearch, StMatch, StTouch, StDecide, StWrite, StPred, StCapt, StRes
  } state_e;

  state_e            state_q, state_d;
  logic              go, int_end, pass_free, start, end_pend_q;

  // restart_i comes with hold_i (a register write), so it need not gate
  // the handshake (keeps the restart decode off the item path).
  assign item_ready_o = !end_pend_q && !hold_i;
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

  // The pass can take an interval end at this edge: Idle (registered state
  // only; a result taken in Res frees the pass one cycle later, which keeps
  // res_ready_i off the start / bank-swap logic). A waiting interval end has
  // priority (no item is taken then).
  assign pass_free = (state_q == StIdle);
  // With restart_i no item is taken (hold_i) and the state, end_pend_q and
  // the live bits are cleared below, so a start then is harmless.
  assign start = pass_free && (end_pend_q || (go && int_end));

  // ---------------------------------------------------------------- index
  logic [IdxW-1:0] idx;
  always_comb begin
    logic [NumSlices*IdxW-1:0] padded;
    padded = (NumSlices * IdxW)'(item_key_i);
    idx = '0;
    for (int unsigned s = 0; s < NumSlices; s++) idx ^= padded[s*IdxW +: IdxW];
  end

  // ---------------------------------------------------------------- accumulators
  logic                      bank_q;            // live bank
  logic [1:0][Counters-1:0]  live_q;
  logic                      s1_v_q, s1_bank_q, s1_live_q, s1_fwd_q;
  logic [IdxW-1:0]           s1_idx_q;
  logic [WeightW-1:0]        s1_w_q;            // no reset: qualified by s1_v_q
  logic                      f_bank_q;
  logic [IdxW-1:0]           f_idx_q;
  logic [AccW-1:0]           f_sum_q;
  logic [AccW-1:0]           acc_rdata [2];
  logic [IdxW-1:0]           pass_raddr;

  // Stage 1: forward, add, saturate, write back.
  logic [AccW-1:0]           s1_rd, s1_old, s1_sum;
  logic [AccW:0]             s1_add;
  assign s1_rd = s1_bank_q ? acc_rdata[1] : acc_rdata[0];
  assign s1_old = s1_fwd_q ? f_sum_q : (s1_live_q ? s1_rd : '0);
  assign s1_add = {1'b0, s1_old} + (AccW + 1)'(s1_w_q);
  assign s1_sum = s1_add[AccW] ? '1 : s1_add[AccW-1:0];

  for (genvar b = 0; b < 2; b++) begin : gen_acc
    hwprof_ram_2p #(
      .Depth(Counters),
      .Width(AccW),
      .GranW(AccW)
    ) u_acc (
      .clk_i,
      .wmask_i(s1_v_q && s1_bank_q == 1'(b)),
      .waddr_i(s1_idx_q),
      .wdata_i(s1_sum),
      .re_i   (1'b1),
      .raddr_i((bank_q == 1'(b)) ? idx : pass_raddr),
      .rdata_o(acc_rdata[b])
    );
  end

  always_ff @(posedge clk_i) begin
    s1_w_q <= item_weight_i;  // every cycle: qualified by s1_v_q (keeps go off its enables)
    if (s1_v_q) begin
      f_idx_q <= s1_idx_q;
      f_bank_q <= s1_bank_q;
      f_sum_q <= s1_sum;
    end
  end

  // ---------------------------------------------------------------- pass state
  logic [IdxW-1:0]   cnt_q;
  logic [BitW-1:0]   bit_q;
  logic [KW-1:0]     k_q;
  logic [TotW-1:0]   tot_q, rem_q;
  logic              tot_nz_q;
  logic [SigW-2:0]   quo_q;    // quotient bits so far (the last comes from div_bit)
  logic [DistW-1:0]  best_d_q, thr_q, thr_pend_q;
  logic              best_found_q;
  logic [EntW-1:0]   best_q, victim_q;
  logic [Entries-1:0] valid_q;
  logic [15:0]       next_id_q, prev_q;
  logic              have_prev_q;
  logic [15:0]       res_phase_q, res_pred_q;
  logic              res_changed_q, res_matched_q, res_scored_q, res_correct_q;
  logic [DistW-1:0]  res_dist_q;

  // Div: element cnt_q of the old bank; the read address runs one element
  // ahead (the load cycle of element j uses the word read in the cycle
  // before).
  assign pass_raddr = (state_q == StSum || state_q == StDiv) ? cnt_q + IdxW'(1) : '0;
  logic [AccW-1:0]   old_rd;
  logic              old_live_q;  // live bit of the word on old_rd (read along with it)
  logic [AccW-1:0]   old_acc;     // the old bank's element cnt_q (0 unless live)
  assign old_rd = bank_q ? acc_rdata[0] : acc_rdata[1];
  assign old_acc = old_live_q ? old_rd : '0;

  logic [TotW:0]     div_t;
  logic [TotW+1:0]   div_diff;
  logic              div_bit;
  assign div_t = {rem_q, 1'b0};
  assign div_diff = {1'b0, div_t} - {2'b0, tot_q};
  assign div_bit = tot_nz_q && !div_diff[TotW+1];

  // Signature RAM (Counters x SigW): written in Div, read in Search and Write.
  logic              sig_we;
  logic [IdxW-1:0]   sig_raddr;
  logic [SigW-1:0]   sig_rdata;
  assign sig_we = (state_q == StDiv) && (bit_q == BitW'(SigW));
  assign sig_raddr = k_q[IdxW-1:0];

  hwprof_ram_2p #(
    .Depth(Counters),
    .Width(SigW),
    .GranW(SigW)
  ) u_sig (
    .clk_i,
    .wmask_i(sig_we),
    .waddr_i(cnt_q),
    .wdata_i({quo_q[SigW-2:0], div_bit}),
    .re_i   (1'b1),
    .raddr_i(sig_raddr),
    .rdata_o(sig_rdata)
  );

  // Table RAM (word e*Counters+j): read in Search, written in Write.
  logic [SigW-1:0]   tab_rdata;
  logic              tab_we;
  logic [RamAW-1:0]  tab_waddr;
  logic [IdxW-1:0]   k_prev;   // element written: one behind the read
  assign k_prev = k_q[IdxW-1:0] - IdxW'(1);
  assign tab_we = (state_q == StWrite) && (k_q != '0);
  assign tab_waddr = RamAW'(32'(victim_q) * Counters + 32'(k_prev));

  hwprof_ram_2p #(
    .Depth(Words),
    .Width(SigW),
    .GranW(SigW)
  ) u_table (
    .clk_i,
    .wmask_i(tab_we),
    .waddr_i(tab_waddr),
    .wdata_i(sig_rdata),
    .re_i   (1'b1),
    .raddr_i(RamAW'(k_q)),
    .rdata_o(tab_rdata)
  );

  // Search pipeline: p0 = the words read, p1 = a-b (one subtraction behind
  // the RAM outputs: the block RAM's clock-to-out leaves room for no more),
  // p2 = the distance so far, += |a-b| = ((a-b) XOR sign) + sign.
  logic              p0_v_q, p1_v_q, p2_v_q, p2_last_q;
  logic [IdxW-1:0]   p0_j_q, p1_j_q;
  logic [EntW-1:0]   p0_e_q, p1_e_q, p2_e_q;
  logic [SigW:0]     p1_diff_q;   // a - b, two's complement
  logic [DistW-1:0]  p2_dist_q;
  logic [SigW:0]     s_diff;
  logic              p1_neg;
  logic [SigW-1:0]   p1_flip;     // (a-b) XOR sign: |a-b| - sign
  assign s_diff = {1'b0, sig_rdata} - {1'b0, tab_rdata};
  assign p1_neg = p1_diff_q[SigW];
  assign p1_flip = p1_diff_q[SigW-1:0] ^ {SigW{p1_neg}};
  logic              p2_better;
  assign p2_better = p2_v_q && p2_last_q && valid_q[p2_e_q] && (!best_found_q || p2_dist_q < best_d_q);

  always_ff @(posedge clk_i) begin
    p0_j_q <= k_q[IdxW-1:0];
    p0_e_q <= EntW'(k_q >> IdxW);
    p1_j_q <= p0_j_q;
    p1_e_q <= p0_e_q;
    p1_diff_q <= s_diff;
    p2_e_q <= p1_e_q;
    p2_last_q <= (p1_j_q == IdxW'(Counters - 1));
    p2_dist_q <= ((p1_j_q == '0) ? '0 : p2_dist_q) + DistW'(p1_flip) + DistW'(p1_neg);
  end

  // Victim: the lowest invalid entry, else the least recently used one
  // (age Entries-1), which the last age pass registered in oldest_q.
  logic [EntW-1:0]    victim, inv_ent, oldest_q;
  logic               inv_found;

  hwprof_lzc #(
    .N        (Entries),
    .HighFirst(0)
  ) u_lzc_invalid (
    .in_i   (~valid_q),
    .idx_o  (inv_ent),
    .valid_o(inv_found)
  );

  assign victim = inv_found ? inv_ent : oldest_q;

  logic            match_q;
  logic [EntW-1:0] touch_ent, touch_ent_q;
  logic [AgeW-1:0] touch_age_q;  // Entries for an invalid entry: older than all
  assign touch_ent = match_q ? best_q : victim_q;

  // LRU ages (Entries x AgeW) in a RAM, updated by the age pass: Decide
  // registers the used entry and its age (read in Touch); the pass then
  // reads entry i in cycle i and writes its new age one cycle later
  // (Entries + 1 cycles in the background: it ends long before the next
  // pass's Touch or Match, see the assertions). Ages of invalid entries are
  // don't-care (a fill gives age 0; victim and touch age use valid_q).
  localparam int unsigned AgeD = (Entries > 1) ? Entries : 2;
  localparam int unsigned AgeAW = $clog2(AgeD);
  logic              ag_act_q, ag_wv_q;  // pass running; a read is on age_rdata
  logic [EntW:0]     ag_k_q;             // next entry to read (Entries: none)
  logic [EntW-1:0]   ag_wi_q;            // entry on age_rdata
  logic [AgeW-1:0]   age_rdata, age_new;
  logic              ag_rd;
  assign ag_rd = ag_act_q && (ag_k_q < (EntW + 1)'(Entries));
  always_comb begin
    age_new = age_rdata;
    if (ag_wi_q == touch_ent_q) age_new = '0;
    else if (valid_q[ag_wi_q] && age_rdata < touch_age_q) age_new = age_rdata + AgeW'(1);
  end

  hwprof_ram_2p #(
    .Depth(AgeD),
    .Width(AgeW),
    .GranW(AgeW)
  ) u_ages (
    .clk_i,
    .wmask_i(ag_wv_q),
    .waddr_i(AgeAW'(ag_wi_q)),
    .wdata_i(age_new),
    .re_i   (1'b1),
    .raddr_i(AgeAW'((state_q == StTouch) ? touch_ent : ag_k_q[EntW-1:0])),
    .rdata_o(age_rdata)
  );

  // Phase ids of the entries (qualified by valid_q): read at best in Touch,
  // written at the victim in Decide.
  logic [15:0]     id_rdata, ph;
  logic            id_we;
  assign id_we = (state_q == StDecide) && !match_q;  // a restart clears valid_q
  assign ph = match_q ? id_rdata : next_id_q;

  hwprof_ram_2p #(
    .Depth(Entries),
    .Width(16),
    .GranW(16)
  ) u_ids (
    .clk_i,
    .wmask_i(id_we),
    .waddr_i(victim_q),
    .wdata_i(next_id_q),
    .re_i   (state_q == StTouch),
    .raddr_i(best_q),
    .rdata_o(id_rdata)
  );

  // Markov predictor, trained bits in RAM words with live bits (TrainRam:
  // the iCE40 fit of path_phase; same cycle behaviour as the flip-flop form).
  logic        mk_res_valid, mk_scored, mk_correct;
  logic [15:0] mk_pred;
  hwprof_markov_predictor #(
    .Entries (MarkovEntries),
    .IdW     (16),
    .TrainRam(1)
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
      StIdle:   if (start) state_d = StWait;
      StWait:   if (cnt_q == IdxW'(1)) state_d = StSum;
      StSum:    if (cnt_q == IdxW'(Counters - 1)) state_d = StDiv;
      StDiv:    if (cnt_q == IdxW'(Counters - 1) && bit_q == BitW'(SigW)) state_d = StSearch;
      StSearch: if (k_q == KW'(Words + 2)) state_d = StMatch;
      StMatch:  state_d = StTouch;
      StTouch:  state_d = StDecide;
      StDecide: state_d = match_q ? StPred : StWrite;
      StWrite:  if (k_q == KW'(Counters)) state_d = StPred;
      StPred:   state_d = StCapt;
      StCapt:   state_d = StRes;
      StRes:    if (res_ready_i) state_d = StIdle;
      default:  state_d = StIdle;
    endcase
    if (restart_i) state_d = StIdle;
  end

  // Counters (hwprof_stat_bank; cleared only by reset): records, features,
  // intervals, phases, busy cycles.
  logic              res_taken, running;
  logic [4:0][31:0]  stat;
  assign running = (state_q != StIdle) && (state_q != StRes);
  assign res_taken = (state_q == StRes) && res_ready_i && !restart_i;

  hwprof_stat_bank #(
    .N(5),
    .W(32)
  ) u_stats (
    .clk_i,
    .rst_ni,
    .clear_i(1'b0),
    .inc_i  ({running && !restart_i, res_taken && !res_matched_q, res_taken, go && item_feat_i, go}),
    .add_i  ('1),
    .cnt_o  (stat)
  );
  assign {stat_busy_o, stat_phases_o, stat_intervals_o, stat_features_o, stat_records_o} = stat;

  // Control state (asynchronous reset).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      end_pend_q <= 1'b0;
      bank_q <= 1'b0;
      live_q <= '0;
      s1_v_q <= 1'b0;
      s1_bank_q <= 1'b0;
      s1_live_q <= 1'b0;
      s1_fwd_q <= 1'b0;
      s1_idx_q <= '0;
      old_live_q <= 1'b0;
      p0_v_q <= 1'b0;
      p1_v_q <= 1'b0;
      p2_v_q <= 1'b0;
      ag_act_q <= 1'b0;
      ag_wv_q <= 1'b0;
      ag_k_q <= '0;
      ag_wi_q <= '0;
      oldest_q <= '0;
      valid_q <= '0;
      cnt_q <= '0;
      bit_q <= '0;
      k_q <= '0;
      best_found_q <= 1'b0;
      best_q <= '0;
      victim_q <= '0;
      match_q <= 1'b0;
      touch_ent_q <= '0;
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
      // Accumulator pipeline. A cycle with restart_i takes no item (hold).
      s1_v_q <= go && item_feat_i;
      // Stage 1 loads every cycle (used only with s1_v_q, which is go and
      // a feature), so go reaches only the live bit and s1_v_q here.
      s1_idx_q <= idx;
      s1_bank_q <= bank_q;
      s1_live_q <= live_q[bank_q][idx];
      s1_fwd_q <= s1_v_q && s1_bank_q == bank_q && s1_idx_q == idx;
      if (go && item_feat_i) live_q[bank_q][idx] <= 1'b1;
      if (go && int_end && !pass_free) begin
        end_pend_q <= 1'b1;
      end
      old_live_q <= live_q[!bank_q][pass_raddr];
      p0_v_q <= (state_q == StSearch) && (k_q < KW'(Words));
      p1_v_q <= p0_v_q;
      p2_v_q <= p1_v_q;
      // The pass's bank is not read after Div: its live bits are cleared in
      // Search, so it is empty when it becomes the live bank at the next
      // start (keeps the wide clear off the start logic).
      if (state_q == StSearch) live_q[!bank_q] <= '0;
      // Age pass (see u_ages): read entry ag_k_q, write it one cycle later.
      ag_wv_q <= ag_rd;
      ag_wi_q <= ag_k_q[EntW-1:0];
      if (ag_act_q) begin
        ag_k_q <= ag_k_q + (EntW + 1)'(1);
        if (!ag_rd) ag_act_q <= 1'b0;
      end
      if (ag_wv_q && age_new == AgeW'(Entries - 1)) oldest_q <= ag_wi_q;
      if (start) begin
        // Banks swap: the new live bank is already empty.
        bank_q <= !bank_q;
        end_pend_q <= 1'b0;
        cnt_q <= '0;
      end
      if (restart_i) begin
        end_pend_q <= 1'b0;
        live_q <= '0;
        s1_v_q <= 1'b0;
        p0_v_q <= 1'b0;
        p1_v_q <= 1'b0;
        p2_v_q <= 1'b0;
        valid_q <= '0;
        ag_act_q <= 1'b0;
        ag_wv_q <= 1'b0;
        next_id_q <= '0;
        have_prev_q <= 1'b0;
      end else begin
        unique case (state_q)
          StWait: begin
            cnt_q <= cnt_q + IdxW'(1);
            if (cnt_q == IdxW'(1)) cnt_q <= '0;
          end
          StSum: begin
            cnt_q <= cnt_q + IdxW'(1);  // wraps to 0 at the end
            bit_q <= '0;
          end
          StDiv: begin
            if (bit_q == BitW'(SigW)) begin
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
            if (p2_better) begin
              best_found_q <= 1'b1;
              best_q <= p2_e_q;
            end
          end
          StMatch: begin
            match_q <= best_found_q && (best_d_q < thr_q);
            victim_q <= victim;
          end
          StTouch: begin
            touch_ent_q <= touch_ent;
          end
          StDecide: begin
            res_phase_q <= ph;
            res_matched_q <= match_q;
            res_dist_q <= best_found_q ? best_d_q : '1;
            res_changed_q <= !have_prev_q || (prev_q != ph);
            have_prev_q <= 1'b1;
            prev_q <= ph;
            if (!match_q) next_id_q <= next_id_q + 16'd1;
            k_q <= '0;
            // The age pass starts (touch_age_q: the datapath block below).
            ag_act_q <= 1'b1;
            ag_k_q <= '0;
            valid_q[touch_ent_q] <= 1'b1;
          end
          StWrite: k_q <= k_q + KW'(1);
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

  // Datapath registers of the pass (no reset: each is loaded before it is
  // used; a restart returns the FSM to Idle, so an update then is harmless).
  always_ff @(posedge clk_i) begin
    if (go && int_end && !pass_free) thr_pend_q <= threshold_i;
    if (start) thr_q <= end_pend_q ? thr_pend_q : threshold_i;
    unique case (state_q)
      StWait: tot_q <= '0;
      StSum: tot_q <= tot_q + TotW'(old_acc);
      StDiv: begin
        if (bit_q == '0) begin
          rem_q <= TotW'(old_acc);
          if (cnt_q == '0) tot_nz_q <= tot_q != '0;
        end else begin
          rem_q <= div_bit ? TotW'(div_diff) : TotW'(div_t);
          quo_q <= {quo_q[SigW-3:0], div_bit};
        end
      end
      StSearch: if (p2_better) best_d_q <= p2_dist_q;
      // The used entry's age: the word read in Touch (the age pass starts).
      StDecide: touch_age_q <= valid_q[touch_ent_q] ? age_rdata : AgeW'(Entries);
      default: ;
    endcase
  end

  assign res_valid_o = (state_q == StRes);
  assign res_phase_o = res_phase_q;
  assign res_changed_o = res_changed_q;
  assign res_matched_o = res_matched_q;
  assign res_distance_o = res_dist_q;
  assign res_pred_o = res_pred_q;
  assign res_scored_o = res_scored_q;
  assign res_correct_o = res_correct_q;
  // STATUS.busy also covers a waiting interval end (in Idle it starts at
  // the next edge), so a drained detector is one with busy and result clear.
  assign busy_o = running || end_pend_q;

  // The Markov result valid is implied by the Capt state; p1_v_q only
  // delays p0_v_q into p2_v_q.
  logic unused_mk_valid;
  assign unused_mk_valid = mk_res_valid;

  `HWPROF_ASSERT(restart_holds_items, restart_i |-> hold_i)
  `HWPROF_ASSERT(markov_result_in_capt, state_q == StCapt && !restart_i |-> mk_res_valid)
  `HWPROF_ASSERT(result_held, res_valid_o && !res_ready_i && !restart_i |=> res_valid_o && $stable(res_phase_o))
  `HWPROF_ASSERT(end_pending_only_when_pass_taken, end_pend_q && state_q == StIdle |-> start)
  `HWPROF_ASSERT(pending_pass_starts_from_idle, end_pend_q && state_q == StIdle && !restart_i |=> state_q == StWait && !end_pend_q)
  // The age pass (Entries + 1 cycles after Decide) ends before the next
  // pass can reach Touch (its RAM read) or Match (oldest_q).
  `HWPROF_ASSERT(age_pass_done_before_touch, ag_act_q || ag_wv_q |-> state_q != StTouch && state_q != StMatch)
  `HWPROF_ASSERT(forward_same_bank, s1_fwd_q && s1_v_q |-> f_bank_q == s1_bank_q && f_idx_q == s1_idx_q)

endmodule


`default_nettype wire
