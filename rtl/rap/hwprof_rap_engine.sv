// hwprof_rap_engine: the range-adaptive profiling engine of docs/rap_engine.md
// (paper 001 sections 3-4, Fig. 6; spec 4.1-4.2). Takes one raw event
// (value, weight) per clock, merges repeats in the merging buffer and keeps
// the RAP tree of docs/rap.md, bit-exact with RapTree fed with the buffer's
// pairs. The cycle behaviour is RapEngine::step (sim_models/rap/rap_engine.h).
//
// Datapath (one pair per clock in the update stream):
//   ingress -> hwprof_fifo_sync event queue (QueueDepth raw events) -> hwprof_rap_merge_buffer
//   -> P (pair register) -> S0: hwprof_rap_tcam search + hwprof_rap_arbiter (longest
//   prefix = the matched leaf) -> M (the registered match; the counter row
//   is read with M's group) -> S1: counter read-modify-write, n += w,
//   hwprof_rap_threshold, split check, merge check -> D (the registered
//   decision: the split, or the pass or TCAM write starting, one cycle
//   after the commit) (controller).
// The tree: the root counter plus Groups child groups; a group is the four
// children of one internal node, stored in one TCAM entry {parent depth,
// parent prefix} and one counter row (four counters, four "child is
// internal" bits, the parent's location). A split allocates the lowest free
// group; a merge frees the group.
//
// Edge order (RapEngine::step):
//   0. CMD.clear wins over everything: staged parameters are applied and the
//      tree, queue, buffer, P, S1, counters and controller are reset;
//   1. controller: RUN: D acts if the last cycle's commit decided a
//      structural change: the split (the lowest free group), a capacity pass
//      (due, none free, not full) or the TCAM write, then the scheduled pass
//      if n >= next_merge; nothing moves in D's cycle. A split corrects the
//      pairs in S1 and M matched before it in place when their leaf is the
//      split leaf (they move to the new group's child; S1's count is 0); a
//      pass leaves them stale: the first two RUN cycles after a pass a
//      commit started re-match S1's pair, then M's (S0 searches the value;
//      nothing moves; both counted in STALL_FLUSH, whether S1 and M hold a
//      pair or not). Otherwise the pair in S1 commits: counter += w,
//      n += w, and the split check's outcome (split if a group is free,
//      skip if none is free and the tree is full, else a capacity pass) and
//      the pass check are registered for D; a skip is counted at once.
//      PASS: one scan step (below). DUMP: one beat per dump_ready_i;
//   2. M moves to S1 (RUN, not D's cycle, not a re-match cycle); P moves to
//      M (the same, M free after this edge);
//   3. buffer: FLUSH mode moves the oldest entry into P, else the queue head
//      enters the buffer (an emitted pair needs P free after step 2); frozen
//      during DUMP; FLUSH mode ends after a cycle that began with the buffer
//      empty;
//   4. register writes; 5. the ingress push; 6. the register port's tree
//      counters (shadows) are copied from the live ones unless the next state
//      is PASS or TWR (until D acts, the live ones show the commit, not the
//      split or the pass).
// Merge pass (spec 4.1): parent depths d = H-1 down to 0; per d, each cycle
// finds the lowest valid group with parent depth d not yet scanned (stage
// A0), reads it (A1) and merges it when its four children are leaves and
// parent + children <= T(n) (B); the cycle that finds none moves to d-1
// (at d = 0: one drain cycle for stage B, then the pass ends). Cycles per
// pass: groups at the start + H + 1.
// A capacity pass ends by doing the pending split (if a group is now free)
// or by setting full and counting the skip; then the scheduled pass if it
// was due. The scheduled pass ends by clearing full and doubling next_merge
// until it exceeds n (saturating at 2^CntW - 1).
//
// Registers (csr_*; data/regs/rap.json, generated package hwprof_rap_reg_pkg,
// docs/rap_engine.md "Registers"): the
// register block hwprof_rap_regs holds the staged parameters, CMD, STATUS,
// the statistics and the read mux; this module reports its state and each
// cycle's events to it (hwprof_rap_pkg::tree_events_t, flow_events_t).
// Dump (CMD.dump): Groups + 1 beats on dump_*: beat 0 the root (count in
// dump_cnt0_o), beat 1 + s group slot s (dump_slot_valid_o low: free slot).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rap_engine #(
  /// Value width W (2, 4, 8, 16, 32 or 64; 64: the 2-D engine on interleaved
  /// (code, data) keys, docs/rap2d.md).
  parameter int unsigned RangeW = 32,
  /// Child groups (NodeCap up to 4 * Groups + 1 nodes used), 1..4095.
  parameter int unsigned Groups = 127,
  /// Event queue depth.
  parameter int unsigned QueueDepth = 1024,
  /// Largest merging-buffer depth (1..15).
  parameter int unsigned MaxBuf = 8,
  /// BUF_DEPTH after reset.
  parameter int unsigned BufDefault = 4,
  /// Width of n and of the node counters (33..64).
  parameter int unsigned CntW = 40,
  /// TCAM: 0 = the flip-flop hwprof_rap_tcam (write latency 1); 1..8 = hwprof_rap_tcam_ram
  /// with SliceW = TcamSlice (write latency 2^TcamSlice + 1 cycles, spent in
  /// the TWR state after a split). RangeW must be a multiple.
  parameter int unsigned TcamSlice = 4,
  /// Width of a depth.
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  /// Clock.
  input  wire logic                 clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                 rst_ni,
  /// An event is offered.
  input  wire logic                 ev_valid_i,
  /// The event queue has room (registered).
  output logic                      ev_ready_o,
  /// Event value (W bits).
  input  wire logic [RangeW-1:0]    ev_value_i,
  /// Event weight.
  input  wire logic [15:0]          ev_weight_i,
  /// A dump beat is on dump_*.
  output logic                      dump_valid_o,
  /// The beat is taken at the edge.
  input  wire logic                 dump_ready_i,
  /// The last beat of a dump.
  output logic                      dump_last_o,
  /// The beat's slot holds a group (always 1 for the root beat).
  output logic                      dump_slot_valid_o,
  /// Depth of the beat's four nodes (0: the root beat).
  output logic [DepthW-1:0]         dump_depth_o,
  /// Prefix of the group's parent (low bits zero).
  output logic [RangeW-1:0]         dump_prefix_o,
  /// Counter of child 0 (root beat: the root's counter).
  output logic [CntW-1:0]           dump_cnt0_o,
  /// Counter of child 1.
  output logic [CntW-1:0]           dump_cnt1_o,
  /// Counter of child 2.
  output logic [CntW-1:0]           dump_cnt2_o,
  /// Counter of child 3.
  output logic [CntW-1:0]           dump_cnt3_o,
  /// Register write strobe.
  input  wire logic                 csr_we_i,
  /// Register address.
  input  wire logic [4:0]           csr_addr_i,
  /// Register write data.
  input  wire logic [31:0]          csr_wdata_i,
  /// Register read data (combinational).
  output logic [31:0]               csr_rdata_o
);

  import hwprof_rap_pkg::*;

  localparam int unsigned H = RangeW / 2;
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1;
  localparam int unsigned ScanW = $clog2(Groups + 1);
  localparam int unsigned BufW = $clog2(MaxBuf + 1);
  localparam int unsigned PairWtW = 32;

  initial begin
    if (Groups < 1 || Groups > 4095) $fatal(1, "hwprof_rap_engine: Groups must be 1..4095");
    if (MaxBuf < 1 || MaxBuf > 15) $fatal(1, "hwprof_rap_engine: MaxBuf must be 1..15");
    if (CntW < 33 || CntW > 64) $fatal(1, "hwprof_rap_engine: CntW must be 33..64");
    if (TcamSlice > 8 || (TcamSlice != 0 && RangeW % TcamSlice != 0))
      $fatal(1, "hwprof_rap_engine: TcamSlice must be 0 or 1..8 dividing RangeW");
  end

  typedef enum logic [1:0] {StRun = 2'd0, StPass = 2'd1, StDump = 2'd2, StTwr = 2'd3} state_e;

  // Controller state with an asynchronous reset: one reset value, and a
  // clear sets the same (next_merge from the staged MERGE_FIRST).
  typedef struct packed {
    state_e            state;
    logic [CntW-1:0]   n;              // total weight
    logic [CntW-1:0]   next_merge;     // n at which the next scheduled pass runs
    logic              full;           // splits are skipped until the next scheduled pass
    logic [ScanW-1:0]  used_groups;    // child groups in use
    logic [CntW-1:0]   root_cnt;       // the root's counter
    logic              pair_valid;     // P holds a pair
    logic              m_valid;        // M holds a pair
    logic              rematch_s1_due; // the next RUN cycle re-matches S1 (after a pass a commit started)
    logic              rematch_m_due;  // a RUN cycle re-matches M after S1's re-match
    logic              s1_valid;       // S1 holds a pair
    logic              d_act;          // D acts in this cycle (the last commit split or starts a pass)
    logic              d_split;        // D: the leaf splits
    logic              d_cap;          // D: a capacity pass starts
    logic              d_sched;        // D: the scheduled pass is due
    logic              pass_is_cap;    // the pass is a capacity pass
    logic              sched_pending;  // a scheduled pass follows the current pass or TCAM write
    logic [DepthW-1:0] pass_depth;     // the parent depth the pass scans
    logic              pass_drain;     // the pass's last cycle: stage B's last group (after depth 0)
    logic [ScanW-1:0]  beat;           // the dump beat
    logic              scan_a1_valid;  // scan stage A1 holds a group
    logic              scan_b_valid;   // scan stage B holds a group
  } ctl_t;
  localparam ctl_t CtlReset = '{state: StRun, next_merge: CntW'(hwprof_rap_reg_pkg::RapMergeFirstReset), default: '0};

  ctl_t ctl_q, ctl_d;

  // Data registers without reset: the pair register P, M, S1, the scan stages.
  logic [RangeW-1:0]  pair_value_q;
  logic [PairWtW-1:0] pair_weight_q;
  logic [RangeW-1:0]  m_value_q;
  logic [PairWtW-1:0] m_weight_q;
  logic               m_root_q;       // M's leaf is the root
  logic [IdxW-1:0]    m_grp_q;        // else its group
  logic [1:0]         m_col_q;        // and its column in the group
  logic [DepthW-1:0]  m_depth_q;      // the leaf's depth
  logic               s1_root_q;      // the leaf is the root
  logic [IdxW-1:0]    s1_grp_q;       // else its group
  logic [1:0]         s1_col_q;       // and its column in the group
  logic [DepthW-1:0]  s1_depth_q;
  logic [RangeW-1:0]  s1_value_q;
  logic [PairWtW-1:0] s1_weight_q;
  logic               s1_fresh_q;     // S1's leaf is a child of a group made since its row was read (count 0)
  // D: the leaf of the last commit (the split's leaf), loaded at each commit.
  logic               d_root_q;
  logic [IdxW-1:0]    d_grp_q;
  logic [1:0]         d_col_q;
  logic [DepthW-1:0]  d_depth_q;
  logic [RangeW-1:0]  d_prefix_q;     // the leaf's prefix (the new group's parent prefix)
  logic [IdxW-1:0]    scan_a1_idx_q;  // the group scan stage A0 found in the last cycle
  logic [IdxW-1:0]    scan_b_idx_q;   // the group scan stage A1 read in the last cycle
  logic [Groups-1:0]  scan_mask_q;    // slots stage A0 may still find at this depth (thermometer)
  // Row metadata (the counters are in hwprof_rap_counter_ram).
  logic [3:0]         child_internal_q [Groups];  // child c is an internal node
  // A group's parent: the root, or a column of another group.
  typedef struct packed {
    logic            root;  // the group's parent is the root
    logic [IdxW-1:0] grp;   // else the parent's group
    logic [1:0]      col;   // and column
  } parent_t;
  // One word per group, written when the group is allocated; one read
  // port (stage A1's group), so it maps to LUT RAM on ECP5.
  parent_t            parent_q [Groups];
  parent_t            parent_a;       // stage A1's group's parent (combinational read)
  parent_t            parent_b_q;     // the same, registered for stage B

  logic in_run, in_pass, in_dump, in_twr;
  assign in_run  = ctl_q.state == StRun;
  assign in_pass = ctl_q.state == StPass;
  assign in_dump = ctl_q.state == StDump;
  assign in_twr  = ctl_q.state == StTwr;

  // ------------------------------------------------------------------ register block
  logic              clear, flush, dump_start, idle;
  logic [15:0]       eps;
  logic [ScanW-1:0]  cap_groups;
  logic [BufW-1:0]   buf_depth;
  logic [31:0]       merge_first;
  tree_events_t      tree_events;
  flow_events_t      flow_events;
  logic              buf_empty;
  hwprof_rap_regs #(.RangeW(RangeW), .Groups(Groups), .MaxBuf(MaxBuf), .BufDefault(BufDefault),
                    .CntW(CntW), .TcamSlice(TcamSlice)) u_regs (
    .clk_i, .rst_ni, .csr_we_i, .csr_addr_i, .csr_wdata_i, .csr_rdata_o,
    .clear_o(clear), .dump_start_o(dump_start), .flush_o(flush), .eps_o(eps),
    .cap_groups_o(cap_groups), .buf_depth_o(buf_depth), .merge_first_o(merge_first),
    .buf_empty_i(buf_empty), .idle_i(idle), .pass_i(in_pass), .dump_i(in_dump), .tcam_write_i(in_twr),
    .freeze_i(ctl_d.state == StPass || ctl_d.state == StTwr), .tree_n_i(ctl_q.n),
    .tree_groups_i(ctl_q.used_groups), .tree_full_i(ctl_q.full),
    .tree_events_i(tree_events), .flow_events_i(flow_events));

  // ------------------------------------------------------------------ queue and buffer
  logic               queue_valid, queue_take;
  logic [RangeW+15:0] queue_data;
  logic [$clog2(QueueDepth + 1)-1:0] unused_queue_count;
  // Block RAM read (RamRead = 1): 1024 x 48 maps to iCE40 EBR / ECP5 DP16KD.
  hwprof_fifo_sync #(.Width(RangeW + 16), .Depth(QueueDepth), .RamRead(1)) u_queue (
    .clk_i, .rst_ni, .clear_i(clear),
    .in_valid_i(ev_valid_i), .in_ready_o(ev_ready_o), .in_data_i({ev_value_i, ev_weight_i}),
    .out_valid_o(queue_valid), .out_ready_i(queue_take), .out_data_o(queue_data),
    .count_o(unused_queue_count));

  logic               buf_in_ready, buf_out_valid, buf_out_ready, buf_emit;
  logic [RangeW-1:0]  buf_out_value;
  logic [PairWtW-1:0] buf_out_weight;
  logic               adv_m, rematch_s1, rematch_m, rematch_any, adv_p, disturbed, pair_free;
  logic               rematch_s1_due_d, rematch_m_due_d;  // the re-match flags after this edge
  hwprof_rap_merge_buffer #(.MaxBuf(MaxBuf), .ValW(RangeW), .WtW(16), .PairWtW(PairWtW)) u_buf (
    .clk_i, .rst_ni, .clear_i(clear), .depth_i(buf_depth), .flush_i(flush),
    .in_valid_i(queue_valid && !in_dump), .in_ready_o(buf_in_ready),
    .in_value_i(queue_data[RangeW+15:16]), .in_weight_i(queue_data[15:0]),
    .out_valid_o(buf_out_valid), .out_ready_i(buf_out_ready),
    .out_value_o(buf_out_value), .out_weight_o(buf_out_weight), .empty_o(buf_empty));
  assign buf_out_ready = pair_free && !in_dump;
  assign queue_take = queue_valid && !in_dump && buf_in_ready;
  assign buf_emit = buf_out_valid && buf_out_ready;

  // ------------------------------------------------------------------ S0: TCAM + arbiter
  // S0 searches S1's value, then M's, in the re-match cycles after a pass,
  // else P's.
  logic [RangeW-1:0]        s0_value;
  assign s0_value = ctl_q.rematch_s1_due ? s1_value_q : (ctl_q.rematch_m_due ? m_value_q : pair_value_q);
  logic [Groups-1:0]        tcam_match, tcam_valid, tcam_sel;
  logic [Groups*DepthW-1:0] tcam_pdepth;
  logic [Groups*H-1:0]      tcam_pdepth_hot;
  logic                     arb_hit;
  logic [IdxW-1:0]          arb_idx;
  logic [DepthW-1:0]        arb_pdepth;
  logic                     tcam_set, tcam_inv, tcam_busy, tcam_last;
  logic [IdxW-1:0]          free_idx, dump_idx;
  logic                     dump_rd_valid;
  logic [DepthW-1:0]        dump_rd_pdepth;
  logic [RangeW-1:0]        dump_rd_prefix;
  if (TcamSlice == 0) begin : gen_tcam_ff
    hwprof_rap_tcam #(.RangeW(RangeW), .Groups(Groups)) u_tcam (
      .clk_i, .rst_ni, .clear_i(clear), .key_i(s0_value), .match_o(tcam_match), .pdepth_o(tcam_pdepth), .pdepth_hot_o(tcam_pdepth_hot),
      .set_i(tcam_set), .set_idx_i(free_idx), .set_pdepth_i(d_depth_q), .set_prefix_i(d_prefix_q),
      .inv_i(tcam_inv), .inv_idx_i(scan_b_idx_q),
      .rd_idx_i(dump_idx), .rd_valid_o(dump_rd_valid), .rd_pdepth_o(dump_rd_pdepth),
      .rd_prefix_o(dump_rd_prefix), .valid_o(tcam_valid), .sel_pdepth_i(ctl_q.pass_depth), .sel_o(tcam_sel));
    assign tcam_busy = 1'b0;
    assign tcam_last = 1'b0;
  end else begin : gen_tcam_ram
    // The RAM TCAM reads the key one cycle ahead: next cycle's s0_value
    // (the re-match flags of the next cycle come from registers only). With
    // P free after this edge the key is the buffer's pair whether or not it
    // is emitted (if not, P is empty next cycle and no one uses the match),
    // so the buffer's hit search never reaches the slice RAMs' addresses.
    logic [RangeW-1:0] key_next;
    assign key_next = rematch_s1_due_d ? s1_value_q :
                      (rematch_m_due_d ? m_value_q : (pair_free ? buf_out_value : pair_value_q));
    hwprof_rap_tcam_ram #(.RangeW(RangeW), .Groups(Groups), .SliceW(TcamSlice)) u_tcam (
      .clk_i, .rst_ni, .clear_i(clear), .key_next_i(key_next),
      .match_o(tcam_match), .pdepth_o(tcam_pdepth), .pdepth_hot_o(tcam_pdepth_hot),
      .set_i(tcam_set), .set_idx_i(free_idx), .set_pdepth_i(d_depth_q), .set_prefix_i(d_prefix_q),
      .inv_i(tcam_inv), .inv_idx_i(scan_b_idx_q), .busy_o(tcam_busy), .last_o(tcam_last),
      .rd_idx_i(dump_idx), .rd_valid_o(dump_rd_valid), .rd_pdepth_o(dump_rd_pdepth),
      .rd_prefix_o(dump_rd_prefix), .valid_o(tcam_valid), .sel_pdepth_i(ctl_q.pass_depth), .sel_o(tcam_sel));
  end
  hwprof_rap_arbiter #(.RangeW(RangeW), .Groups(Groups)) u_arb (
    .match_i(tcam_match), .pdepth_i(tcam_pdepth), .pdepth_hot_i(tcam_pdepth_hot), .hit_o(arb_hit), .idx_o(arb_idx), .pdepth_o(arb_pdepth));

  // The matched leaf: depth and column in its group.
  logic [DepthW-1:0] s0_depth;
  logic [1:0]        s0_col;
  assign s0_depth = arb_hit ? arb_pdepth + DepthW'(1) : '0;
  assign s0_col   = arb_hit ? s0_value[RangeW - 2 * (32'(arb_pdepth) + 1) +: 2] : 2'd0;

  // ------------------------------------------------------------------ counter SRAM
  // Port A (a row) is read at every edge: in RUN the row of M's group (S1's
  // counter when M moves; a registered address, so the arbiter's result
  // never reaches the block RAM in the same cycle), in PASS the row of stage A1's group (stage B's children), in
  // DUMP the row of the next beat. Port B: the parent of stage A1's group.
  logic              scan_hit, do_merge, do_split, cnt_we;
  logic [IdxW-1:0]   scan_hit_idx, cnt_read_row, cnt_wrow;
  logic [1:0]        cnt_wcol;
  logic [CntW-1:0]   cnt_wdata, parent_cnt_ram;
  logic [4*CntW-1:0] row_cnt;
  logic [CntW+2:0]   merge_sum;
  hwprof_rap_counter_ram #(.Groups(Groups), .CntW(CntW)) u_cnt (
    .clk_i, .rst_ni, .clear_i(clear), .zero_i(do_split), .zero_row_i(free_idx),
    .we_i(cnt_we), .wrow_i(cnt_wrow), .wcol_i(cnt_wcol), .wdata_i(cnt_wdata),
    .ra_i(cnt_read_row), .rowa_o(row_cnt), .rb_row_i(parent_a.grp),
    .rb_col_i(parent_a.col), .cntb_o(parent_cnt_ram));

  // ------------------------------------------------------------------ S1: update and split check
  logic [CntW-1:0] leaf_cnt, leaf_cnt_new, n_new, thr_cur;
  logic            commit, split_due, fits, sched_due;
  logic            split_now, skip_now, cap_start, sched_start;
  logic            d_act_d, split_fits, cap_due;
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) u_thr_cur (.eps_i(eps), .n_i(ctl_q.n), .t_o(thr_cur));
  // The split check's threshold and the pass check, computed when the pair
  // enters S1 (from M, or S1's own pair in its re-match cycle after a
  // pass): n is then the n it commits with (n + S1's weight if S1 commits
  // at the loading edge; no other commit comes between, and a pass, which
  // changes next_merge, is followed by S1's re-match). So the multiplier of
  // T(n + w) and the compare with next_merge run before S1's cycle, off the
  // path from the counter SRAM's read to the split decision.
  logic [CntW-1:0]    n_load, n_load_new, thr_load;
  logic [PairWtW-1:0] load_weight;  // the weight of the pair entering S1
  assign load_weight = rematch_s1 ? s1_weight_q : m_weight_q;
  assign n_load     = commit ? n_new : ctl_q.n;
  assign n_load_new = n_load + CntW'(load_weight);
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) u_thr_load (.eps_i(eps), .n_i(n_load_new), .t_o(thr_load));
  logic [CntW:0]   s1_thr_room_q;   // T(n + w) - w for S1's pair (negative: T < w)
  logic            s1_sched_due_q;  // n + w >= next_merge for S1's pair
  assign leaf_cnt     = s1_fresh_q ? '0 : (s1_root_q ? ctl_q.root_cnt : row_cnt[32'(s1_col_q) * CntW +: CntW]);
  assign leaf_cnt_new = leaf_cnt + CntW'(s1_weight_q);
  assign n_new        = ctl_q.n + CntW'(s1_weight_q);
  // S1 commits in RUN except in D's cycle and the re-match cycles.
  assign rematch_any  = ctl_q.rematch_s1_due || ctl_q.rematch_m_due;
  assign commit       = in_run && ctl_q.s1_valid && !ctl_q.d_act && !rematch_any;
  // count + w > T(n + w), as count > T(n + w) - w (registered at S1's
  // load): after the counter SRAM's read only one compare (one carry chain)
  // decides, not an add and a compare in series. T < w: due (count + w >=
  // w > T). Exact while n + w < 2^CntW, the engine's documented range
  // (asserted below).
  assign split_due    = 32'(s1_depth_q) < H && (s1_thr_room_q[CntW] || leaf_cnt > s1_thr_room_q[CntW-1:0]);
  assign fits         = ctl_q.used_groups < cap_groups;
  assign sched_due    = s1_sched_due_q;
  assign split_fits   = split_due && fits;
  assign cap_due      = split_due && !fits && !ctl_q.full;
  assign skip_now     = commit && split_due && !fits && ctl_q.full;
  // The decision is registered (stage D): it reaches four flip-flops, never
  // the stream's moves in its own cycle. In D's cycle (the next) nothing
  // moves: the split is made, or the pass or TCAM write starts at its edge.
  assign d_act_d      = commit && (split_fits || cap_due || sched_due);
  assign split_now    = ctl_q.d_act && ctl_q.d_split;
  assign cap_start    = ctl_q.d_act && ctl_q.d_cap;
  assign sched_start  = ctl_q.d_act && !ctl_q.d_cap && ctl_q.d_sched;
  assign disturbed    = ctl_q.d_act;
  // The first two RUN cycles after a pass that a commit started re-match
  // S1's pair, then M's (S0 searches its value; nothing moves), whether S1
  // and M hold pairs or not: two counted cycles per such pass, independent
  // of the stream's timing.
  assign rematch_s1   = in_run && !disturbed && ctl_q.rematch_s1_due;
  assign rematch_m    = in_run && !disturbed && !ctl_q.rematch_s1_due && ctl_q.rematch_m_due;
  assign rematch_s1_due_d = (ctl_q.rematch_s1_due && !rematch_s1) || cap_start || sched_start;
  assign rematch_m_due_d  = (ctl_q.rematch_m_due && !rematch_m) || cap_start || sched_start;
  assign adv_m        = in_run && !disturbed && !rematch_any && ctl_q.m_valid;
  assign adv_p        = in_run && !disturbed && !rematch_any && ctl_q.pair_valid && (!ctl_q.m_valid || adv_m);
  assign pair_free    = !ctl_q.pair_valid || adv_p;
  // A split corrects the pairs matched before it: S1's and M's, when their
  // leaf is the split leaf (D's), now lie in the new group (the deepest
  // match), in the child their value selects at the new depth. S1's count
  // is then 0 (the new row; the row read at this edge is the old one).
  logic s1_fix, m_fix;
  assign s1_fix = split_now && ctl_q.s1_valid &&
                  (s1_root_q ? d_root_q : (!d_root_q && s1_grp_q == d_grp_q && s1_col_q == d_col_q));
  assign m_fix  = split_now && ctl_q.m_valid &&
                  (m_root_q ? d_root_q : (!d_root_q && m_grp_q == d_grp_q && m_col_q == d_col_q));

  // ------------------------------------------------------------------ merge pass scan
  // Three stages. A0 (every pass cycle): find the lowest valid group with
  // parent depth pass_depth still in the scan mask, register it and take it
  // (and every slot below it) out of the mask. A1 (the next cycle): read its
  // row (port A), its parent's location (LUT RAM) and its parent's counter
  // (port B). B (the cycle after): merge it if its children are leaves and
  // parent + children <= T(n). The mask is a thermometer, so the loop
  // A0 -> mask is an AND and one carry chain (no index compares). Stage B's
  // write (a counter at depth d) never feeds stage A1's read in the same
  // edge (children at depth d + 1, another parent at depth d); the cycle in
  // which A0 finds none moves to depth d - 1 (mask all ones again), so the
  // next level's first A1 read comes two edges after the level's last A1
  // and one after its last write. After depth 0 one drain cycle runs stage
  // B of the last group: a pass is groups + H + 1 cycles.
  logic              merge_ok, pass_end, cap_end, split_after;
  logic [CntW-1:0]   parent_cnt;
  logic [ScanW-1:0]  used_after_merge;
  logic [IdxW-1:0]   parent_grp_b;
  logic [1:0]        parent_col_b;
  logic              parent_root_b;
  logic [Groups-1:0] scan_req, scan_taken, scan_mask_d;
  assign scan_req = tcam_sel & scan_mask_q;
  // The lowest requesting slot and every slot below it (all ones when none).
  assign scan_taken = scan_req ^ (scan_req - Groups'(1));
  hwprof_lzc #(.N(Groups)) u_scan_pick (.in_i(scan_req), .idx_o(scan_hit_idx), .valid_o(scan_hit));
  always_comb begin
    if (!in_pass) scan_mask_d = '1;
    else if (scan_hit) scan_mask_d = scan_mask_q & ~scan_taken;
    else if (ctl_q.pass_depth != '0 || ctl_q.pass_drain) scan_mask_d = '1;  // next depth or pass end
    else scan_mask_d = scan_mask_q;  // the drain cycle finds none either
  end
  // Stage B's parent, read by stage A1: no parent word is written while a
  // pass scans (splits are in RUN, or at the pass's last cycle, which has
  // no stage A1), so the registered copy equals the word at scan_b_idx_q.
  assign parent_a      = parent_q[scan_a1_idx_q];
  assign parent_grp_b  = parent_b_q.grp;
  assign parent_col_b  = parent_b_q.col;
  assign parent_root_b = parent_b_q.root;
  assign parent_cnt = parent_root_b ? ctl_q.root_cnt : parent_cnt_ram;
  assign merge_sum = (CntW + 3)'(parent_cnt) + (CntW + 3)'(row_cnt[0 +: CntW]) +
                     (CntW + 3)'(row_cnt[CntW +: CntW]) + (CntW + 3)'(row_cnt[2*CntW +: CntW]) +
                     (CntW + 3)'(row_cnt[3*CntW +: CntW]);
  assign merge_ok  = child_internal_q[scan_b_idx_q] == 4'b0 && merge_sum <= (CntW + 3)'(thr_cur);
  assign do_merge  = in_pass && ctl_q.scan_b_valid && merge_ok;
  assign pass_end  = in_pass && ctl_q.pass_drain;
  assign cap_end   = pass_end && ctl_q.pass_is_cap;
  assign used_after_merge = ctl_q.used_groups - ScanW'(do_merge);
  // The last cycle of a capacity pass (the drain) runs stage B of a depth-0
  // group (the root's children) if any; it cannot merge: the leaf waiting to split has
  // count > T(n), and it is either one of those children or below one
  // (asserted below). So `fits` and the valid bits already count every
  // group the pass freed.
  assign split_after = cap_end && fits;

  // Allocation: the lowest free group, picked one cycle ahead and
  // registered, so the 127-entry pick never feeds the TCAM flags' write
  // decode, the counter row's zero or the parent word in the same cycle.
  // Exact: the valid bits never change at the edge before a split (D's
  // split follows a commit; a capacity pass's drain cycle follows a cycle
  // whose stage B holds no group: the empty A0 cycle of depth 1), asserted
  // below (free_pick_current).
  logic unused_free_any;
  logic [IdxW-1:0] free_pick, free_idx_q;
  hwprof_lzc #(.N(Groups)) u_free_pick (.in_i(~tcam_valid), .idx_o(free_pick), .valid_o(unused_free_any));
  always_ff @(posedge clk_i) free_idx_q <= free_pick;  // no reset: used only at a split, cycles after any reset
  assign free_idx = free_idx_q;
  assign do_split = split_now || split_after;
  assign tcam_set = do_split && !clear;
  assign tcam_inv = do_merge && !clear;

  // Counter writes: the S1 commit (RUN) or a merge into a non-root parent (PASS).
  assign cnt_we    = (commit && !s1_root_q) || (do_merge && !parent_root_b);
  assign cnt_wrow  = commit ? s1_grp_q : parent_grp_b;
  assign cnt_wcol  = commit ? s1_col_q : parent_col_b;
  assign cnt_wdata = commit ? leaf_cnt_new : CntW'(merge_sum);

  // next_merge: doubled until it exceeds n (saturating at all ones), in
  // closed form rather than as CntW + 1 compares in series (that chain set a
  // 3 MHz clock on the ULX3S build): shift next_merge left until its leading
  // one meets n's; every shorter shift is below 2^msb(n) <= n. If the aligned
  // value still does not exceed n, one more doubling does (or saturates when
  // n's top bit is set). A zero next_merge stays zero (doubling 0 is 0).
  localparam int unsigned CntIdxW = $clog2(CntW);
  logic [CntIdxW-1:0] nm_msb, n_msb, nm_shift;
  logic               nm_any, n_any;
  logic [CntW-1:0]    nm_aligned, next_merge_doubled;
  hwprof_lzc #(.N(CntW), .HighFirst(1)) u_nm_msb (.in_i(ctl_q.next_merge), .idx_o(nm_msb), .valid_o(nm_any));
  hwprof_lzc #(.N(CntW), .HighFirst(1)) u_n_msb (.in_i(ctl_q.n), .idx_o(n_msb), .valid_o(n_any));
  assign nm_shift   = n_msb - nm_msb;
  assign nm_aligned = ctl_q.next_merge << nm_shift;
  always_comb begin
    if (!nm_any || ctl_q.next_merge > ctl_q.n) next_merge_doubled = ctl_q.next_merge;
    else if (nm_aligned > ctl_q.n)             next_merge_doubled = nm_aligned;
    else if (nm_aligned[CntW-1])               next_merge_doubled = '1;
    else                                       next_merge_doubled = {nm_aligned[CntW-2:0], 1'b0};
  end
  logic unused_n_any;
  assign unused_n_any = n_any;

  assign idle = in_run && !ctl_q.d_act && !ctl_q.s1_valid && !ctl_q.m_valid && !ctl_q.pair_valid && buf_empty && !flush && !queue_valid;

  // ------------------------------------------------------------------ controller
  // A pass starts at the deepest parent depth.
  function automatic ctl_t start_pass(ctl_t c, logic is_cap);
    c.state = StPass;
    c.pass_is_cap = is_cap;
    c.pass_depth = DepthW'(H - 1);
    c.pass_drain = 1'b0;
    return c;
  endfunction

  always_comb begin
    ctl_d = ctl_q;
    // 1. Controller.
    if (commit) ctl_d.n = n_new;
    ctl_d.d_act = d_act_d;
    ctl_d.d_split = split_fits;
    ctl_d.d_cap = cap_due;
    ctl_d.d_sched = sched_due;
    if (cap_start) begin
      ctl_d = start_pass(ctl_d, 1'b1);
      ctl_d.sched_pending = ctl_q.d_sched;
    end else if (split_now && TcamSlice != 0) begin
      // The RAM TCAM's write first, then the scheduled pass if it is due.
      ctl_d.state = StTwr;
      ctl_d.sched_pending = ctl_q.d_sched;
    end else if (sched_start) begin
      ctl_d = start_pass(ctl_d, 1'b0);
    end
    if (in_twr && tcam_last) begin
      ctl_d.state = StRun;
      if (ctl_q.sched_pending) begin
        ctl_d = start_pass(ctl_d, 1'b0);
        ctl_d.sched_pending = 1'b0;
      end
    end
    if (in_pass) begin
      if (scan_hit) begin
        // stage A0 found a group (the mask moves past it)
      end else if (ctl_q.pass_depth != '0) begin
        ctl_d.pass_depth = ctl_q.pass_depth - DepthW'(1);
      end else if (!ctl_q.pass_drain) begin
        ctl_d.pass_drain = 1'b1;
      end else if (ctl_q.pass_is_cap) begin
        if (!fits) ctl_d.full = 1'b1;
        if (split_after && TcamSlice != 0) ctl_d.state = StTwr;  // the scheduled pass (if pending) follows the write
        else if (ctl_q.sched_pending) ctl_d = start_pass(ctl_d, 1'b0);
        else ctl_d.state = StRun;
      end else begin
        ctl_d.full = 1'b0;
        ctl_d.next_merge = next_merge_doubled;
        ctl_d.state = StRun;
      end
    end
    if (in_dump && dump_ready_i) begin
      if (ctl_q.beat == ScanW'(Groups)) ctl_d.state = StRun;
      else ctl_d.beat = ctl_q.beat + ScanW'(1);
    end
    ctl_d.used_groups = used_after_merge + ScanW'(do_split);
    ctl_d.scan_a1_valid = in_pass && scan_hit;
    ctl_d.scan_b_valid = ctl_q.scan_a1_valid;
    if (pass_end) ctl_d.pass_drain = 1'b0;
    // Root counter: the S1 commit or a merge into the root.
    if (commit && s1_root_q) ctl_d.root_cnt = leaf_cnt_new;
    else if (do_merge && parent_root_b) ctl_d.root_cnt = CntW'(merge_sum);
    // P, M and S1.
    ctl_d.pair_valid = (ctl_q.pair_valid && !adv_p) || buf_emit;
    ctl_d.m_valid = (ctl_q.m_valid && !adv_m) || adv_p;
    ctl_d.rematch_s1_due = rematch_s1_due_d;
    ctl_d.rematch_m_due = rematch_m_due_d;
    ctl_d.s1_valid = adv_m || (ctl_q.s1_valid && !commit);
    // 4. Register writes: a dump starts (idle only).
    if (dump_start) begin
      ctl_d.state = StDump;
      ctl_d.beat = '0;
    end
    if (clear) begin
      ctl_d = CtlReset;
      ctl_d.next_merge = CntW'(merge_first);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ctl_q <= CtlReset;
    else ctl_q <= ctl_d;
  end

  // Statistics events of this cycle.
  assign tree_events = '{pairs: commit, splits: do_split, skipped: skip_now || (cap_end && !fits),
                         sched_passes: pass_end && !ctl_q.pass_is_cap, cap_passes: cap_end,
                         merges: do_merge};
  assign flow_events = '{raw: queue_take, stall_flush: disturbed || rematch_s1 || rematch_m, stall_cap: in_pass && ctl_q.pass_is_cap,
                         stall_sched: in_pass && !ctl_q.pass_is_cap, in_stall: ev_valid_i && !ev_ready_o,
                         stall_tcam: in_twr};

  // Data registers without reset.
  always_ff @(posedge clk_i) begin
    if (buf_emit) begin
      pair_value_q <= buf_out_value;
      pair_weight_q <= buf_out_weight;
    end
    if (adv_p) begin
      m_value_q <= pair_value_q;
      m_weight_q <= pair_weight_q;
    end
    if (adv_p || rematch_m) begin
      m_root_q <= !arb_hit;
      m_grp_q <= arb_idx;
      m_col_q <= s0_col;
      m_depth_q <= s0_depth;
    end else if (m_fix) begin
      m_root_q <= 1'b0;
      m_grp_q <= free_idx;
      m_col_q <= m_value_q[RangeW - 2 * (32'(d_depth_q) + 1) +: 2];
      m_depth_q <= d_depth_q + DepthW'(1);
    end
    if (adv_m) begin
      s1_root_q <= m_root_q;
      s1_grp_q <= m_grp_q;
      s1_col_q <= m_col_q;
      s1_depth_q <= m_depth_q;
      s1_value_q <= m_value_q;
      s1_weight_q <= m_weight_q;
      s1_fresh_q <= 1'b0;
    end else if (rematch_s1) begin
      s1_root_q <= !arb_hit;
      s1_grp_q <= arb_idx;
      s1_col_q <= s0_col;
      s1_depth_q <= s0_depth;
      s1_fresh_q <= 1'b0;
    end else if (s1_fix) begin
      s1_root_q <= 1'b0;
      s1_grp_q <= free_idx;
      s1_col_q <= s1_value_q[RangeW - 2 * (32'(d_depth_q) + 1) +: 2];
      s1_depth_q <= d_depth_q + DepthW'(1);
      s1_fresh_q <= 1'b1;
    end
    if (adv_m || rematch_s1) begin
      s1_thr_room_q <= {1'b0, thr_load} - {1'b0, CntW'(load_weight)};
      s1_sched_due_q <= n_load_new >= ctl_q.next_merge;
    end
    if (commit) begin
      d_root_q <= s1_root_q;
      d_grp_q <= s1_grp_q;
      d_col_q <= s1_col_q;
      d_depth_q <= s1_depth_q;
      d_prefix_q <= s1_value_q & RangeW'(prefix_mask(RangeW, 32'(s1_depth_q)));
    end
    scan_a1_idx_q <= scan_hit_idx;
    scan_b_idx_q <= scan_a1_idx_q;
    parent_b_q <= parent_a;
    scan_mask_q <= scan_mask_d;
  end

  // Row metadata (the counters are in u_cnt). The parent location of a
  // group is written when it is allocated.
  always_ff @(posedge clk_i) begin
    if (!clear && do_split) parent_q[free_idx] <= '{root: d_root_q, grp: d_grp_q, col: d_col_q};
  end

  // "Child is internal" bits: a split sets its leaf's bit in the leaf's
  // group, a merge clears its group's bit in the parent's group, a clear
  // (and reset) clears every bit. A free group's bits are all zero (it was
  // freed by a merge, which needs them zero, or by a clear), so a split
  // need not zero its new group's bits. Merges and splits never share an
  // edge (no_merge_at_cap_end; a commit's split is in RUN), so one column
  // decode serves both and each bit's next value is one 4-input function:
  // (q and not (clr_row and col)) or (set_row and col).
  logic [3:0]             ci_col;
  logic [Groups-1:0]      ci_set_row, ci_clr_row;
  logic [3:0]             child_internal_d [Groups];
  always_comb begin
    for (int unsigned c = 0; c < 4; c++)
      ci_col[c] = clear || (do_split ? d_col_q == 2'(c) : parent_col_b == 2'(c));
    for (int unsigned g = 0; g < Groups; g++) begin
      ci_set_row[g] = !clear && do_split && !d_root_q && d_grp_q == IdxW'(g);
      ci_clr_row[g] = clear || (do_merge && !parent_root_b && parent_grp_b == IdxW'(g));
      for (int unsigned c = 0; c < 4; c++)
        child_internal_d[g][c] = (child_internal_q[g][c] && !(ci_clr_row[g] && ci_col[c])) ||
                                 (ci_set_row[g] && ci_col[c]);
    end
  end
  // The invariant that lets a split skip zeroing its new group's bits
  // (asserted below and in the formal flow; no logic in synthesis).
  logic ci_free_dirty;
  always_comb begin
    ci_free_dirty = 1'b0;
    for (int unsigned g = 0; g < Groups; g++)
      if (!tcam_valid[g] && child_internal_q[g] != 4'b0) ci_free_dirty = 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) child_internal_q <= '{default: '0};
    else child_internal_q <= child_internal_d;
  end

  // ------------------------------------------------------------------ dump
  // The row and TCAM entry of beat b (slot b - 1) are read at the edge that
  // enters beat b (the slot of the next beat).
  logic root_beat;
  assign root_beat = ctl_q.beat == '0;
  assign dump_idx = (ctl_d.beat == '0) ? '0 : IdxW'(ctl_d.beat - ScanW'(1));
  // In RUN and TWR: M's row at the edge M moves to S1, else S1's (S1 waits
  // through D's cycle, a TCAM write, a pass and its re-matches).
  assign cnt_read_row = in_dump ? dump_idx : (in_pass ? scan_a1_idx_q : (adv_m ? m_grp_q : s1_grp_q));
  assign dump_valid_o = in_dump;
  assign dump_last_o = in_dump && ctl_q.beat == ScanW'(Groups);
  assign dump_slot_valid_o = root_beat || dump_rd_valid;
  assign dump_depth_o = root_beat ? '0 : dump_rd_pdepth + DepthW'(1);
  assign dump_prefix_o = root_beat ? '0 : dump_rd_prefix;
  assign dump_cnt0_o = root_beat ? ctl_q.root_cnt : row_cnt[0 +: CntW];
  assign dump_cnt1_o = root_beat ? '0 : row_cnt[CntW +: CntW];
  assign dump_cnt2_o = root_beat ? '0 : row_cnt[2*CntW +: CntW];
  assign dump_cnt3_o = root_beat ? '0 : row_cnt[3*CntW +: CntW];

`ifdef FORMAL
  // ------------------------------------------------------------------ formal (make formal)
  // formal/rap_engine.sby with formal/hwprof_rap_engine_fv.sv (free inputs,
  // reset in the first cycle; docs/verification.md "RAP engine"). No effect
  // on simulation or synthesis. A shadow of the counter SRAM written with
  // the same clear, zero and write commands ties the RAM's read ports to it;
  // on the shadow:
  //   * conservation: the root counter plus every counter of every valid
  //     group equals n at every edge (each commit adds w to one counter and
  //     to n; a split adds a zeroed row; a merge moves the children's sum
  //     into the parent and frees the row, so a merge keeps the sum);
  //   * every event accepted at the ingress is counted once: n never
  //     exceeds the accepted weight, and equals it whenever the engine is
  //     idle (the queue, buffer, P and S1 empty);
  //   * no merge into the root: when the root's group is examined with four
  //     leaf children it is the only group, so its merge sum is n (by the
  //     conservation), and T(n) < n (formal/rap_threshold.sby);
  //   * the event queue's handshake (hwprof_fv_queue_ref): ev_ready_o = not
  //     full, exact occupancy, two tracked events leave the queue with their
  //     data, in order, after exactly the events ahead of them.
  logic fv_init_q = 1'b1;
  always_ff @(posedge clk_i) fv_init_q <= 1'b0;
  logic fv_check;
  assign fv_check = rst_ni && !fv_init_q;

  logic [CntW-1:0] fv_cnt_q [Groups][4];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned g = 0; g < Groups; g++) for (int unsigned c = 0; c < 4; c++) fv_cnt_q[g][c] <= '0;
    end else if (clear) begin
      for (int unsigned g = 0; g < Groups; g++) for (int unsigned c = 0; c < 4; c++) fv_cnt_q[g][c] <= '0;
    end else begin
      for (int unsigned g = 0; g < Groups; g++) begin
        for (int unsigned c = 0; c < 4; c++) begin
          if (cnt_we && cnt_wrow == IdxW'(g) && cnt_wcol == 2'(c)) fv_cnt_q[g][c] <= cnt_wdata;
          else if (do_split && free_idx == IdxW'(g)) fv_cnt_q[g][c] <= '0;
        end
      end
    end
  end

  // Written since the last zero (reset, clear, the row's zero): port B
  // reads only such counters (hwprof_rap_counter_ram header).
  logic fv_wr_q [Groups][4];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned g = 0; g < Groups; g++) for (int unsigned c = 0; c < 4; c++) fv_wr_q[g][c] <= 1'b0;
    end else if (clear) begin
      for (int unsigned g = 0; g < Groups; g++) for (int unsigned c = 0; c < 4; c++) fv_wr_q[g][c] <= 1'b0;
    end else begin
      for (int unsigned g = 0; g < Groups; g++) begin
        for (int unsigned c = 0; c < 4; c++) begin
          if (cnt_we && cnt_wrow == IdxW'(g) && cnt_wcol == 2'(c)) fv_wr_q[g][c] <= 1'b1;
          else if (do_split && free_idx == IdxW'(g)) fv_wr_q[g][c] <= 1'b0;
        end
      end
    end
  end

  // The read ports against the shadow (write first: the shadow after the
  // edge that read).
  logic [IdxW-1:0] fv_ra_q, fv_rb_row_q;
  logic [1:0]      fv_rb_col_q;
  always_ff @(posedge clk_i) begin
    fv_ra_q <= cnt_read_row;
    fv_rb_row_q <= parent_a.grp;
    fv_rb_col_q <= parent_a.col;
  end

  logic fv_merge_q, fv_commit_q;
  logic [IdxW-1:0] fv_grp_q;
  logic [1:0] fv_col_q;
  always_ff @(posedge clk_i) begin
    fv_merge_q <= do_merge;
    fv_commit_q <= commit && !s1_root_q;
    fv_grp_q <= s1_grp_q;
    fv_col_q <= s1_col_q;
  end

  logic [CntW+7:0] fv_sum;
  always_comb begin
    fv_sum = (CntW + 8)'(ctl_q.root_cnt);
    for (int unsigned g = 0; g < Groups; g++)
      if (tcam_valid[g])
        for (int unsigned c = 0; c < 4; c++) fv_sum = fv_sum + (CntW + 8)'(fv_cnt_q[g][c]);
  end

  // Weight accepted at the ingress since the last reset or clear (the event
  // taken in a clear's cycle is dropped).
  logic [CntW+7:0] fv_in_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_in_q <= '0;
    else if (clear) fv_in_q <= '0;
    else if (ev_valid_i && ev_ready_o) fv_in_q <= fv_in_q + (CntW + 8)'(ev_weight_i);
  end

  always_comb begin
    if (fv_check) begin
      if (32'(fv_ra_q) < Groups)
        for (int unsigned c = 0; c < 4; c++) assert (row_cnt[c*CntW +: CntW] == fv_cnt_q[fv_ra_q][c]);
      // Port B is read where stage B uses it: a written counter, equal to
      // the shadow.
      if (in_pass && ctl_q.scan_b_valid && !parent_root_b) begin
        assert (32'(fv_rb_row_q) < Groups);
        if (32'(fv_rb_row_q) < Groups) begin
          assert (fv_wr_q[fv_rb_row_q][fv_rb_col_q]);
          assert (parent_cnt_ram == fv_cnt_q[fv_rb_row_q][fv_rb_col_q]);
        end
      end
      assert (fv_sum == (CntW + 8)'(ctl_q.n));
      assert ((CntW + 8)'(ctl_q.n) <= fv_in_q);
      if (idle) assert ((CntW + 8)'(ctl_q.n) == fv_in_q);
      // The root's group, its children all leaves, is the only group: its
      // merge sum is then n (conservation), above T(n) (rap_threshold flow):
      // no merge into the root.
      if (in_pass && ctl_q.scan_b_valid && parent_root_b && child_internal_q[scan_b_idx_q] == 4'b0)
        assert ($countones(tcam_valid) == 1 && tcam_valid[scan_b_idx_q]);
      assert (32'(ctl_q.used_groups) == $countones(tcam_valid));
      assert (!ci_free_dirty);
      // Stage B's registered parent is the word at its group.
      if (ctl_q.scan_b_valid) assert (parent_b_q == parent_q[scan_b_idx_q]);
      // The registered free pick is the current one at every split.
      if (do_split) assert (free_idx == free_pick);
      // Reachability (formal/rap_engine.sby cover task, 16 cycles): a split,
      // a whole dump, two commits on one counter in a row (forwarding), a
      // merge, capacity exhaustion (a capacity pass that frees nothing, the
      // split skipped), a skip while full, a capacity pass that frees a group
      // for its split, a scheduled pass ending (next_merge doubles), doubling
      // more than once at one pass end, a scheduled pass right after a
      // capacity pass, the split's fix-up of S1 and of M, S1's re-match
      // with a pair.
      cover (do_split);
      cover (dump_last_o && dump_ready_i);
      cover (commit && fv_commit_q && !s1_root_q && s1_grp_q == fv_grp_q && s1_col_q == fv_col_q);
      cover (do_merge);
      cover (cap_end && !fits);
      cover (skip_now);
      cover (split_after);
      cover (pass_end && !ctl_q.pass_is_cap);
      cover (pass_end && !ctl_q.pass_is_cap && next_merge_doubled > {ctl_q.next_merge[CntW-2:0], 1'b0});
      cover (in_pass && ctl_q.pass_is_cap && pass_end && ctl_q.sched_pending);
      cover (s1_fix);
      cover (m_fix);
      cover (rematch_s1 && ctl_q.s1_valid);
`ifdef HWPROF_FV_RAP_DEEP
      // Two merges in a row (a cascade): with Groups = 2 and RangeW = 4 the
      // second would be a merge into the root, so a deeper run
      // (-D HWPROF_FV_RAP_DEEP, 18 cycles) reports it unreached.
      cover (do_merge && fv_merge_q);
`endif
    end
  end

  // The event queue (hwprof_fifo_sync) against the shared queue reference;
  // the solver picks the two tracked events.
  (* anyseq *) logic fv_track_a;
  (* anyseq *) logic fv_track_b;
  logic [$clog2(QueueDepth + 1):0] unused_fv_occ;
  hwprof_fv_queue_ref #(.Width(RangeW + 16), .Depth(QueueDepth)) u_fv_queue (
    .clk_i, .flush_i(!rst_ni || clear), .check_i(fv_check),
    .push_i(ev_valid_i && ev_ready_o), .push_data_i({ev_value_i, ev_weight_i}), .pop_i(queue_take),
    .track_a_i(fv_track_a), .track_b_i(fv_track_b),
    .count_i(unused_queue_count), .in_ready_i(ev_ready_o), .out_valid_i(queue_valid),
    .out_data_i(queue_data), .occ_o(unused_fv_occ));
`endif

  `HWPROF_ASSERT(used_le_cap, ctl_q.used_groups <= ScanW'(Groups))
  `HWPROF_ASSERT(no_split_without_room, !do_split || !tcam_valid[free_idx])
  `HWPROF_ASSERT(free_pick_current, !do_split || free_idx == free_pick)
  `HWPROF_ASSERT(no_merge_at_cap_end, !(cap_end && do_merge))
  `HWPROF_ASSERT(twr_iff_tcam_busy, in_twr == tcam_busy)
  `HWPROF_ASSERT(stage_a1_in_pass, !ctl_q.scan_a1_valid || in_pass)
  `HWPROF_ASSERT(stage_b_in_pass, !ctl_q.scan_b_valid || in_pass)
  `HWPROF_ASSERT(drain_finds_none, !(in_pass && ctl_q.pass_drain && scan_hit))
  `HWPROF_ASSERT(drain_after_depth_0, !ctl_q.pass_drain || (in_pass && ctl_q.pass_depth == '0 && !ctl_q.scan_a1_valid))
  `HWPROF_ASSERT(merge_and_split_apart, !(do_merge && do_split))
  `HWPROF_ASSERT(free_group_has_no_internal_children, !ci_free_dirty)
`ifndef SYNTHESIS
  // The split check is count + w > T(n + w) wherever n + w does not wrap,
  // and the pass check n + w >= next_merge, with the n of the commit (a
  // second threshold unit, simulation only).
  logic [CntW-1:0] thr_new;
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) u_thr_new (.eps_i(eps), .n_i(n_new), .t_o(thr_new));
  logic split_due_sum;
  assign split_due_sum = 32'(s1_depth_q) < H && leaf_cnt_new > thr_new;
  `HWPROF_ASSERT(split_due_is_sum_compare, !commit || n_new < ctl_q.n || split_due == split_due_sum)
  `HWPROF_ASSERT(sched_due_at_commit, !commit || sched_due == (n_new >= ctl_q.next_merge))
  // Stage B's registered parent is the word at its group (no parent write
  // while a pass scans). A second read port, simulation only.
  parent_t parent_b_cur;
  assign parent_b_cur = parent_q[scan_b_idx_q];
  `HWPROF_ASSERT(stage_b_parent_current, !ctl_q.scan_b_valid || parent_b_q == parent_b_cur)
  // Port B of the counter SRAM is undefined for a zeroed counter not written
  // since (its header); stage B uses it only at a live group's parent
  // counter, which the group's split wrote.
  `HWPROF_ASSERT(parent_counter_written,
                 in_pass && ctl_q.scan_b_valid && !parent_root_b |-> !u_cnt.cntb_zeroed_q)
  // Nor does port B forward a write of the read's edge: a pass writes only
  // merged parents: nodes of the same depth as stage A1's parent, never it.
  `HWPROF_ASSERT(parent_counter_not_written_at_read,
                 in_pass && ctl_q.scan_b_valid && !parent_root_b |-> !u_cnt.cntb_collide_q)
`endif

endmodule

`default_nettype wire
