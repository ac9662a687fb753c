// hwprof_dcr_tracker: the DCR phase tracker of docs/dcr.md (paper 003, spec
// section 5). Takes one branch record per clock, keeps the call/loop stack
// with stable and recursion bits, and at every interval end (every INTERVAL
// instructions, hwprof_interval_counter) turns the maximal stable run from the
// bottom of the stack into a signature, looks it up in the signature table
// (LRU, block RAM, sequential search) for a phase id and asks the Markov
// predictor (hwprof_markov_predictor) for the next phase. One result per interval
// leaves through the res_* stream. Functional model: DcrAlgo
// (sim_models/phase/dcr_algo.{h,cpp}); cycle model: DcrTracker
// (hwprof_dcr_tracker.h).
//
// Two machines in two modules: hwprof_dcr_stack (u_stack: the call/loop
// stack, its stable / recursion bits, prefix hashes and the interval-end
// snapshot; the stack operation of a record is in its header) and
// hwprof_dcr_sigtable (u_sigtable: the signature table search, LRU and
// phase id allocation). This module holds the interval-end state machine,
// the interval counter, the Markov predictor, the registers and counters.
//
// Records: a two-entry input buffer (head_q, skid_q). rec_ready_o = the
// buffer not full and no CMD or INTERVAL write in this cycle (a register
// and the register port only, never the record or the stack). A record is
// pre-decoded on its way in (next address, backward compare, tags) and
// counted there by the interval counter (it keeps "ends an interval"). The
// stack works on the head: when idle and its scan is over (u_stack's
// done_o: a record that needs stack entries from block RAM waits one cycle
// per entry read; docs/dcr.md "Stack scans") it commits and leaves the
// buffer. Every cycle with a record offered and not taken counts in
// STALL_CYCLES. A buffered record makes the tracker busy (STATUS.busy): a
// CMD then is ignored with err, so no command overtakes a taken record.
//
// Interval end (cycle behaviour; the head stays in the buffer from the edge
// that commits the head ending the interval until the result is taken):
//   Sig    1 cycle: snapshot (sig depth = the run of live stable entries from
//          the bottom, its hash, the recursion / overflow / skip flags);
//          every stable bit set and the overflow flag cleared at the edge;
//          read of table slot 0 issued.
//   Search SigEntries cycles: slot k's word is compared (hit: valid and hash
//          equal, the lowest such slot; the lowest invalid slot; the valid
//          slot with the smallest stamp, ties to the lowest); read k+1 issued.
//   Update 1 cycle: hit -> that slot's phase; miss -> phase = next id (then
//          next id + 1), into the lowest invalid slot else the LRU slot
//          (evicted); the slot is written with {hash, phase, stamp = uses}
//          and uses + 1; the Markov predictor gets the phase.
//   Wait   1 cycle: the Markov result; the result registers load, the
//          interval counters count.
//   Out    res_valid_o until res_ready_i.
//
// Edge order (DcrTracker::step): the head (stack, counters; the sequence
// starts when it ends an interval); an accepted record enters the buffer
// (interval count); the interval-end sequence; then a register write
// (STATUS W1C err; CMD restart / clear_table / clear_stats, obeyed only in
// Idle with the buffer empty, else ignored with err; INTERVAL, 0 rejected
// with err, a legal value also restarts the interval count). In a cycle
// with a CMD or INTERVAL write rec_ready_o is low, so a command never meets
// a record.
//
// Registers (reads combinational from the state before the edge): data/regs/dcr.json
// (generated: hwprof_dcr_reg_pkg, docs/dcr.md, "Registers").
//
// Storage: see hwprof_dcr_stack and hwprof_dcr_sigtable. Here control
// state and counters reset asynchronously; the Update -> Wait registers and
// the result registers have no reset (qualified by the state).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_dcr_tracker #(
  /// Stack entries (1..255).
  parameter int unsigned Depth = 32,
  /// Signature table slots (1..4096).
  parameter int unsigned SigEntries = 64,
  /// Markov predictor slots (a power of two >= 2).
  parameter int unsigned MarkovEntries = 256,
  /// Reset value of INTERVAL (>= 1).
  parameter int unsigned IntervalReset = 1000000,
  /// Width of the stack size.
  localparam int unsigned DepthW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic                     clk_i,
  /// Asynchronous active-low reset: empty stack, empty table, no result,
  /// INTERVAL = IntervalReset, err and counters 0.
  input  wire logic                     rst_ni,
  // Branch records.
  /// A record is offered; hold it until taken.
  input  wire logic                     rec_valid_i,
  /// It is taken this cycle: the input buffer has room (registered) and no
  /// CMD or INTERVAL write in this cycle.
  output logic                          rec_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t  rec_i,
  // Interval results (registered; fields meaningful while res_valid_o).
  /// A result is offered; it holds until taken.
  output logic                          res_valid_o,
  /// The consumer takes it this cycle.
  input  wire logic                     res_ready_i,
  /// Phase id of the interval.
  output logic [15:0]                   res_phase_o,
  /// Predicted phase id of the next interval.
  output logic [15:0]                   res_pred_o,
  /// Signature depth (stable entries from the bottom).
  output logic [7:0]                    res_depth_o,
  /// Flags: 0 new, 1 evict, 2 changed, 3 recursion, 4 overflow, 5 skip,
  /// 6 scored, 7 correct.
  output logic [7:0]                    res_flags_o,
  /// Signature hash.
  output logic [31:0]                   res_hash_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic                     csr_we_i,
  /// Word address.
  input  wire logic [3:0]               csr_addr_i,
  /// Write data.
  input  wire logic [31:0]              csr_wdata_i,
  /// Read data of csr_addr_i (combinational, state before the edge).
  output logic [31:0]                   csr_rdata_o
);

  import hwprof_pkg::*;
  import hwprof_dcr_reg_pkg::*;

  initial begin
    if (MarkovEntries < 2 || (MarkovEntries & (MarkovEntries - 1)) != 0)
      $fatal(1, "hwprof_dcr_tracker: MarkovEntries must be a power of two >= 2");
    if (IntervalReset < 1) $fatal(1, "hwprof_dcr_tracker: IntervalReset must be >= 1");
  end

  localparam int unsigned StatW = 32;

  /// The counters, in register order (counter k is at DcrAddrRecords + k).
  typedef enum int unsigned {
    StatRecords, StatIntervals, StatPushes, StatPops, StatOverflows, StatRecursions, StatResyncs,
    StatNewPhases, StatEvictions, StatScored, StatCorrect, StatStallCycles
  } stat_e;
  localparam int unsigned NumStats = int'(StatStallCycles) + 1;

  typedef enum logic [2:0] {
    StIdle   = 3'd0,
    StSig    = 3'd1,
    StSearch = 3'd2,
    StUpdate = 3'd3,
    StWait   = 3'd4,
    StOut    = 3'd5
  } state_e;

  // ------------------------------------------------------------------ state
  state_e             state_q;
  logic [31:0]        interval_q;
  logic               err_q;
  // Update -> Wait.
  logic [15:0]        upd_phase_q;
  logic               upd_new_q, upd_evict_q;
  logic               have_prev_q;
  logic [15:0]        prev_phase_q;
  // Result.
  logic [15:0]        res_phase_q, res_pred_q;
  logic [7:0]         res_flags_q;
  // Counters (hwprof_stat_bank): enable and amount per counter.
  logic [NumStats-1:0]              stat_inc;
  logic [NumStats-1:0][DepthW-1:0]  stat_add;
  logic [NumStats-1:0][StatW-1:0]   stat;

  // ------------------------------------------------------------- control
  logic               cmd_write, ivl_write, idle_cmd, accept, ivl_end, busy, hold, st_done, commit;
  logic               restart, clear_table, clear_stats;

  assign cmd_write = csr_we_i && (csr_addr_i == DcrAddrCmd);
  assign ivl_write = csr_we_i && (csr_addr_i == DcrAddrInterval);
  // STATUS.busy: an interval end is being answered or its result waits, or a
  // record waits in the input buffer; commands are obeyed only when not busy.
  assign idle_cmd = cmd_write && !busy;
  assign restart = idle_cmd && csr_wdata_i[DcrCmdRestartBit];
  assign clear_table = idle_cmd && csr_wdata_i[DcrCmdClearTableBit];
  assign clear_stats = idle_cmd && csr_wdata_i[DcrCmdClearStatsBit];

  // ---------------------------------------------------------- input buffer
  // Two entries (head_q, the oldest, and skid_q): rec_ready_o depends only on
  // the occupancy and the register port, never on the record or the stack.
  // A record is pre-decoded on its way in (next address, backward compare,
  // tags) and its interval count steps there (end: it ends an interval);
  // the stack works on the head.
  /// One buffered record.
  typedef struct packed {
    branch_rec_t  rec;
    logic         ends;      // the record ends an interval
    logic [31:0]  next;      // taken ? target : pc + ilen
    logic         backward;  // a taken br/jmp with target <= pc
    logic [7:0]   ttag;      // tag(target)
    logic [7:0]   rtag;      // tag(pc + ilen)
  } buf_t;

  function automatic logic [7:0] tag(input logic [31:0] x);
    tag = x[7:0] ^ x[15:8] ^ x[23:16] ^ x[31:24];
  endfunction

  logic               head_v_q, skid_v_q;
  buf_t               head_q, skid_q, in_entry;
  logic [31:0]        in_ret;

  assign rec_ready_o = !skid_v_q && !cmd_write && !ivl_write;
  assign accept = rec_valid_i && rec_ready_o;
  assign busy = (state_q != StIdle) || head_v_q;
  assign hold = (state_q != StIdle);
  assign commit = head_v_q && !hold && st_done;

  assign in_ret = rec_i.pc + 32'(rec_i.ilen);
  assign in_entry = '{rec: rec_i, ends: ivl_end, next: rec_i.taken ? rec_i.target : in_ret,
                      backward: ((rec_i.kind == KindBr) || (rec_i.kind == KindJmp)) && rec_i.taken &&
                                (rec_i.target <= rec_i.pc),
                      ttag: tag(rec_i.target), rtag: tag(in_ret)};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_v_q <= 1'b0;
      skid_v_q <= 1'b0;
    end else if (!head_v_q || commit) begin
      head_v_q <= skid_v_q || accept;
      skid_v_q <= 1'b0;
    end else if (accept) begin
      skid_v_q <= 1'b1;
    end
  end

  // Entries (no reset: qualified by the valid bits).
  always_ff @(posedge clk_i) begin
    if (!head_v_q || commit) head_q <= skid_v_q ? skid_q : in_entry;
    if (head_v_q && !commit && accept) skid_q <= in_entry;
  end

  hwprof_interval_counter #(
    .IntervalW(32),
    .InsnsW   (InsnsW)
  ) u_interval (
    .clk_i,
    .rst_ni,
    .interval_i(interval_q),
    // CMD.restart, or a legal INTERVAL write (docs/phase.md).
    .restart_i (restart || (ivl_write && (csr_wdata_i != '0))),
    .step_i    (accept),
    .insns_i   (rec_i.insns),
    .end_o     (ivl_end)
  );

  // --------------------------------------------------------------- stack
  logic               st_push, st_ovf, st_rec, st_resync, skip;
  logic [DepthW-1:0]  st_pops, size;
  logic [7:0]         sig_depth;
  logic [31:0]        sig_hash;
  logic               sig_rec, sig_ovf, sig_skip;

  hwprof_dcr_stack #(
    .Depth(Depth)
  ) u_stack (
    .clk_i,
    .rst_ni,
    .rec_valid_i(head_v_q),
    .hold_i     (hold),
    .busy_i     (hold),
    .rec_i      (head_q.rec),
    .next_i     (head_q.next),
    .backward_i (head_q.backward),
    .ttag_i     (head_q.ttag),
    .rtag_i     (head_q.rtag),
    .ld_i       (!head_v_q || commit),
    .ld_ttag_i  (skid_v_q ? skid_q.ttag : in_entry.ttag),
    .done_o     (st_done),
    .push_o     (st_push),
    .pops_o     (st_pops),
    .overflow_o (st_ovf),
    .recursion_o(st_rec),
    .resync_o   (st_resync),
    .restart_i  (restart),
    .snap_i     (state_q == StSig),
    .size_o     (size),
    .skip_o     (skip),
    .sig_depth_o(sig_depth),
    .sig_hash_o (sig_hash),
    .sig_rec_o  (sig_rec),
    .sig_ovf_o  (sig_ovf),
    .sig_skip_o (sig_skip)
  );

  // ----------------------------------------------------- signature table
  logic               last_cmp, upd_new, upd_evict;
  logic [15:0]        upd_phase;

  hwprof_dcr_sigtable #(
    .SigEntries(SigEntries)
  ) u_sigtable (
    .clk_i,
    .rst_ni,
    .clear_i (clear_table),
    .start_i (state_q == StSig),
    .search_i(state_q == StSearch),
    .last_o  (last_cmp),
    .update_i(state_q == StUpdate),
    .hash_i  (sig_hash),
    .phase_o (upd_phase),
    .new_o   (upd_new),
    .evict_o (upd_evict)
  );

  // ---------------------------------------------------------------- Markov
  logic        mk_valid, mk_scored, mk_correct;
  logic [15:0] mk_pred;

  hwprof_markov_predictor #(
    .Entries(MarkovEntries),
    .IdW    (16)
  ) u_markov (
    .clk_i,
    .rst_ni,
    .clear_i      (clear_table),
    .upd_valid_i  (state_q == StUpdate),
    .upd_phase_i  (upd_phase),
    .res_valid_o  (mk_valid),
    .res_pred_o   (mk_pred),
    .res_scored_o (mk_scored),
    .res_correct_o(mk_correct)
  );

  // -------------------------------------------------------------- the FSM
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      have_prev_q <= 1'b0;
      prev_phase_q <= '0;
      interval_q <= IntervalReset;
      err_q <= 1'b0;
    end else begin
      // 1. The head (the stack commits it in u_stack).
      if (commit && head_q.ends) state_q <= StSig;
      // 2. The interval-end sequence.
      unique case (state_q)
        StIdle: ;
        StSig: state_q <= StSearch;
        StSearch: if (last_cmp) state_q <= StUpdate;
        StUpdate: state_q <= StWait;
        StWait: begin
          have_prev_q <= 1'b1;
          prev_phase_q <= upd_phase_q;
          state_q <= StOut;
        end
        StOut: if (res_ready_i) state_q <= StIdle;
        default: state_q <= StIdle;
      endcase
      // 3. Register writes.
      if (csr_we_i) begin
        unique case (csr_addr_i)
          DcrAddrStatus: if (csr_wdata_i[DcrStatusErrBit]) err_q <= 1'b0;
          DcrAddrCmd: begin
            if (busy && |csr_wdata_i[2:0]) err_q <= 1'b1;
            if (clear_table) have_prev_q <= 1'b0;
          end
          DcrAddrInterval: begin
            if (csr_wdata_i == '0) err_q <= 1'b1;
            else interval_q <= csr_wdata_i;
          end
          default: ;
        endcase
      end
    end
  end

  // Update -> Wait registers and the result (no reset: qualified by the
  // state).
  always_ff @(posedge clk_i) begin
    if (state_q == StUpdate) begin
      upd_phase_q <= upd_phase;
      upd_new_q <= upd_new;
      upd_evict_q <= upd_evict;
    end
    if (state_q == StWait) begin
      res_phase_q <= upd_phase_q;
      res_pred_q <= mk_pred;
      res_flags_q <= {mk_correct, mk_scored, sig_skip, sig_ovf, sig_rec,
                      !have_prev_q || (prev_phase_q != upd_phase_q), upd_evict_q, upd_new_q};
    end
  end

  // -------------------------------------------------------------- counters
  logic wait_st;
  assign wait_st = (state_q == StWait);

  always_comb begin
    stat_add = {NumStats{DepthW'(1)}};
    stat_add[StatPops]        = st_pops;
    stat_inc[StatRecords]     = commit;
    stat_inc[StatPushes]      = commit && st_push;
    stat_inc[StatPops]        = commit;
    stat_inc[StatOverflows]   = commit && st_ovf;
    stat_inc[StatRecursions]  = commit && st_rec;
    stat_inc[StatResyncs]     = commit && st_resync;
    stat_inc[StatStallCycles] = rec_valid_i && !rec_ready_o;
    stat_inc[StatIntervals]   = wait_st;
    stat_inc[StatNewPhases]   = wait_st && upd_new_q;
    stat_inc[StatEvictions]   = wait_st && upd_evict_q;
    stat_inc[StatScored]      = wait_st && mk_scored;
    stat_inc[StatCorrect]     = wait_st && mk_correct;
  end

  // The increments are registered (the counters count one edge after the
  // event, DcrTracker::shown()), so that no counter's carry chain lies on
  // the record's outcome path; clear_stats drops the pending ones.
  logic [NumStats-1:0]              stat_inc_q;
  logic [NumStats-1:0][DepthW-1:0]  stat_add_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) stat_inc_q <= '0;
    else stat_inc_q <= clear_stats ? '0 : stat_inc;
  end

  always_ff @(posedge clk_i) stat_add_q <= stat_add;

  hwprof_stat_bank #(
    .N   (NumStats),
    .W   (StatW),
    .AddW(DepthW)
  ) u_stats (
    .clk_i,
    .rst_ni,
    .clear_i(clear_stats),
    .inc_i  (stat_inc_q),
    .add_i  (stat_add_q),
    .cnt_o  (stat)
  );

  // The Markov result is valid exactly in Wait (checked by an assertion,
  // which synthesis drops).
  logic unused_mk_valid;
  assign unused_mk_valid = mk_valid;

  // ------------------------------------------------------------- outputs
  assign res_valid_o = (state_q == StOut);
  assign res_phase_o = res_phase_q;
  assign res_pred_o = res_pred_q;
  assign res_depth_o = sig_depth;
  assign res_flags_o = res_flags_q;
  assign res_hash_o = sig_hash;

  localparam int unsigned MarkovLg = $clog2(MarkovEntries);
  logic [3:0] stat_idx;  // counter k is at DcrAddrRecords + k
  assign stat_idx = csr_addr_i - DcrAddrRecords;

  always_comb begin
    unique case (csr_addr_i)
      DcrAddrStatus:      csr_rdata_o = {16'd0, 8'(size), 5'd0, skip, busy, err_q};
      DcrAddrInterval:    csr_rdata_o = interval_q;
      DcrAddrParams:      csr_rdata_o = {16'(SigEntries), 8'(MarkovLg), 8'(Depth)};
      DcrAddrCmd:         csr_rdata_o = '0;
      default:         csr_rdata_o = stat[stat_idx];  // the counters
    endcase
  end

  // The Markov predictor answers exactly in the cycle after its update.
  `HWPROF_ASSERT(markov_answers_in_wait, mk_valid == (state_q == StWait))
  // A result holds while it waits (the result registers load only in Wait).
  `HWPROF_ASSERT(result_holds_until_taken, res_valid_o && !res_ready_i |=> res_valid_o && $stable(res_phase_o) &&
                 $stable(res_pred_o) && $stable(res_flags_o) && $stable(res_hash_o) && $stable(res_depth_o))


`ifdef FORMAL
  // ---------------------------------------------------------------------
  // Formal properties (make formal: formal/dcr.sby with the harness
  // formal/hwprof_dcr_tracker_fv.sv, which resets the design in its first
  // cycle; docs/verification.md). Immediate assertions only; no effect on
  // simulation or synthesis. Stack invariants that make these inductive are
  // in hwprof_dcr_stack under `ifdef FORMAL.
  //
  // Depth: a reference size f_size (CMD restart: 0; a committed record:
  // size - pops + push) equals the stack size, which never exceeds Depth; a
  // record pops at most the entries there are; a push finds room after its
  // pops; an overflow is exactly a push refused by a full stack (it pushes
  // nothing and happens only outside skip mode); only calls and backward
  // br/jmp push or overflow, calls never pop. PUSHES, POPS and OVERFLOWS
  // equal reference counters of those outcomes (since reset or
  // clear_stats, saturating).
  // Skip mode: a reference f_skip (restart: off; entered by an overflow or
  // a recursion; left by a resync only) equals STATUS.skip; in skip mode
  // nothing is pushed or popped until a return resyncs, which needs skip
  // mode and a return, and pops at least the matched entry (the depth
  // returns to that entry's).
  logic [DepthW-1:0] f_size_q;
  logic              f_skip_q;
  logic              f_pp_q, f_po_q;   // a push / an overflow to count
  logic [DepthW-1:0] f_pa_q;           // pops to count
  logic [StatW-1:0]  f_push_q, f_ovf_q, f_pops_q;
  logic              f_call, f_back, f_ret;
  assign f_call = (head_q.rec.kind == KindCall) || (head_q.rec.kind == KindIcall);
  assign f_ret  = (head_q.rec.kind == KindRet);
  assign f_back = head_q.backward;

  function automatic logic [StatW-1:0] f_sat(input logic [StatW-1:0] x, input logic [StatW-1:0] a);
    logic [StatW:0] s;
    s = {1'b0, x} + {1'b0, a};
    return s[StatW] ? '1 : s[StatW-1:0];
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_size_q <= '0;
      f_skip_q <= 1'b0;
      {f_pp_q, f_po_q, f_pa_q} <= '0;
      {f_push_q, f_ovf_q, f_pops_q} <= '0;
    end else begin
      if (restart) begin
        f_size_q <= '0;
        f_skip_q <= 1'b0;
      end else if (commit) begin
        f_size_q <= f_size_q - st_pops + DepthW'(st_push);
        if (st_ovf || st_rec) f_skip_q <= 1'b1;
        if (st_resync) f_skip_q <= 1'b0;
      end
      f_pp_q <= commit && st_push && !clear_stats;
      f_po_q <= commit && st_ovf && !clear_stats;
      f_pa_q <= (commit && !clear_stats) ? st_pops : '0;
      if (clear_stats) begin
        {f_push_q, f_ovf_q, f_pops_q} <= '0;
      end else begin
        f_push_q <= f_sat(f_push_q, StatW'(f_pp_q));
        f_ovf_q  <= f_sat(f_ovf_q, StatW'(f_po_q));
        f_pops_q <= f_sat(f_pops_q, StatW'(f_pa_q));
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      assert (size == f_size_q);
      assert (size <= DepthW'(Depth));
      assert (skip == f_skip_q);
      assert (stat[StatPushes] == f_push_q);
      assert (stat[StatOverflows] == f_ovf_q);
      assert (stat[StatPops] == f_pops_q);
      if (commit) begin
        assert (st_pops <= size);
        if (st_push) assert (size - st_pops < DepthW'(Depth) && !skip && (f_call || f_back));
        if (st_ovf) assert (!st_push && !skip && size - st_pops == DepthW'(Depth) && (f_call || f_back));
        if (f_call) assert (st_pops == '0);
        if (skip && !st_resync) assert (st_pops == '0 && !st_push && !st_ovf);
        if (st_resync) assert (skip && f_ret && st_pops != '0);
      end
    end
  end

  // Reachability (task cover): an overflow, a resync after it, a phase
  // change (a result whose phase differs from the one before), a result
  // flagged with an overflow.
  logic f_res_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_res_seen_q <= 1'b0;
    else if (res_valid_o && res_ready_i) f_res_seen_q <= 1'b1;
  end
  always_comb begin
    if (rst_ni) begin
      cover (commit && st_ovf);
      cover (commit && st_resync && f_ovf_q != '0);
      cover (res_valid_o && f_res_seen_q && res_flags_o[2]);
      cover (res_valid_o && res_flags_o[4]);
    end
  end
`endif

endmodule

`default_nettype wire
