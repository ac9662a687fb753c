/// hwprof_dcr_stack: the call/loop stack of the DCR phase tracker (docs/dcr.md
/// "Stack"; paper 003, spec section 5), one of the two machines of
/// hwprof_dcr_tracker (the other is hwprof_dcr_sigtable). Functional model:
/// DcrStack (sim_models/phase/dcr_algo.h); scan timing: dcr_scan_cycles()
/// (sim_models/phase/dcr_tracker.h).
///
/// Stack operation of one record (i = 0 is the bottom, n = the stack size):
///   * call/icall: recursion when a live function entry has b == target: the
///     lowest such entry gets its recursion bit, skip mode is entered, nothing
///     is pushed. Else, in skip mode nothing happens; else a full stack
///     refuses the push (overflow: skip mode, the overflow flag); else a
///     function entry {a = pc, b = target, ilen} is pushed.
///   * ret: in skip mode, the highest function entry at or below the lowest
///     entry with its recursion bit (every entry when none) whose return
///     address a + ilen equals the target matches: it and everything above
///     are popped and skip mode ends (a resync); no match, nothing. In normal
///     mode, the stack is cut to the index of the highest function entry
///     (the loops above it and it are popped; everything when there is none).
///   * br/jmp/ijmp: nothing in skip mode. Else first the loop exits: the
///     loops on top whose [a, b] does not hold next are popped, down to the
///     entry m left on top (a function or a loop holding next). Then a taken
///     backward br/jmp (target <= pc): entry m is a loop with (a, b) =
///     (target, pc): an iteration; else a loop {a = target, b = pc} is pushed
///     at m + 1 (a full stack: overflow as above).
///   * A pushed entry is unstable, its recursion bit clear, and its hash is
///     DcrStack::hash_step(hash of the entry below or EmptyHash, kind, a, b).
/// Tie-breaks: recursion takes the lowest matching entry, resync the highest
/// candidate, a normal return the highest function entry.
///
/// Storage (docs/dcr.md "Stack scans"): the entries {a, b, ilen, hash} in two
/// copies of an hwprof_ram_2p (both written at a push, each with its own read
/// port); in flip-flops only what a single cycle must see: the size (and its
/// thermometer code live_q), skip mode, the overflow flag, per entry the
/// kind, stable and recursion bits and 8-bit tags of b and of the return
/// address (tag(): the four bytes XORed), and a cache of the top two entries
/// (TOS, NOS). Both RAM ports read every idle cycle at addresses that depend
/// on the record's kind and the state only (a normal return: the two entries
/// under the highest function entry; a branch: n-3 and n-4, or the two under
/// the scanned entry; a call / skip return: the next candidate; the resync
/// cycle: the two under the match). The outcome then only chooses, at the
/// edge, whether the next cycle's TOS / NOS are the cache registers or a RAM
/// output (tos_sel_q / nos_sel_q); the next edge copies them into the cache.
/// So a record right after a pop needs no wait.
///
/// Scans (the record waits: done_o low; each scan cycle reads one entry on
/// port A and compares it in the next cycle):
///   * call: the function entries whose b tag equals the target's tag, from
///     the bottom, until one has b == target;
///   * ret in skip mode: the function entries at or below the boundary whose
///     return-address tag equals the target's tag, from the top, until one
///     returns to the target; a match takes one more cycle (the resync
///     cycle, which reads the two entries under it);
///   * br/jmp/ijmp: the loop exits below the cached two entries: entry j <=
///     n-3 is read when it is a loop, or when it is the function left on top
///     and the branch is backward (its hash is the pushed entry's base).
/// A scan cycle is a cycle with rec_valid_i and not hold_i; hold_i freezes
/// the scan (no read, the RAM output holds); !rec_valid_i or restart_i
/// abandons it. done_o, the outcome and the commit are combinational in the
/// cycle the scan ends; the record commits when rec_valid_i && !hold_i &&
/// done_o (the tracker's accept).
///
/// Interval end (snap_i, one cycle; the tracker holds hold_i from then until
/// it is idle again): the snapshot registers load the maximal run of live
/// stable entries from the bottom (sig_depth_o), whether any live entry has
/// its recursion bit, the overflow flag and skip mode; port A reads the
/// run's top entry, whose prefix hash is sig_hash_o from the next cycle on
/// (EmptyHash for an empty run; the RAM output holds while hold_i). At the
/// same edge every stable bit is set and the overflow flag cleared.
///
/// Priority at one edge: restart_i (empty stack, skip off, overflow flag
/// clear), then snap_i, then a commit. The tracker never raises two of them
/// in one cycle (hold_i is high with restart_i and snap_i).
///
/// Timing: the tracker's input buffer hands the record over registered and
/// pre-decoded (next_i, backward_i, ttag_i, rtag_i). The per-entry kind bits,
/// tags, stable and recursion bits are written at index size_cut in every
/// step (rec_valid_i and not hold_i), not only at a push: a commit without a
/// push leaves that entry dead, a step without a commit has size_cut =
/// size_q (assertion no_cut_without_commit), so the outcome stays off those
/// enables. The kind bits of the scanned entry and the one under it are
/// registered with scan_idx_q (ram_func_q, below_func_q). The containment
/// and iteration compares run on every source of the cached entries (port A,
/// port B, tos_q, nos_q) and tos_sel_q / nos_sel_q select their results. The
/// thermometer codes of every size a record may cut to are precomputed from
/// registers (th_*); the outcome selects one (live_cut), from which live_d
/// and the one-hot write select at_cut follow without a compare. The tag
/// matches of the call / skip-return scans (mcall_q, mret_q) are registered
/// when the record enters the tracker's head, against the entries as they
/// are after that edge (the entry written in that step forwarded from the
/// committing record's tags), so the tag compares are off the RAM read
/// address path. None of this changes a cycle.
///
/// Reset: size, skip, the overflow flag, the stable / recursion bits and the
/// scan / source flags reset asynchronously; the kind bits, tags, cached
/// entries, scan registers, RAMs and the snapshot have no reset (qualified
/// by the size, the flags and the tracker's state).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_dcr_stack #(
  /// Stack entries (1..255).
  parameter int unsigned Depth = 32,
  /// Width of the stack size.
  localparam int unsigned DepthW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic                     clk_i,
  /// Asynchronous active-low reset: empty stack, skip off, flags clear.
  input  wire logic                     rst_ni,
  // Records.
  /// A record is offered (held until taken).
  input  wire logic                     rec_valid_i,
  /// No scan cycle and no commit in this cycle (the tracker is busy, or a
  /// CMD / INTERVAL write).
  input  wire logic                     hold_i,
  /// The tracker is in its interval-end sequence (no RAM read but snap_i's:
  /// the snapshot's hash stays on port A).
  input  wire logic                     busy_i,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t  rec_i,
  // Pre-decoded from rec_i (registered with it by the tracker's input
  // buffer, so that no adder or magnitude compare of the record lies on the
  // outcome paths).
  /// next = taken ? target : pc + ilen.
  input  wire logic [31:0]              next_i,
  /// A taken br/jmp with target <= pc.
  input  wire logic                     backward_i,
  /// tag(target).
  input  wire logic [7:0]               ttag_i,
  /// tag(pc + ilen): the return address's tag.
  input  wire logic [7:0]               rtag_i,
  /// The buffer loads its head at this edge (the record after rec_i, or the
  /// first one): the tag matches below are computed for it.
  input  wire logic                     ld_i,
  /// tag(target) of the record loaded at this edge (when ld_i).
  input  wire logic [7:0]               ld_ttag_i,
  /// The record's scan is over: it commits at this edge when rec_valid_i and
  /// not hold_i.
  output logic                          done_o,
  // Outcome of rec_i (combinational; counted by the tracker at the commit).
  /// An entry is pushed.
  output logic                          push_o,
  /// Entries popped.
  output logic [DepthW-1:0]             pops_o,
  /// A push is refused (the stack is full).
  output logic                          overflow_o,
  /// A recursion is detected.
  output logic                          recursion_o,
  /// A return matched in skip mode (skip mode ends).
  output logic                          resync_o,
  // Control.
  /// Empty the stack, leave skip mode, clear the overflow flag, abandon a
  /// scan.
  input  wire logic                     restart_i,
  /// Interval end: load the snapshot, set every stable bit, clear the
  /// overflow flag.
  input  wire logic                     snap_i,
  // State (registered).
  /// Stack size.
  output logic [DepthW-1:0]             size_o,
  /// Skip mode.
  output logic                          skip_o,
  // Snapshot of the last snap_i (valid from the next cycle while hold_i).
  /// Signature depth: the run of live stable entries from the bottom.
  output logic [7:0]                    sig_depth_o,
  /// Signature hash: the prefix hash of the run's top entry.
  output logic [31:0]                   sig_hash_o,
  /// A live entry had its recursion bit.
  output logic                          sig_rec_o,
  /// A push was refused in the interval.
  output logic                          sig_ovf_o,
  /// Skip mode was on.
  output logic                          sig_skip_o
);

  import hwprof_pkg::*;

  initial begin
    if (Depth < 1 || Depth > 255) $fatal(1, "hwprof_dcr_stack: Depth must be 1..255");
  end

  localparam logic [31:0] EmptyHash = 32'h811C_9DC5;
  localparam logic [31:0] FuncSalt = 32'h7F4A_7C15;
  localparam logic [31:0] LoopSalt = 32'h9E37_79B9;
  localparam int unsigned IdxW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned TagW = 8;

  /// One stack entry in RAM. Function: a = call pc, b = call target, ilen =
  /// the call's length; loop: a = loop start, b = loop end, ilen = 0.
  typedef struct packed {
    logic [31:0] hash;
    logic [3:0]  ilen;
    logic [31:0] b;
    logic [31:0] a;
  } entry_t;
  localparam int unsigned EntryW = $bits(entry_t);

  function automatic logic [31:0] rotl(input logic [31:0] x, input int unsigned s);
    rotl = (x << s) | (x >> (32 - s));
  endfunction

  function automatic logic [31:0] hash_step(input logic [31:0] h, input logic func, input logic [31:0] a,
                                            input logic [31:0] b);
    hash_step = (rotl(h, 5) ^ a) + (rotl(b, 16) ^ (func ? FuncSalt : LoopSalt));
  endfunction

  // ------------------------------------------------------------------ state
  logic [DepthW-1:0]  size_q, size_d;
  logic               skip_q, skip_d, ovf_q, ovf_d;
  logic [Depth-1:0]   func_q, stable_q, rec_q;     // per entry (kind: 1 = function)
  logic [TagW-1:0]    btag_q [Depth];              // tag of b (function entries)
  logic [TagW-1:0]    rtag_q [Depth];              // tag of a + ilen (function entries)
  entry_t             tos_q, tos_d, nos_q, nos_d;  // entries n-1 and n-2 (no reset)
  // Where the cached entries are this cycle: tos_q or port A; nos_q, port A
  // or port B (the reads issued at the last edge).
  typedef enum logic [1:0] {SelQ = 2'd0, SelA = 2'd1, SelB = 2'd2} sel_e;
  sel_e               tos_sel_q, tos_sel_d, nos_sel_q, nos_sel_d;
  logic               scan_q, scan_d;              // a scan is under way
  logic               rsync_q, rsync_d;            // a skip return matched: the resync cycle
  logic [IdxW-1:0]    scan_idx_q, scan_idx_d;      // entry on port A's output
  logic [Depth-1:0]   rem_q, rem_d;                // candidates not yet read

  // ------------------------------------------------------------ the RAMs
  logic               ram_we, ram_re;
  logic [IdxW-1:0]    waddr, raddr_a, raddr_b;
  entry_t             wentry, rdata_a, rdata_b;
  logic [EntryW-1:0]  rdata_a_raw, rdata_b_raw;

  hwprof_ram_2p #(
    .Depth(Depth),
    .Width(EntryW),
    .GranW(EntryW)
  ) u_ram_a (
    .clk_i,
    .wmask_i(ram_we),
    .waddr_i(waddr),
    .wdata_i(wentry),
    .re_i   (ram_re),
    .raddr_i(raddr_a),
    .rdata_o(rdata_a_raw)
  );

  hwprof_ram_2p #(
    .Depth(Depth),
    .Width(EntryW),
    .GranW(EntryW)
  ) u_ram_b (
    .clk_i,
    .wmask_i(ram_we),
    .waddr_i(waddr),
    .wdata_i(wentry),
    .re_i   (ram_re),
    .raddr_i(raddr_b),
    .rdata_o(rdata_b_raw)
  );

  assign rdata_a = entry_t'(rdata_a_raw);
  assign rdata_b = entry_t'(rdata_b_raw);

  // The top two entries as this cycle sees them.
  entry_t tos, nos;
  assign tos = (tos_sel_q == SelA) ? rdata_a : tos_q;
  assign nos = (nos_sel_q == SelA) ? rdata_a : (nos_sel_q == SelB) ? rdata_b : nos_q;

  // ----------------------------------------------------------- the record
  logic               is_call, is_ret, is_backward, step, commit, first;
  logic [31:0]        next;
  logic [TagW-1:0]    ttag;
  logic [Depth-1:0]   live, fl, cand_call, cand_ret, at_or_below, vec_low, vec_high;
  // Per entry: tag(b) / tag(a + ilen) equals the record's tag(target),
  // computed when the record enters the head (ld_i) against the entries as
  // they are after that edge (the entry written at size_cut in this step is
  // forwarded from rec_i's tags). Entries written later while the record
  // waits are dead (a step that does not commit writes entry size_q), so the
  // bits stay right for every live entry.
  logic [Depth-1:0]   mcall_q, mret_q;

  assign is_call = (rec_i.kind == KindCall) || (rec_i.kind == KindIcall);
  assign is_ret = (rec_i.kind == KindRet);
  assign is_backward = backward_i;
  assign next = next_i;
  assign ttag = ttag_i;
  assign step = rec_valid_i && !hold_i;
  assign commit = step && done_o;
  assign first = !scan_q;

  // Priority picks (hwprof_lzc): the highest live function entry (a normal
  // return),
  // the lowest / highest candidate left (call / skip-return scans), the
  // first entry that is not live and stable (the snapshot's run).
  logic               tf_valid, low_valid, high_valid, run_valid;
  logic [IdxW-1:0]    tf_idx, low_idx, high_idx, run_idx;

  // live_q: the thermometer code of size_q (a register, so that no compare
  // with the size lies on the scan paths).
  logic [Depth-1:0]   live_q, live_d, lrec;
  assign live = live_q;
  assign lrec = live_q & rec_q;

  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      fl[i] = live[i] && func_q[i];
      cand_call[i] = fl[i] && mcall_q[i];
      // At or below the lowest live recursion bit: none below i.
      at_or_below[i] = 1'b1;
      for (int j = 0; j < i; j++) if (lrec[j]) at_or_below[i] = 1'b0;
      cand_ret[i] = fl[i] && at_or_below[i] && mret_q[i];
    end
  end

  assign vec_low = first ? cand_call : rem_q;
  assign vec_high = first ? cand_ret : rem_q;

  hwprof_lzc #(.N(Depth), .HighFirst(1)) u_lzc_tf (.in_i(fl), .idx_o(tf_idx), .valid_o(tf_valid));
  hwprof_lzc #(.N(Depth), .HighFirst(0)) u_lzc_low (.in_i(vec_low), .idx_o(low_idx), .valid_o(low_valid));
  hwprof_lzc #(.N(Depth), .HighFirst(1)) u_lzc_high (.in_i(vec_high), .idx_o(high_idx), .valid_o(high_valid));
  hwprof_lzc #(.N(Depth), .HighFirst(0)) u_lzc_run (.in_i(~(live & stable_q)), .idx_o(run_idx),
                                                    .valid_o(run_valid));
  // The same picks one and two entries lower, for the read addresses (no
  // subtracter after a priority encoder): tf_m1_idx = tf_idx - 1, tf_m2_idx
  // = tf_idx - 2, run_m1_idx = run_idx - 1 whenever those are entries
  // (otherwise the read is not looked at).
  logic               tf_m1_valid, tf_m2_valid, run_m1_valid;
  logic [IdxW-1:0]    tf_m1_idx, tf_m2_idx, run_m1_idx;
  logic [Depth-1:0]   nrun;
  assign nrun = ~(live & stable_q);
  hwprof_lzc #(.N(Depth), .HighFirst(1)) u_lzc_tf_m1 (.in_i(fl >> 1), .idx_o(tf_m1_idx), .valid_o(tf_m1_valid));
  hwprof_lzc #(.N(Depth), .HighFirst(1)) u_lzc_tf_m2 (.in_i(fl >> 2), .idx_o(tf_m2_idx), .valid_o(tf_m2_valid));
  hwprof_lzc #(.N(Depth), .HighFirst(0)) u_lzc_run_m1 (.in_i(nrun >> 1), .idx_o(run_m1_idx),
                                                       .valid_o(run_m1_valid));

  // Sizes and indices from the state alone (the outcome only selects).
  logic [DepthW-1:0]  n_m1, n_m2, sidx, tf_size;
  logic [IdxW-1:0]    sidx_m1;  // a read address / scan index only
  logic [IdxW-1:0]    n_m3, n_m4, sidx_m2;  // read addresses only
  logic               full, n_ge3;
  assign n_m1 = size_q - DepthW'(1);
  assign n_m2 = size_q - DepthW'(2);
  assign n_m3 = IdxW'(size_q - DepthW'(3));
  assign n_m4 = IdxW'(size_q - DepthW'(4));
  assign sidx = DepthW'(scan_idx_q);
  assign sidx_m1 = IdxW'(sidx - DepthW'(1));
  assign sidx_m2 = IdxW'(sidx - DepthW'(2));
  assign tf_size = tf_valid ? DepthW'(tf_idx) : '0;
  assign full = (size_q == DepthW'(Depth));
  assign n_ge3 = (size_q >= DepthW'(3));

  // The kind bits of the cached entries, of the entry on port A and of the
  // entry below it (the last two registered with scan_idx_q: no entry at or
  // below a scanned one changes while the scan runs, and a step's write of
  // the kind bits goes to size_cut = size_q above it).
  logic               tos_func, nos_func, ram_func, below_func, n3_func;
  logic               ram_func_q, below_func_q;
  logic [Depth-1:0]   top1;  // one-hot: entry n-1
  always_comb begin
    for (int i = 0; i < Depth; i++) top1[i] = live_q[i] && ((i == Depth - 1) || !live_q[(i + 1) % Depth]);
    tos_func = |(top1 & func_q);
    nos_func = |((top1 >> 1) & func_q);
    n3_func = |((top1 >> 2) & func_q);
  end
  assign ram_func = ram_func_q;
  assign below_func = below_func_q;

  // Compares, all in parallel: the entry on port A for the call and return
  // scans; loop containment of next and the iteration match for the three
  // entries a branch may leave on top.
  function automatic logic holds(input logic [31:0] a, input logic [31:0] b, input logic [31:0] x);
    holds = (x >= a) && (x <= b);
  endfunction

  logic               call_match, ret_match;
  logic               keep_tos, keep_nos, keep_ram, iter_tos, iter_nos, iter_ram;
  assign call_match = (rdata_a.b == rec_i.target);
  assign ret_match = (rdata_a.a + 32'(rdata_a.ilen) == rec_i.target);
  // Containment and iteration compares on every source of the cached
  // entries (port A, port B, the cache registers), selected afterwards by
  // tos_sel_q / nos_sel_q: the select is off the compares' inputs.
  logic               hold_a, hold_b, hold_tq, hold_nq, it_a, it_b, it_tq, it_nq;
  assign hold_a = holds(rdata_a.a, rdata_a.b, next);
  assign hold_b = holds(rdata_b.a, rdata_b.b, next);
  assign hold_tq = holds(tos_q.a, tos_q.b, next);
  assign hold_nq = holds(nos_q.a, nos_q.b, next);
  assign it_a = (rdata_a.a == rec_i.target) && (rdata_a.b == rec_i.pc);
  assign it_b = (rdata_b.a == rec_i.target) && (rdata_b.b == rec_i.pc);
  assign it_tq = (tos_q.a == rec_i.target) && (tos_q.b == rec_i.pc);
  assign it_nq = (nos_q.a == rec_i.target) && (nos_q.b == rec_i.pc);
  assign keep_tos = tos_func || ((tos_sel_q == SelA) ? hold_a : hold_tq);
  assign keep_nos = nos_func || ((nos_sel_q == SelA) ? hold_a : (nos_sel_q == SelB) ? hold_b : hold_nq);
  assign keep_ram = ram_func || hold_a;
  assign iter_tos = !tos_func && ((tos_sel_q == SelA) ? it_a : it_tq);
  assign iter_nos = !nos_func && ((nos_sel_q == SelA) ? it_a : (nos_sel_q == SelB) ? it_b : it_nq);
  assign iter_ram = !ram_func && it_a;

  // The thermometer codes of every size a record may cut the stack to, from
  // registers only (the outcome only selects one: live_cut).
  logic [Depth-1:0]   th_m1, th_m2, th_tf, th_s, th_s1;
  always_comb begin
    th_m1 = live_q >> 1;
    th_m2 = live_q >> 2;
    for (int i = 0; i < Depth; i++) begin
      // i < tf_size: a live function entry above i.
      th_tf[i] = 1'b0;
      for (int j = i + 1; j < Depth; j++) if (fl[j]) th_tf[i] = 1'b1;
      th_s[i] = DepthW'(i) < sidx;
      th_s1[i] = DepthW'(i) <= sidx;
    end
  end

  // The pushed entries and their hashes on every possible base.
  logic [31:0]        h_call, h_tos, h_nos, h_ram, h_emp;
  entry_t             e_call;
  assign h_call = hash_step((size_q == '0) ? EmptyHash : tos.hash, 1'b1, rec_i.pc, rec_i.target);
  assign h_tos = hash_step(tos.hash, 1'b0, rec_i.target, rec_i.pc);
  assign h_nos = hash_step(nos.hash, 1'b0, rec_i.target, rec_i.pc);
  assign h_ram = hash_step(rdata_a.hash, 1'b0, rec_i.target, rec_i.pc);
  assign h_emp = hash_step(EmptyHash, 1'b0, rec_i.target, rec_i.pc);
  assign e_call = '{hash: h_call, ilen: rec_i.ilen, b: rec_i.target, a: rec_i.pc};

  // --------------------------------------------------------- the outcome
  // done_o, the size after the pops (size_cut), the push and its hash, the
  // flags, where the cached entries come from after the edge, and the scan
  // to continue.
  logic [DepthW-1:0]  size_cut;
  logic [Depth-1:0]   live_cut;       // thermometer code of size_cut (selected, not computed)
  logic               do_push, do_ovf, do_rec, do_resync, push_func;
  logic [31:0]        push_hash;
  entry_t             push_below_e;   // the entry under a push (nos after it)
  logic               cont;           // the scan continues with scan_idx_d / rem_d
  logic [IdxW-1:0]    cont_idx;

  always_comb begin
    done_o = 1'b1;
    size_cut = size_q;
    live_cut = live_q;
    do_push = 1'b0;
    do_ovf = 1'b0;
    do_rec = 1'b0;
    do_resync = 1'b0;
    push_func = 1'b0;
    push_hash = h_emp;
    push_below_e = tos;
    tos_sel_d = SelQ;
    nos_sel_d = SelQ;
    cont = 1'b0;
    cont_idx = low_idx;
    rsync_d = 1'b0;
    if (is_call) begin
      push_func = 1'b1;
      push_hash = h_call;
      if (!first && call_match) begin
        do_rec = 1'b1;
      end else if (low_valid) begin
        done_o = 1'b0;
        cont = 1'b1;
      end else if (!skip_q) begin
        if (full) do_ovf = 1'b1;
        else do_push = 1'b1;
      end
    end else if (is_ret) begin
      cont_idx = high_idx;
      if (!skip_q) begin
        size_cut = tf_size;
        live_cut = th_tf;
        tos_sel_d = SelA;
        nos_sel_d = SelB;
      end else if (rsync_q) begin
        do_resync = 1'b1;
        size_cut = sidx;
        live_cut = th_s;
        tos_sel_d = SelA;
        nos_sel_d = SelB;
      end else if (!first && ret_match) begin
        done_o = 1'b0;
        rsync_d = 1'b1;
      end else if (high_valid) begin
        done_o = 1'b0;
        cont = 1'b1;
      end
    end else if (!skip_q) begin
      // The loop-exit walk.
      if (first) begin
        cont_idx = n_m3;
        if (size_q == '0) begin
          do_push = is_backward;
        end else if (keep_tos) begin
          push_hash = h_tos;
          push_below_e = tos;
          if (is_backward && !iter_tos) begin
            if (full) do_ovf = 1'b1;
            else do_push = 1'b1;
          end
        end else if (size_q == DepthW'(1)) begin
          size_cut = '0;
          live_cut = '0;
          do_push = is_backward;
        end else if (keep_nos) begin
          size_cut = n_m1;
          live_cut = th_m1;
          push_hash = h_nos;
          push_below_e = nos;
          do_push = is_backward && !iter_nos;
          nos_sel_d = SelA;  // e[n-3], read at this edge (when no push)
        end else if (!n_ge3) begin
          size_cut = '0;
          live_cut = '0;
          do_push = is_backward;
        end else if (n3_func && !is_backward) begin
          size_cut = n_m2;
          live_cut = th_m2;
          tos_sel_d = SelA;
          nos_sel_d = SelB;
        end else begin
          done_o = 1'b0;
          cont = 1'b1;
        end
      end else begin
        cont_idx = sidx_m1;
        if (keep_ram) begin
          size_cut = sidx + DepthW'(1);
          live_cut = th_s1;
          push_hash = h_ram;
          push_below_e = rdata_a;
          do_push = is_backward && !iter_ram;
          nos_sel_d = SelA;  // e[j-1], read at this edge (when no push)
        end else if (sidx == '0) begin
          size_cut = '0;
          live_cut = '0;
          do_push = is_backward;
        end else if (below_func && !is_backward) begin
          size_cut = sidx;
          live_cut = th_s;
          tos_sel_d = SelA;
          nos_sel_d = SelB;
        end else begin
          done_o = 1'b0;
          cont = 1'b1;
        end
      end
    end
  end

  assign wentry = push_func ? e_call : '{hash: push_hash, ilen: 4'd0, b: rec_i.pc, a: rec_i.target};
  assign push_o = do_push;
  assign pops_o = size_q - size_cut;
  assign overflow_o = do_ovf;
  assign recursion_o = do_rec;
  assign resync_o = do_resync;

  // (The valid outputs of the shifted picks are implied by tf_valid /
  // run_valid where the read is looked at.)
  logic unused_picks;
  assign unused_picks = tf_m1_valid ^ tf_m2_valid ^ run_m1_valid;

  // The record's instruction count, events and taken bit are not used here
  // (next_i and backward_i carry what the stack needs of taken).
  logic unused_rec;
  assign unused_rec = ^{rec_i.insns, rec_i.events, rec_i.taken};

  // The highest set bit of vec_high (one-hot), through the bit reversal.
  logic [Depth-1:0]   vh_rev, vh_rev_low, hi_bit;
  always_comb begin
    for (int i = 0; i < Depth; i++) vh_rev[i] = vec_high[Depth-1-i];
    vh_rev_low = vh_rev & ~(vh_rev - Depth'(1));
    for (int i = 0; i < Depth; i++) hi_bit[i] = vh_rev_low[Depth-1-i];
  end

  // ----------------------------------------------------- RAM ports, cache
  // Both ports read every cycle the tracker is idle, except while a scan is
  // frozen (its entry must stay on port A): the addresses depend on the
  // record's kind and the state only, never on the outcome, which decides
  // at the edge whether the next cycle looks at the data (tos_sel / nos_sel)
  // or at the next scanned entry.
  logic               freeze;
  assign freeze = scan_q && rec_valid_i && hold_i;
  assign ram_re = snap_i || (!busy_i && !freeze);
  assign ram_we = commit && do_push;
  assign waddr = IdxW'(size_cut);

  always_comb begin
    raddr_a = n_m3;
    raddr_b = n_m4;
    if (snap_i) begin
      raddr_a = run_valid ? run_m1_idx : IdxW'(Depth - 1);
    end else if (is_call) begin
      raddr_a = low_idx;
    end else if (is_ret) begin
      if (!skip_q) begin
        raddr_a = tf_m1_idx;
        raddr_b = tf_m2_idx;
      end else if (rsync_q) begin
        raddr_a = sidx_m1;
        raddr_b = sidx_m2;
      end else begin
        raddr_a = high_idx;
      end
    end else if (!first) begin
      raddr_a = sidx_m1;
      raddr_b = sidx_m2;
    end
  end

  always_comb begin
    tos_d = tos;
    nos_d = nos;
    scan_d = scan_q;
    scan_idx_d = scan_idx_q;
    rem_d = rem_q;
    if (restart_i || !rec_valid_i) begin
      scan_d = 1'b0;
    end
    if (!(commit && do_push) && commit && tos_sel_d == SelQ && nos_sel_d == SelA) begin
      // One pop (or the walk's kept entry): the entry left on top is cached.
      tos_d = push_below_e;
    end
    if (commit && do_push) begin
      tos_d = wentry;
      nos_d = push_below_e;
    end
    if (!restart_i && step && !done_o) begin
      scan_d = 1'b1;
      if (cont) begin
        scan_idx_d = cont_idx;
        // The candidates left: the lowest (call) or highest (return) bit
        // cleared.
        rem_d = is_call ? (vec_low & (vec_low - Depth'(1))) : (vec_high & ~hi_bit);
      end
    end else if (commit) begin
      scan_d = 1'b0;
    end
  end

  // The sources after the edge: only a commit without a push moves them to
  // the RAM ports (its refill reads are issued at the same edge).
  sel_e tos_sel_n, nos_sel_n;
  assign tos_sel_n = (commit && !do_push) ? tos_sel_d : SelQ;
  assign nos_sel_n = (commit && !do_push) ? nos_sel_d : SelQ;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tos_sel_q <= SelQ;
      nos_sel_q <= SelQ;
      scan_q <= 1'b0;
      rsync_q <= 1'b0;
    end else begin
      tos_sel_q <= tos_sel_n;
      nos_sel_q <= nos_sel_n;
      scan_q <= scan_d;
      rsync_q <= step ? rsync_d : (rsync_q && rec_valid_i && !restart_i);
    end
  end

  always_ff @(posedge clk_i) begin
    tos_q <= tos_d;
    nos_q <= nos_d;
    scan_idx_q <= scan_idx_d;
    rem_q <= rem_d;
  end

  // func_q[scan_idx_q] and func_q[scan_idx_q - 1], loaded with scan_idx_q (no
  // reset: used only while a branch's scan runs). A branch's scan reads
  // entries n-3, n-4, ... downwards, so they come from precomputed kind bits
  // (func_q[n-3], func_q[n-4] on its first step, then the bit below and
  // func_q[j-2]) instead of a select on scan_idx_d; no entry at or below a
  // scanned one changes while the scan runs. Call / return scans never look
  // at them.
  logic               n4_func, below2_func;
  assign n4_func = |((top1 >> 3) & func_q);
  assign below2_func = func_q[sidx_m2];
  always_ff @(posedge clk_i) begin
    if (step) begin
      ram_func_q <= first ? n3_func : below_func_q;
      below_func_q <= first ? n4_func : below2_func;
    end
  end

  // ------------------------------------------------------- control state
  always_comb begin
    size_d = size_q;
    skip_d = skip_q;
    ovf_d = ovf_q;
    if (restart_i) begin
      size_d = '0;
      skip_d = 1'b0;
      ovf_d = 1'b0;
    end else if (snap_i) begin
      ovf_d = 1'b0;
    end else if (commit) begin
      size_d = do_push ? size_cut + DepthW'(1) : size_cut;
      skip_d = (skip_q || do_rec || do_ovf) && !do_resync;
      ovf_d = ovf_q || do_ovf;
    end
  end

  // live_d: the thermometer code of size_d, from live_cut (a push adds the
  // entry at size_cut).
  always_comb begin
    live_d = live_q;
    if (restart_i) live_d = '0;
    else if (snap_i) live_d = live_q;
    else if (commit) live_d = do_push ? ((live_cut << 1) | Depth'(1)) : live_cut;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {size_q, skip_q, ovf_q, live_q} <= '0;
    else {size_q, skip_q, ovf_q, live_q} <= {size_d, skip_d, ovf_d, live_d};
  end

  // One-hot: the entry at index size_cut (none when size_cut = Depth), from
  // live_cut.
  logic [Depth-1:0]   at_cut;
  assign at_cut = ((live_cut << 1) | Depth'(1)) & ~live_cut;

  // Kind bits and tags of the pushed entry (no reset: qualified by size_q).
  // Written at index size_cut in every step, not only at a push: without a
  // push that entry is dead after the edge (a commit leaves size = size_cut)
  // or is entry size_q (a step that does not commit keeps size_cut =
  // size_q), so only a push makes the write visible. This keeps the outcome
  // (done_o, do_push) off the write enables of these flip-flops.
  always_ff @(posedge clk_i) begin
    if (step) begin
      for (int i = 0; i < Depth; i++) begin
        if (at_cut[i]) begin
          func_q[i] <= push_func;
          // (Loop entries' tags are never looked at.)
          btag_q[i] <= ttag;
          rtag_q[i] <= rtag_i;
        end
      end
    end
  end

  // The tag matches of the record loaded at this edge (no reset: qualified
  // by live_q).
  always_ff @(posedge clk_i) begin
    if (ld_i) begin
      for (int i = 0; i < Depth; i++) begin
        if (step && at_cut[i]) begin
          mcall_q[i] <= (ttag == ld_ttag_i);
          mret_q[i] <= (rtag_i == ld_ttag_i);
        end else begin
          mcall_q[i] <= (btag_q[i] == ld_ttag_i);
          mret_q[i] <= (rtag_q[i] == ld_ttag_i);
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
      if (commit && do_rec) begin
        for (int i = 0; i < Depth; i++) if (IdxW'(i) == scan_idx_q) rec_q[i] <= 1'b1;
      end
      // A pushed entry is unstable with a clear recursion bit; written in
      // every step like the kind bits (a dead entry's bits are never looked
      // at: every use is qualified by live_q). A recursion's bit (entry
      // scan_idx_q < size_q = size_cut) is never this entry.
      if (step) begin
        for (int i = 0; i < Depth; i++) begin
          if (at_cut[i]) begin
            stable_q[i] <= 1'b0;
            rec_q[i] <= 1'b0;
          end
        end
      end
      if (snap_i) stable_q <= '1;
    end
  end

  // ------------------------------------------------------------ snapshot
  logic        sig_empty_q;
  logic [7:0]  snap_depth;
  assign snap_depth = run_valid ? 8'(run_idx) : 8'(Depth);

  always_ff @(posedge clk_i) begin
    if (snap_i) begin
      sig_depth_o <= snap_depth;
      sig_empty_q <= (snap_depth == '0);
      sig_rec_o <= |(live & rec_q);
      sig_ovf_o <= ovf_q;
      sig_skip_o <= skip_q;
    end
  end

  assign sig_hash_o = sig_empty_q ? EmptyHash : rdata_a.hash;
  assign size_o = size_q;
  assign skip_o = skip_q;

  // live_cut is the thermometer code of size_cut, live_q that of size_q.
  `HWPROF_ASSERT(live_cut_matches_size_cut, live_cut == ((Depth'(1) << size_cut) - Depth'(1)) || size_cut == DepthW'(Depth) && live_cut == '1)
  `HWPROF_ASSERT(live_matches_size, live_q == ((Depth'(1) << size_q) - Depth'(1)) || size_q == DepthW'(Depth) && live_q == '1)
  // The registered tag matches equal the compares they stand for (live
  // entries, while a record is offered).
`ifndef SYNTHESIS
  logic [Depth-1:0]   mcall_chk, mret_chk;
  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      mcall_chk[i] = (btag_q[i] == ttag);
      mret_chk[i] = (rtag_q[i] == ttag);
    end
  end
  `HWPROF_ASSERT(mcall_right, !rec_valid_i || ((mcall_q ^ mcall_chk) & live_q) == '0)
  `HWPROF_ASSERT(mret_right, !rec_valid_i || ((mret_q ^ mret_chk) & live_q) == '0)
`endif
  // The shifted picks equal the subtractions they replace where they are
  // read.
  `HWPROF_ASSERT(tf_m1_right, !(tf_valid && 32'(tf_idx) >= 1) || tf_m1_idx == tf_idx - IdxW'(1))
  `HWPROF_ASSERT(tf_m2_right, !(tf_valid && 32'(tf_idx) >= 2) || 32'(tf_m2_idx) == 32'(tf_idx) - 2)
  `HWPROF_ASSERT(run_m1_right, !(run_valid && 32'(run_idx) >= 1) || run_m1_idx == run_idx - IdxW'(1))
  // The stack never grows past Depth.
  `HWPROF_ASSERT(stack_within_depth, size_q <= DepthW'(Depth))
  // A scan only runs while a record is offered.
  `HWPROF_ASSERT(scan_needs_record, scan_q |-> rec_valid_i)
  // A step that does not commit cuts nothing (the kind bits, tags, stable and
  // recursion bits are written at size_cut in every step).
  `HWPROF_ASSERT(no_cut_without_commit, !(step && !done_o) || size_cut == size_q)


`ifdef FORMAL
  // ---------------------------------------------------------------------
  // Formal invariants (make formal: formal/dcr.sby, the harness
  // formal/hwprof_dcr_tracker_fv.sv around hwprof_dcr_tracker, which holds
  // the record stable while it is offered; docs/verification.md). They make
  // the tracker's depth and skip-mode properties inductive: the size is at
  // most Depth and its thermometer code is live_q; a scan reads a live
  // entry, its remaining candidates are live, a loop-exit scan (br / jmp /
  // ijmp) stays at least three entries below the top, and the resync cycle
  // belongs to a return in skip mode.
  logic [DepthW:0] f_sidx;
  assign f_sidx = (DepthW + 1)'(scan_idx_q);
  always_comb begin
    if (rst_ni) begin
      assert (size_q <= DepthW'(Depth));
      for (int unsigned i = 0; i < Depth; i++) assert (live_q[i] == (32'(size_q) > i));
      if (scan_q) begin
        assert (rec_valid_i);
        assert (f_sidx < (DepthW + 1)'(size_q));
        assert ((rem_q & ~live_q) == '0);
        if (!is_call && !is_ret) assert (f_sidx + 3 <= (DepthW + 1)'(size_q));
      end
      if (rsync_q) assert (scan_q && skip_q && is_ret);
    end
  end
`endif

endmodule

`default_nettype wire
