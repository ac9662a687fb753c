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
// Stack operation of one record (all in the cycle it is accepted; i = 0 is
// the bottom, n = the stack size):
//   * call/icall: recursion when a live function entry has b == target: the
//     lowest such entry gets its recursion bit, skip mode is entered, nothing
//     is pushed. Else, in skip mode nothing happens; else a full stack
//     refuses the push (overflow: skip mode, the interval's overflow flag);
//     else a function entry {a = pc, b = target, ret = pc + ilen} is pushed.
//   * ret: in skip mode, the highest function entry at or below the lowest
//     entry with its recursion bit (every entry when none) whose return
//     address equals the target matches: it and everything above are popped
//     and skip mode ends (a resync); no match, nothing. In normal mode, the
//     stack is cut to the index of the highest function entry (the loops
//     above it and it are popped; everything when there is none).
//   * br/jmp/ijmp: nothing in skip mode. Else first the loop exits: the
//     loops on top whose [a, b] does not hold next are popped (the run from
//     the top: n' = 1 + the highest live entry that is a function or a loop
//     holding next). Then a taken backward br/jmp (target <= pc): the entry
//     at n'-1 is a loop with (a, b) = (target, pc): an iteration; else a
//     loop {a = target, b = pc} is pushed at n' (a full stack: overflow as
//     above).
//   * A pushed entry is unstable, its recursion bit clear, and its hash is
//     DcrStack::hash_step(hash of the entry below or EmptyHash, kind, a, b).
//
// Interval end (cycle behaviour; rec_ready_o is low from the edge that
// accepts the record ending the interval until the result is taken):
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
// Edge order (DcrTracker::step): an accepted record (stack, counters,
// interval count); the interval-end sequence; then a register write
// (STATUS W1C err; CMD restart / clear_table / clear_stats, obeyed only in
// Idle, else ignored with err; INTERVAL, 0 rejected with err, a legal value
// also restarts the interval count). In a cycle with a CMD or INTERVAL
// write rec_ready_o is low, so a command never meets a record.
//
// Registers (csr_addr_i; reads combinational from the state before the edge):
//   0 STATUS r/W1C: bit 0 err, bit 1 busy, bit 2 skip, bits 15:8 stack size.
//   1 CMD w (reads 0): bit 0 restart (empty stack, skip off, interval count
//     0), bit 1 clear_table (slots invalid, next id 0, uses 0, Markov
//     cleared, no previous phase), bit 2 clear_stats.
//   2 INTERVAL rw (reset IntervalReset): instructions per interval; a legal
//     write restarts the interval count.
//   3..14 RECORDS, INTERVALS, PUSHES, POPS, OVERFLOWS, RECURSIONS, RESYNCS,
//     NEW_PHASES, EVICTIONS, SCORED, CORRECT, STALL_CYCLES: 32-bit saturating.
//   15 PARAMS: {SigEntries[15:0], log2(MarkovEntries)[7:0], Depth[7:0]}.
//
// Storage: the stack in flip-flops (every entry is compared every cycle);
// the signature table's words {stamp, phase, hash} in an hwprof_sdp_ram (block RAM,
// no reset) with the valid bits in flip-flops (reset and clear in one
// cycle). Control state, stack size and counters reset asynchronously; the
// stack fields and the search trackers have no reset (qualified by the size
// and the state).
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
  /// It is taken this cycle: idle and no CMD or INTERVAL write in this cycle.
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

  initial begin
    if (Depth < 1 || Depth > 255) $fatal(1, "hwprof_dcr_tracker: Depth must be 1..255");
    if (SigEntries < 1 || SigEntries > 4096) $fatal(1, "hwprof_dcr_tracker: SigEntries must be 1..4096");
    if (MarkovEntries < 2 || (MarkovEntries & (MarkovEntries - 1)) != 0)
      $fatal(1, "hwprof_dcr_tracker: MarkovEntries must be a power of two >= 2");
    if (IntervalReset < 1) $fatal(1, "hwprof_dcr_tracker: IntervalReset must be >= 1");
  end

  localparam int unsigned SlotW = (SigEntries > 1) ? $clog2(SigEntries) : 1;
  localparam int unsigned StatW = 32;
  localparam logic [31:0] EmptyHash = 32'h811C_9DC5;
  localparam logic [31:0] FuncSalt = 32'h7F4A_7C15;
  localparam logic [31:0] LoopSalt = 32'h9E37_79B9;
  localparam logic KindFunc = 1'b0;
  localparam logic KindLoop = 1'b1;

  typedef enum logic [3:0] {
    AddrStatus      = 4'd0,
    AddrCmd         = 4'd1,
    AddrInterval    = 4'd2,
    AddrRecords     = 4'd3,
    AddrIntervals   = 4'd4,
    AddrPushes      = 4'd5,
    AddrPops        = 4'd6,
    AddrOverflows   = 4'd7,
    AddrRecursions  = 4'd8,
    AddrResyncs     = 4'd9,
    AddrNewPhases   = 4'd10,
    AddrEvictions   = 4'd11,
    AddrScored      = 4'd12,
    AddrCorrect     = 4'd13,
    AddrStallCycles = 4'd14,
    AddrParams      = 4'd15
  } csr_addr_e;

  typedef enum logic [2:0] {
    StIdle   = 3'd0,
    StSig    = 3'd1,
    StSearch = 3'd2,
    StUpdate = 3'd3,
    StWait   = 3'd4,
    StOut    = 3'd5
  } state_e;

  /// One signature table word.
  typedef struct packed {
    logic [31:0] stamp;
    logic [15:0] phase;
    logic [31:0] hash;
  } slot_t;
  localparam int unsigned SlotWordW = $bits(slot_t);

  function automatic logic [31:0] rotl(input logic [31:0] x, input int unsigned s);
    rotl = (x << s) | (x >> (32 - s));
  endfunction

  function automatic logic [31:0] hash_step(input logic [31:0] h, input logic kind, input logic [31:0] a,
                                            input logic [31:0] b);
    hash_step = (rotl(h, 5) ^ a) + (rotl(b, 16) ^ (kind == KindLoop ? LoopSalt : FuncSalt));
  endfunction

  function automatic logic [StatW-1:0] sat_add(input logic [StatW-1:0] c, input logic [StatW-1:0] d);
    logic [StatW:0] s;
    s = {1'b0, c} + {1'b0, d};
    sat_add = s[StatW] ? '1 : s[StatW-1:0];
  endfunction

  // ------------------------------------------------------------------ state
  state_e             state_q;
  logic [DepthW-1:0]  size_q;
  logic               skip_q, ovf_q;
  logic [Depth-1:0]   kind_q, stable_q, rec_q;     // per entry
  logic [31:0]        x_q    [Depth];              // loop start, or function return address
  logic [31:0]        b_q    [Depth];              // loop end, or call target
  logic [31:0]        hash_q [Depth];              // signature hash up to this entry
  logic [31:0]        interval_q;
  logic               err_q;
  // Snapshot of the interval end.
  logic [7:0]         sig_depth_q;
  logic [31:0]        sig_hash_q;
  logic               sig_rec_q, sig_ovf_q, sig_skip_q;
  // Search.
  logic [SlotW-1:0]   cmp_idx_q;                   // slot whose word is on the RAM output
  logic               hit_q, inv_q, lru_q;
  logic [SlotW-1:0]   hit_idx_q, inv_idx_q, lru_idx_q;
  logic [15:0]        hit_phase_q;
  logic [31:0]        lru_stamp_q;
  logic [SigEntries-1:0] valid_q;
  logic [15:0]        next_id_q;
  logic [31:0]        uses_q;
  // Update -> Wait.
  logic [15:0]        upd_phase_q;
  logic               upd_new_q, upd_evict_q;
  logic               have_prev_q;
  logic [15:0]        prev_phase_q;
  // Result.
  logic [15:0]        res_phase_q, res_pred_q;
  logic [7:0]         res_depth_q, res_flags_q;
  logic [31:0]        res_hash_q;
  // Counters.
  logic [StatW-1:0]   records_q, intervals_q, pushes_q, pops_q, overflows_q, recursions_q, resyncs_q,
                      new_phases_q, evictions_q, scored_q, correct_q, stall_q;

  // ----------------------------------------------------------- the record
  logic               cmd_write, ivl_write, accept, ivl_end;
  logic               is_call, is_ret, is_backward;
  logic [31:0]        next;
  logic [Depth-1:0]   live, is_func, func_b_hit, ret_hit, rec_below, keep;
  logic [DepthW-1:0]  n_call;     // call: the push index (= size)
  logic               rec_found;
  logic [DepthW-1:0]  rec_idx;
  logic               resync;
  logic [DepthW-1:0]  resync_idx;
  logic [DepthW-1:0]  top_func;   // normal return: the new size
  logic [DepthW-1:0]  n_exit;     // branch: the size after the loop exits
  logic               tos_iter;   // the entry at n_exit-1 is this loop
  // The outcome.
  logic [DepthW-1:0]  size_d;     // size after pops, before a push
  logic               do_push, do_ovf, do_rec, do_resync;
  logic               push_kind;
  logic [31:0]        push_a, push_x, push_b, push_below, push_hash;
  logic [DepthW-1:0]  pops;

  assign cmd_write = csr_we_i && (csr_addr_i == AddrCmd);
  assign ivl_write = csr_we_i && (csr_addr_i == AddrInterval);
  assign rec_ready_o = (state_q == StIdle) && !cmd_write && !ivl_write;
  assign accept = rec_valid_i && rec_ready_o;

  assign is_call = (rec_i.kind == KindCall) || (rec_i.kind == KindIcall);
  assign is_ret = (rec_i.kind == KindRet);
  assign is_backward = ((rec_i.kind == KindBr) || (rec_i.kind == KindJmp)) && rec_i.taken &&
                       (rec_i.target <= rec_i.pc);
  assign next = rec_i.taken ? rec_i.target : rec_i.pc + 32'(rec_i.ilen);
  assign n_call = size_q;

  always_comb begin
    logic below;
    for (int i = 0; i < Depth; i++) begin
      live[i] = DepthW'(i) < size_q;
      is_func[i] = live[i] && (kind_q[i] == KindFunc);
      func_b_hit[i] = is_func[i] && (b_q[i] == rec_i.target);
      ret_hit[i] = is_func[i] && (x_q[i] == rec_i.target);
      // A function entry, or a loop that holds next.
      keep[i] = live[i] && ((kind_q[i] == KindFunc) || (next >= x_q[i] && next <= b_q[i]));
    end
    // rec_below[i]: an entry below i has its recursion bit.
    below = 1'b0;
    for (int i = 0; i < Depth; i++) begin
      rec_below[i] = below;
      below = below || (live[i] && rec_q[i]);
    end
    // Recursion: the lowest function entry with b == target.
    rec_found = 1'b0;
    rec_idx = '0;
    for (int i = Depth - 1; i >= 0; i--) begin
      if (func_b_hit[i]) begin
        rec_found = 1'b1;
        rec_idx = DepthW'(i);
      end
    end
    // Resync: the highest matching function entry at or below the boundary.
    resync = 1'b0;
    resync_idx = '0;
    for (int i = 0; i < Depth; i++) begin
      if (ret_hit[i] && !rec_below[i]) begin
        resync = 1'b1;
        resync_idx = DepthW'(i);
      end
    end
    // Normal return: cut at the highest function entry.
    top_func = '0;
    for (int i = 0; i < Depth; i++) if (is_func[i]) top_func = DepthW'(i);
    // Loop exits: 1 + the highest entry kept.
    n_exit = '0;
    for (int i = 0; i < Depth; i++) if (keep[i]) n_exit = DepthW'(i + 1);
  end

  // The entry below the push point / on top after the exits.
  always_comb begin
    tos_iter = 1'b0;
    push_below = EmptyHash;
    for (int i = 0; i < Depth; i++) begin
      if (is_call && DepthW'(i + 1) == n_call) push_below = hash_q[i];
      if (!is_call && DepthW'(i + 1) == n_exit) begin
        push_below = hash_q[i];
        tos_iter = (kind_q[i] == KindLoop) && (x_q[i] == rec_i.target) && (b_q[i] == rec_i.pc);
      end
    end
  end

  always_comb begin
    size_d = size_q;
    do_push = 1'b0;
    do_ovf = 1'b0;
    do_rec = 1'b0;
    do_resync = 1'b0;
    push_kind = KindFunc;
    push_a = rec_i.pc;
    push_x = rec_i.pc + 32'(rec_i.ilen);
    push_b = rec_i.target;
    if (is_call) begin
      if (rec_found) do_rec = 1'b1;
      else if (!skip_q) begin
        if (size_q == DepthW'(Depth)) do_ovf = 1'b1;
        else do_push = 1'b1;
      end
    end else if (is_ret) begin
      if (skip_q) begin
        if (resync) begin
          do_resync = 1'b1;
          size_d = resync_idx;
        end
      end else begin
        size_d = top_func;
      end
    end else if (!skip_q) begin
      size_d = n_exit;
      push_kind = KindLoop;
      push_a = rec_i.target;
      push_x = rec_i.target;
      push_b = rec_i.pc;
      if (is_backward && !tos_iter) begin
        if (n_exit == DepthW'(Depth)) do_ovf = 1'b1;
        else do_push = 1'b1;
      end
    end
  end

  assign push_hash = hash_step(push_below, push_kind, push_a, push_b);
  assign pops = size_q - size_d;

  hwprof_interval_counter #(
    .IntervalW(32),
    .InsnsW   (InsnsW)
  ) u_interval (
    .clk_i,
    .rst_ni,
    .interval_i(interval_q),
    // CMD.restart, or a legal INTERVAL write (docs/phase.md).
    .restart_i ((cmd_write && (state_q == StIdle) && csr_wdata_i[0]) || (ivl_write && (csr_wdata_i != '0))),
    .step_i    (accept),
    .insns_i   (rec_i.insns),
    .end_o     (ivl_end)
  );

  // The record's events are not used by the tracker.
  logic [EventsW-1:0] unused_events;
  assign unused_events = rec_i.events;

  // ------------------------------------------------------------ snapshot
  logic [7:0]  snap_depth;
  logic [31:0] snap_hash;
  logic        snap_rec;

  always_comb begin
    logic run;
    run = 1'b1;
    snap_depth = '0;
    snap_hash = EmptyHash;
    snap_rec = 1'b0;
    for (int i = 0; i < Depth; i++) begin
      run = run && live[i] && stable_q[i];
      if (run) begin
        snap_depth = 8'(i + 1);
        snap_hash = hash_q[i];
      end
      snap_rec = snap_rec || (live[i] && rec_q[i]);
    end
  end

  // ------------------------------------------------------ signature table
  logic              ram_re;
  logic [SlotW-1:0]  ram_raddr, ram_waddr;
  logic [1:0]        ram_we;
  slot_t             ram_wdata, ram_rdata;
  logic [SlotWordW-1:0] ram_rdata_raw;
  logic [SlotW-1:0]  upd_slot;
  logic              upd_hit;
  logic [15:0]       upd_phase;
  logic              cmp_valid, cmp_hit, last_cmp;

  assign ram_re = (state_q == StSig) || (state_q == StSearch);
  assign ram_raddr = (state_q == StSig) ? '0 : cmp_idx_q + SlotW'(1);
  assign ram_rdata = slot_t'(ram_rdata_raw);
  assign cmp_valid = valid_q[cmp_idx_q];
  assign cmp_hit = cmp_valid && (ram_rdata.hash == sig_hash_q);
  assign last_cmp = (32'(cmp_idx_q) == SigEntries - 1);

  assign upd_hit = hit_q;
  assign upd_slot = hit_q ? hit_idx_q : (inv_q ? inv_idx_q : lru_idx_q);
  assign upd_phase = hit_q ? hit_phase_q : next_id_q;
  assign ram_we = {2{state_q == StUpdate}};
  assign ram_waddr = upd_slot;
  assign ram_wdata = '{stamp: uses_q, phase: upd_phase, hash: sig_hash_q};

  hwprof_sdp_ram #(
    .Depth(SigEntries),
    .Width(SlotWordW),
    .LoW  (48)
  ) u_table (
    .clk_i,
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata_raw)
  );

  // ---------------------------------------------------------------- Markov
  logic        mk_valid, mk_scored, mk_correct;
  logic [15:0] mk_pred;
  logic        clear_table;

  assign clear_table = cmd_write && (state_q == StIdle) && csr_wdata_i[1];

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
      size_q <= '0;
      skip_q <= 1'b0;
      ovf_q <= 1'b0;
      valid_q <= '0;
      next_id_q <= '0;
      uses_q <= '0;
      have_prev_q <= 1'b0;
      prev_phase_q <= '0;
      interval_q <= IntervalReset;
      err_q <= 1'b0;
    end else begin
      // 1. An accepted record.
      if (accept) begin
        size_q <= do_push ? size_d + DepthW'(1) : size_d;
        if (do_rec || do_ovf) skip_q <= 1'b1;
        if (do_resync) skip_q <= 1'b0;
        if (do_ovf) ovf_q <= 1'b1;
        if (ivl_end) state_q <= StSig;
      end
      // 2. The interval-end sequence.
      unique case (state_q)
        StIdle: ;
        StSig: begin
          ovf_q <= 1'b0;
          state_q <= StSearch;
        end
        StSearch: if (last_cmp) state_q <= StUpdate;
        StUpdate: begin
          if (!upd_hit) next_id_q <= next_id_q + 16'd1;
          uses_q <= uses_q + 32'd1;
          valid_q[upd_slot] <= 1'b1;
          state_q <= StWait;
        end
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
          AddrStatus: if (csr_wdata_i[0]) err_q <= 1'b0;
          AddrCmd: begin
            if (state_q != StIdle) begin
              if (|csr_wdata_i[2:0]) err_q <= 1'b1;
            end else begin
              if (csr_wdata_i[0]) begin
                size_q <= '0;
                skip_q <= 1'b0;
                ovf_q <= 1'b0;
              end
              if (csr_wdata_i[1]) begin
                valid_q <= '0;
                next_id_q <= '0;
                uses_q <= '0;
                have_prev_q <= 1'b0;
              end
            end
          end
          AddrInterval: begin
            if (csr_wdata_i == '0) err_q <= 1'b1;
            else interval_q <= csr_wdata_i;
          end
          default: ;
        endcase
      end
    end
  end

  // Stack fields (no reset: qualified by size_q).
  always_ff @(posedge clk_i) begin
    if (accept && do_push) begin
      for (int i = 0; i < Depth; i++) begin
        if (DepthW'(i) == size_d) begin
          kind_q[i] <= push_kind;
          x_q[i] <= push_x;
          b_q[i] <= push_b;
          hash_q[i] <= push_hash;
        end
      end
    end
  end

  // Stable and recursion bits (reset: cleared).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stable_q <= '0;
      rec_q <= '0;
    end else begin
      if (accept && do_rec) begin
        for (int i = 0; i < Depth; i++) if (DepthW'(i) == rec_idx) rec_q[i] <= 1'b1;
      end
      if (accept && do_push) begin
        for (int i = 0; i < Depth; i++) begin
          if (DepthW'(i) == size_d) begin
            stable_q[i] <= 1'b0;
            rec_q[i] <= 1'b0;
          end
        end
      end
      if (state_q == StSig) stable_q <= '1;
    end
  end

  // Snapshot, search trackers, Update -> Wait registers, result (no reset:
  // qualified by the state).
  always_ff @(posedge clk_i) begin
    if (state_q == StSig) begin
      sig_depth_q <= snap_depth;
      sig_hash_q <= snap_hash;
      sig_rec_q <= snap_rec;
      sig_ovf_q <= ovf_q;
      sig_skip_q <= skip_q;
      cmp_idx_q <= '0;
      hit_q <= 1'b0;
      inv_q <= 1'b0;
      lru_q <= 1'b0;
    end
    if (state_q == StSearch) begin
      cmp_idx_q <= cmp_idx_q + SlotW'(1);
      if (!cmp_valid) begin
        if (!inv_q) begin
          inv_q <= 1'b1;
          inv_idx_q <= cmp_idx_q;
        end
      end else begin
        if (cmp_hit && !hit_q) begin
          hit_q <= 1'b1;
          hit_idx_q <= cmp_idx_q;
          hit_phase_q <= ram_rdata.phase;
        end
        if (!lru_q || ram_rdata.stamp < lru_stamp_q) begin
          lru_q <= 1'b1;
          lru_idx_q <= cmp_idx_q;
          lru_stamp_q <= ram_rdata.stamp;
        end
      end
    end
    if (state_q == StUpdate) begin
      upd_phase_q <= upd_phase;
      upd_new_q <= !upd_hit;
      upd_evict_q <= !upd_hit && !inv_q;
    end
    if (state_q == StWait) begin
      res_phase_q <= upd_phase_q;
      res_pred_q <= mk_pred;
      res_depth_q <= sig_depth_q;
      res_hash_q <= sig_hash_q;
      res_flags_q <= {mk_correct, mk_scored, sig_skip_q, sig_ovf_q, sig_rec_q,
                      !have_prev_q || (prev_phase_q != upd_phase_q), upd_evict_q, upd_new_q};
    end
  end

  // -------------------------------------------------------------- counters
  logic clear_stats;
  assign clear_stats = cmd_write && (state_q == StIdle) && csr_wdata_i[2];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      records_q <= '0;
      intervals_q <= '0;
      pushes_q <= '0;
      pops_q <= '0;
      overflows_q <= '0;
      recursions_q <= '0;
      resyncs_q <= '0;
      new_phases_q <= '0;
      evictions_q <= '0;
      scored_q <= '0;
      correct_q <= '0;
      stall_q <= '0;
    end else if (clear_stats) begin
      records_q <= '0;
      intervals_q <= '0;
      pushes_q <= '0;
      pops_q <= '0;
      overflows_q <= '0;
      recursions_q <= '0;
      resyncs_q <= '0;
      new_phases_q <= '0;
      evictions_q <= '0;
      scored_q <= '0;
      correct_q <= '0;
      stall_q <= '0;
    end else begin
      if (accept) begin
        records_q <= sat_add(records_q, 32'd1);
        pushes_q <= sat_add(pushes_q, 32'(do_push));
        pops_q <= sat_add(pops_q, 32'(pops));
        overflows_q <= sat_add(overflows_q, 32'(do_ovf));
        recursions_q <= sat_add(recursions_q, 32'(do_rec));
        resyncs_q <= sat_add(resyncs_q, 32'(do_resync));
      end
      if (rec_valid_i && !rec_ready_o) stall_q <= sat_add(stall_q, 32'd1);
      if (state_q == StWait) begin
        intervals_q <= sat_add(intervals_q, 32'd1);
        new_phases_q <= sat_add(new_phases_q, 32'(upd_new_q));
        evictions_q <= sat_add(evictions_q, 32'(upd_evict_q));
        scored_q <= sat_add(scored_q, 32'(mk_scored));
        correct_q <= sat_add(correct_q, 32'(mk_correct));
      end
    end
  end

  // The Markov result is valid exactly in Wait (checked by an assertion,
  // which synthesis drops).
  logic unused_mk_valid;
  assign unused_mk_valid = mk_valid;

  // ------------------------------------------------------------- outputs
  assign res_valid_o = (state_q == StOut);
  assign res_phase_o = res_phase_q;
  assign res_pred_o = res_pred_q;
  assign res_depth_o = res_depth_q;
  assign res_flags_o = res_flags_q;
  assign res_hash_o = res_hash_q;

  localparam int unsigned MarkovLg = $clog2(MarkovEntries);

  always_comb begin
    unique case (csr_addr_i)
      AddrStatus:      csr_rdata_o = {16'd0, 8'(size_q), 5'd0, skip_q, state_q != StIdle, err_q};
      AddrCmd:         csr_rdata_o = '0;
      AddrInterval:    csr_rdata_o = interval_q;
      AddrRecords:     csr_rdata_o = records_q;
      AddrIntervals:   csr_rdata_o = intervals_q;
      AddrPushes:      csr_rdata_o = pushes_q;
      AddrPops:        csr_rdata_o = pops_q;
      AddrOverflows:   csr_rdata_o = overflows_q;
      AddrRecursions:  csr_rdata_o = recursions_q;
      AddrResyncs:     csr_rdata_o = resyncs_q;
      AddrNewPhases:   csr_rdata_o = new_phases_q;
      AddrEvictions:   csr_rdata_o = evictions_q;
      AddrScored:      csr_rdata_o = scored_q;
      AddrCorrect:     csr_rdata_o = correct_q;
      AddrStallCycles: csr_rdata_o = stall_q;
      AddrParams:      csr_rdata_o = {16'(SigEntries), 8'(MarkovLg), 8'(Depth)};
      default:         csr_rdata_o = '0;
    endcase
  end

  // The Markov predictor answers exactly in the cycle after its update.
  `HWPROF_ASSERT(MarkovAnswersInWait, mk_valid == (state_q == StWait))
  // A result holds while it waits (the result registers load only in Wait).
  `HWPROF_ASSERT(ResultHoldsUntilTaken, res_valid_o && !res_ready_i |=> res_valid_o && $stable(res_phase_o) &&
                 $stable(res_pred_o) && $stable(res_flags_o) && $stable(res_hash_o) && $stable(res_depth_o))
  // The stack never grows past Depth.
  `HWPROF_ASSERT(StackWithinDepth, size_q <= DepthW'(Depth))

endmodule

`default_nettype wire
