/// hwprof_dcr_stack: the call/loop stack of the DCR phase tracker (docs/dcr.md
/// "Stack"; paper 003, spec section 5), one of the two machines of
/// hwprof_dcr_tracker (the other is hwprof_dcr_sigtable). Functional model:
/// DcrStack (sim_models/phase/dcr_algo.h).
///
/// Stack operation of one record (step_i; all in the cycle it is taken; i = 0
/// is the bottom, n = the stack size):
///   * call/icall: recursion when a live function entry has b == target: the
///     lowest such entry gets its recursion bit, skip mode is entered, nothing
///     is pushed. Else, in skip mode nothing happens; else a full stack
///     refuses the push (overflow: skip mode, the overflow flag); else a
///     function entry {a = pc, b = target, ret = pc + ilen} is pushed.
///   * ret: in skip mode, the highest function entry at or below the lowest
///     entry with its recursion bit (every entry when none) whose return
///     address equals the target matches: it and everything above are popped
///     and skip mode ends (a resync); no match, nothing. In normal mode, the
///     stack is cut to the index of the highest function entry (the loops
///     above it and it are popped; everything when there is none).
///   * br/jmp/ijmp: nothing in skip mode. Else first the loop exits: the
///     loops on top whose [a, b] does not hold next are popped (the run from
///     the top: n' = 1 + the highest live entry that is a function or a loop
///     holding next). Then a taken backward br/jmp (target <= pc): the entry
///     at n'-1 is a loop with (a, b) = (target, pc): an iteration; else a
///     loop {a = target, b = pc} is pushed at n' (a full stack: overflow as
///     above).
///   * A pushed entry is unstable, its recursion bit clear, and its hash is
///     DcrStack::hash_step(hash of the entry below or EmptyHash, kind, a, b).
/// Tie-breaks: recursion takes the lowest matching entry, resync the highest
/// candidate, a normal return the highest function entry, the loop exits the
/// highest kept entry.
///
/// Interval end (snap_i, one cycle): the snapshot registers load the maximal
/// run of live stable entries from the bottom (sig_depth_o, and its top
/// entry's prefix hash, EmptyHash for none), whether any live entry has its
/// recursion bit, the overflow flag and skip mode; at the same edge every
/// stable bit is set and the overflow flag cleared. The snapshot holds until
/// the next snap_i (latency 1: valid from the cycle after snap_i).
///
/// Priority at one edge: restart_i (empty stack, skip off, overflow flag
/// clear), then snap_i, then step_i. The tracker never raises two of them in
/// one cycle (a record is taken only while idle and without a CMD write).
///
/// Storage: flip-flops (every entry is compared every cycle). Size, skip, the
/// overflow flag and the stable / recursion bits reset asynchronously; the
/// entry fields and the snapshot have no reset (qualified by the size, and
/// by the tracker's state).
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
  /// A record is taken in this cycle: its operation commits at the edge.
  input  wire logic                     step_i,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t  rec_i,
  // Outcome of rec_i (combinational from rec_i and the state; counted by
  // the tracker while step_i).
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
  /// Empty the stack, leave skip mode, clear the overflow flag.
  input  wire logic                     restart_i,
  /// Interval end: load the snapshot, set every stable bit, clear the
  /// overflow flag.
  input  wire logic                     snap_i,
  // State (registered).
  /// Stack size.
  output logic [DepthW-1:0]             size_o,
  /// Skip mode.
  output logic                          skip_o,
  // Snapshot of the last snap_i (registered, no reset).
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
  localparam logic KindFunc = 1'b0;
  localparam logic KindLoop = 1'b1;
  localparam int unsigned PickW = (Depth > 1) ? $clog2(Depth) : 1;

  function automatic logic [31:0] rotl(input logic [31:0] x, input int unsigned s);
    rotl = (x << s) | (x >> (32 - s));
  endfunction

  function automatic logic [31:0] hash_step(input logic [31:0] h, input logic kind, input logic [31:0] a,
                                            input logic [31:0] b);
    hash_step = (rotl(h, 5) ^ a) + (rotl(b, 16) ^ (kind == KindLoop ? LoopSalt : FuncSalt));
  endfunction

  // ------------------------------------------------------------------ state
  logic [DepthW-1:0]  size_q, size_d;
  logic               skip_q, skip_d, ovf_q, ovf_d;
  logic [Depth-1:0]   kind_q, stable_q, rec_q;     // per entry
  logic [31:0]        x_q    [Depth];              // loop start, or function return address
  logic [31:0]        b_q    [Depth];              // loop end, or call target
  logic [31:0]        hash_q [Depth];              // signature hash up to this entry

  // ----------------------------------------------------------- the record
  logic               is_call, is_ret, is_backward;
  logic [31:0]        next;
  logic [Depth-1:0]   live, is_func, func_b_hit, ret_hit, rec_below, keep;
  logic               rec_found;
  logic [DepthW-1:0]  rec_idx;
  logic               resync;
  logic [DepthW-1:0]  resync_idx;
  logic [DepthW-1:0]  top_func;   // normal return: the new size
  logic [DepthW-1:0]  n_exit;     // branch: the size after the loop exits
  logic               tos_iter;   // the entry at n_exit-1 is this loop
  // The outcome.
  logic [DepthW-1:0]  size_cut;   // size after pops, before a push
  logic               do_push, do_ovf, do_rec, do_resync;
  logic               push_kind;
  logic [31:0]        push_a, push_x, push_b, push_below, push_hash;

  assign is_call = (rec_i.kind == KindCall) || (rec_i.kind == KindIcall);
  assign is_ret = (rec_i.kind == KindRet);
  assign is_backward = ((rec_i.kind == KindBr) || (rec_i.kind == KindJmp)) && rec_i.taken &&
                       (rec_i.target <= rec_i.pc);
  assign next = rec_i.taken ? rec_i.target : rec_i.pc + 32'(rec_i.ilen);

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
  end

  // Priority picks (hwprof_lzc): recursion, the lowest function entry with
  // b == target; resync, the highest matching function entry at or below
  // the boundary; a normal return cuts at the highest function entry; the
  // loop exits leave 1 + the highest entry kept.
  localparam int unsigned NumPicks = 4;
  logic [NumPicks-1:0][Depth-1:0] pick_in;
  logic [NumPicks-1:0]            pick_valid;
  logic [NumPicks-1:0][PickW-1:0] pick_idx;
  assign pick_in = {keep, is_func, ret_hit & ~rec_below, func_b_hit};

  for (genvar g = 0; g < NumPicks; g++) begin : gen_pick
    hwprof_lzc #(
      .N        (Depth),
      .HighFirst((g == 0) ? 0 : 1)
    ) u_lzc (
      .in_i   (pick_in[g]),
      .idx_o  (pick_idx[g]),
      .valid_o(pick_valid[g])
    );
  end

  assign rec_found = pick_valid[0];
  assign rec_idx = DepthW'(pick_idx[0]);
  assign resync = pick_valid[1];
  assign resync_idx = DepthW'(pick_idx[1]);
  assign top_func = DepthW'(pick_idx[2]);  // 0 when there is none
  logic unused_pick;
  assign unused_pick = pick_valid[2];
  assign n_exit = pick_valid[3] ? DepthW'(pick_idx[3]) + DepthW'(1) : '0;

  // The entry below the push point / on top after the exits.
  always_comb begin
    tos_iter = 1'b0;
    push_below = EmptyHash;
    for (int i = 0; i < Depth; i++) begin
      if (is_call && DepthW'(i + 1) == size_q) push_below = hash_q[i];
      if (!is_call && DepthW'(i + 1) == n_exit) begin
        push_below = hash_q[i];
        tos_iter = (kind_q[i] == KindLoop) && (x_q[i] == rec_i.target) && (b_q[i] == rec_i.pc);
      end
    end
  end

  always_comb begin
    size_cut = size_q;
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
          size_cut = resync_idx;
        end
      end else begin
        size_cut = top_func;
      end
    end else if (!skip_q) begin
      size_cut = n_exit;
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

  assign push_o = do_push;
  assign pops_o = size_q - size_cut;
  assign overflow_o = do_ovf;
  assign recursion_o = do_rec;
  assign resync_o = do_resync;

  // The record's instruction count and events are not used by the stack.
  logic unused_rec;
  assign unused_rec = ^{rec_i.insns, rec_i.events};

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
    end else if (step_i) begin
      size_d = do_push ? size_cut + DepthW'(1) : size_cut;
      skip_d = (skip_q || do_rec || do_ovf) && !do_resync;
      ovf_d = ovf_q || do_ovf;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {size_q, skip_q, ovf_q} <= '0;
    else {size_q, skip_q, ovf_q} <= {size_d, skip_d, ovf_d};
  end

  // Stack fields (no reset: qualified by size_q).
  always_ff @(posedge clk_i) begin
    if (step_i && do_push) begin
      for (int i = 0; i < Depth; i++) begin
        if (DepthW'(i) == size_cut) begin
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
      if (step_i && do_rec) begin
        for (int i = 0; i < Depth; i++) if (DepthW'(i) == rec_idx) rec_q[i] <= 1'b1;
      end
      if (step_i && do_push) begin
        for (int i = 0; i < Depth; i++) begin
          if (DepthW'(i) == size_cut) begin
            stable_q[i] <= 1'b0;
            rec_q[i] <= 1'b0;
          end
        end
      end
      if (snap_i) stable_q <= '1;
    end
  end

  // ------------------------------------------------------------ snapshot
  logic [7:0]  snap_depth;
  logic [31:0] snap_hash;

  always_comb begin
    logic run;
    run = 1'b1;
    snap_depth = '0;
    snap_hash = EmptyHash;
    for (int i = 0; i < Depth; i++) begin
      run = run && live[i] && stable_q[i];
      if (run) begin
        snap_depth = 8'(i + 1);
        snap_hash = hash_q[i];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (snap_i) begin
      sig_depth_o <= snap_depth;
      sig_hash_o <= snap_hash;
      sig_rec_o <= |(live & rec_q);
      sig_ovf_o <= ovf_q;
      sig_skip_o <= skip_q;
    end
  end

  assign size_o = size_q;
  assign skip_o = skip_q;

  // The stack never grows past Depth.
  `HWPROF_ASSERT(stack_within_depth, size_q <= DepthW'(Depth))

endmodule

`default_nettype wire
