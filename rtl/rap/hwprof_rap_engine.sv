// hwprof_rap_engine: the range-adaptive profiling engine of docs/hwprof_rap_engine.md
// (paper 001 sections 3-4, Fig. 6; spec 4.1-4.2). Takes one raw event
// (value, weight) per clock, merges repeats in the merging buffer and keeps
// the RAP tree of docs/rap.md, bit-exact with RapTree fed with the buffer's
// pairs. The cycle behaviour is RapEngine::step (sim_models/rap/hwprof_rap_engine.h).
//
// Datapath (one pair per clock in the update stream):
//   ingress -> hwprof_rap_event_queue (QueueDepth raw events) -> hwprof_rap_merge_buffer
//   -> P (pair register) -> S0: hwprof_rap_tcam search + hwprof_rap_arbiter (longest
//   prefix = the matched leaf) -> S1: counter read-modify-write, n += w,
//   hwprof_rap_threshold, split check, merge check (controller).
// The tree: the root counter plus Groups child groups; a group is the four
// children of one internal node, stored in one TCAM entry {parent depth,
// parent prefix} and one counter row (four counters, four "child is
// internal" bits, the parent's location). A split allocates the lowest free
// group; a merge frees the group.
//
// Edge order (RapEngine::step):
//   0. CMD.clear wins over everything: staged parameters are applied and the
//      tree, queue, buffer, P, S1, counters and controller are reset;
//   1. controller: RUN: the pair in S1 commits: counter += w, n += w; split
//      (if due and a group is free), skip (due, none free, full set), or a
//      capacity pass (due, none free, full clear); then the scheduled pass if
//      n >= next_merge. A commit that splits or starts a pass "disturbs": the
//      S0 match of this cycle is discarded and replayed next cycle. PASS: one
//      scan step (below). DUMP: one beat per dump_ready_i;
//   2. S0: P moves to S1 (RUN and not disturbed);
//   3. buffer: FLUSH mode moves the oldest entry into P, else the queue head
//      enters the buffer (an emitted pair needs P free after step 2); frozen
//      during DUMP; FLUSH mode ends after a cycle that began with the buffer
//      empty;
//   4. register writes; 5. the ingress push; 6. the register port's tree
//      counters (shadows) are copied from the live ones unless the next state
//      is PASS.
// Merge pass (spec 4.1): parent depths d = H-1 down to 0; per d, each cycle
// finds the lowest valid group with parent depth d at or above the scan
// index, merges it when its four children are leaves and parent + children
// <= T(n), and moves the index past it; the cycle that finds none moves to
// d-1 (or ends the pass at d = 0). Cycles per pass: groups at the start + H.
// A capacity pass ends by doing the pending split (if a group is now free)
// or by setting full and counting the skip; then the scheduled pass if it
// was due. The scheduled pass ends by clearing full and doubling next_merge
// until it exceeds n (saturating at 2^CntW - 1).
//
// Registers (reads combinational from the state before the edge): data/regs/rap.json
// (generated: hwprof_rap_reg_pkg, docs/rap_engine.md, "Registers").
// Dump (CMD.dump): Groups + 1 beats on dump_*: beat 0 the root (count in
// dump_cnt0_o), beat 1 + s group slot s (dump_slot_valid_o low: free slot).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rap_engine #(
  /// Value width W (2, 4, 8, 16 or 32).
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

  localparam int unsigned H = RangeW / 2;
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1;
  localparam int unsigned ScanW = $clog2(Groups + 1);
  localparam int unsigned BufW = $clog2(MaxBuf + 1);
  localparam int unsigned PairWtW = 32;
  localparam int unsigned CapMax = 4 * Groups + 4;
  localparam logic [31:0] BufReset = (BufDefault < MaxBuf) ? BufDefault : MaxBuf;

  initial begin
    if (Groups < 1 || Groups > 4095) $fatal(1, "hwprof_rap_engine: Groups must be 1..4095");
    if (MaxBuf < 1 || MaxBuf > 15) $fatal(1, "hwprof_rap_engine: MaxBuf must be 1..15");
    if (CntW < 33 || CntW > 64) $fatal(1, "hwprof_rap_engine: CntW must be 33..64");
    if (TcamSlice > 8 || (TcamSlice != 0 && RangeW % TcamSlice != 0))
      $fatal(1, "hwprof_rap_engine: TcamSlice must be 0 or 1..8 dividing RangeW");
  end

  typedef enum logic [1:0] {StRun = 2'd0, StPass = 2'd1, StDump = 2'd2, StTwr = 2'd3} state_e;

  function automatic logic [RangeW-1:0] mask_of(logic [DepthW-1:0] d);
    return ~({RangeW{1'b1}} >> (2 * 32'(d)));
  endfunction
  function automatic logic [31:0] sat_inc(logic [31:0] x);
    return (x == '1) ? x : x + 32'd1;
  endfunction

  // ------------------------------------------------------------------ state
  state_e            st_q, st_d;
  logic              err_q, err_d;
  logic              flush_q, flush_d;
  // Staged parameters and the ones in use.
  logic [15:0]       st_eps_q, st_eps_d;
  logic [31:0]       st_cap_q, st_cap_d;
  logic [31:0]       st_mf_q, st_mf_d;
  logic [BufW-1:0]   st_buf_q, st_buf_d;
  logic [15:0]       eps_q;
  logic [ScanW-1:0]  capg_q;
  logic [BufW-1:0]   bufd_q;
  // Tree scalars.
  logic [CntW-1:0]   n_q, n_d;
  logic [CntW-1:0]   nm_q, nm_d;
  logic              full_q, full_d;
  logic [ScanW-1:0]  used_q, used_d;
  logic [CntW-1:0]   root_cnt_q;
  // Pipeline.
  logic              p_valid_q;
  logic [RangeW-1:0] p_value_q;
  logic [PairWtW-1:0] p_weight_q;
  logic              s1_valid_q;
  logic              s1_root_q;
  logic [IdxW-1:0]   s1_grp_q;
  logic [1:0]        s1_col_q;
  logic [DepthW-1:0] s1_depth_q;
  logic [RangeW-1:0] s1_prefix_q;
  logic [PairWtW-1:0] s1_weight_q;
  // Pass and dump.
  logic              pass_cap_q, pass_cap_d;
  logic              pend_sched_q, pend_sched_d;
  logic [DepthW-1:0] pass_d_q, pass_d_d;
  logic [ScanW-1:0]  scan_q, scan_d;
  logic [ScanW-1:0]  beat_q, beat_d;
  // Row metadata (the counters are in hwprof_rap_counter_ram).
  logic [3:0]        kids_q [Groups];
  logic              par_root_q [Groups];
  logic [IdxW-1:0]   par_idx_q [Groups];
  logic [1:0]        par_col_q [Groups];
  // Statistics (32-bit saturating) and the register port's shadows.
  logic [31:0] raw_q, raw_d, pairs_q, pairs_d, splits_q, splits_d, skipped_q, skipped_d;
  logic [31:0] sched_q, sched_d, capp_q, capp_d, merges_q, merges_d, peak_q, peak_d;
  logic [31:0] stf_q, stf_d, stc_q, stc_d, sts_q, sts_d, ins_q, ins_d, stt_q, stt_d;
  // Merge scan stage B (the group found by stage A in the last cycle).
  logic              b_valid_q;
  logic [IdxW-1:0]   b_idx_q;
  logic [CntW-1:0] sh_n_q;
  logic [31:0] sh_pairs_q, sh_splits_q, sh_skipped_q, sh_sched_q, sh_capp_q, sh_merges_q, sh_peak_q;
  logic [ScanW-1:0] sh_used_q;
  logic        sh_full_q;

  // ------------------------------------------------------------------ command decode
  logic clr, wr_eps, wr_cap, wr_mf, wr_buf, wr_status, wr_cmd;
  assign wr_cmd    = csr_we_i && csr_addr_i == 5'd4;
  assign clr       = wr_cmd && csr_wdata_i[0];
  assign wr_eps    = csr_we_i && csr_addr_i == 5'd0;
  assign wr_cap    = csr_we_i && csr_addr_i == 5'd1;
  assign wr_mf     = csr_we_i && csr_addr_i == 5'd2;
  assign wr_buf    = csr_we_i && csr_addr_i == 5'd3;
  assign wr_status = csr_we_i && csr_addr_i == 5'd5;

  // ------------------------------------------------------------------ queue and buffer
  logic              q_valid, q_take;
  logic [RangeW+15:0] q_data;
  hwprof_rap_event_queue #(.Width(RangeW + 16), .Depth(QueueDepth)) u_queue (
    .clk_i, .rst_ni, .clear_i(clr),
    .in_valid_i(ev_valid_i), .in_ready_o(ev_ready_o), .in_data_i({ev_value_i, ev_weight_i}),
    .out_valid_o(q_valid), .out_ready_i(q_take), .out_data_o(q_data));

  logic buf_in_ready, buf_out_valid, buf_out_ready, buf_empty, buf_take, buf_emit;
  logic [RangeW-1:0]  buf_out_value;
  logic [PairWtW-1:0] buf_out_weight;
  logic               adv, disturbed, p_free;
  hwprof_rap_merge_buffer #(.MaxBuf(MaxBuf), .ValW(RangeW), .WtW(16), .PairWtW(PairWtW)) u_buf (
    .clk_i, .rst_ni, .clear_i(clr), .depth_i(bufd_q), .flush_i(flush_q),
    .in_valid_i(q_valid && st_q != StDump), .in_ready_o(buf_in_ready),
    .in_value_i(q_data[RangeW+15:16]), .in_weight_i(q_data[15:0]),
    .out_valid_o(buf_out_valid), .out_ready_i(buf_out_ready),
    .out_value_o(buf_out_value), .out_weight_o(buf_out_weight), .empty_o(buf_empty));
  assign buf_out_ready = p_free && st_q != StDump;
  assign buf_take = q_valid && st_q != StDump && buf_in_ready;
  assign q_take = buf_take;
  assign buf_emit = buf_out_valid && buf_out_ready;

  // ------------------------------------------------------------------ S0: TCAM + arbiter
  logic [Groups-1:0]        match, tvalid, tsel;
  logic [Groups*DepthW-1:0] tpdepth;
  logic                     a_hit;
  logic [IdxW-1:0]          a_idx;
  logic [DepthW-1:0]        a_pd;
  logic                     t_set, t_inv, t_busy, t_last;
  logic [IdxW-1:0]          free_idx, rd_idx;
  logic                     rd_valid;
  logic [DepthW-1:0]        rd_pdepth;
  logic [RangeW-1:0]        rd_prefix;
  if (TcamSlice == 0) begin : g_tcam_ff
    hwprof_rap_tcam #(.RangeW(RangeW), .Groups(Groups)) u_tcam (
      .clk_i, .rst_ni, .clear_i(clr), .key_i(p_value_q), .match_o(match), .pdepth_o(tpdepth),
      .set_i(t_set), .set_idx_i(free_idx), .set_pdepth_i(s1_depth_q), .set_prefix_i(s1_prefix_q),
      .inv_i(t_inv), .inv_idx_i(b_idx_q),
      .rd_idx_i(rd_idx), .rd_valid_o(rd_valid), .rd_pdepth_o(rd_pdepth), .rd_prefix_o(rd_prefix),
      .valid_o(tvalid), .sel_pdepth_i(pass_d_q), .sel_o(tsel));
    assign t_busy = 1'b0;
    assign t_last = 1'b0;
  end else begin : g_tcam_ram
    // The RAM TCAM reads the key one cycle ahead: the value P holds next cycle.
    hwprof_rap_tcam_ram #(.RangeW(RangeW), .Groups(Groups), .SliceW(TcamSlice)) u_tcam (
      .clk_i, .rst_ni, .clear_i(clr), .key_next_i(buf_emit ? buf_out_value : p_value_q),
      .match_o(match), .pdepth_o(tpdepth),
      .set_i(t_set), .set_idx_i(free_idx), .set_pdepth_i(s1_depth_q), .set_prefix_i(s1_prefix_q),
      .inv_i(t_inv), .inv_idx_i(b_idx_q), .busy_o(t_busy), .last_o(t_last),
      .rd_idx_i(rd_idx), .rd_valid_o(rd_valid), .rd_pdepth_o(rd_pdepth), .rd_prefix_o(rd_prefix),
      .valid_o(tvalid), .sel_pdepth_i(pass_d_q), .sel_o(tsel));
  end
  hwprof_rap_arbiter #(.RangeW(RangeW), .Groups(Groups)) u_arb (
    .match_i(match), .pdepth_i(tpdepth), .hit_o(a_hit), .idx_o(a_idx), .pdepth_o(a_pd));

  logic [DepthW-1:0] s0_depth;
  logic [1:0]        s0_col;
  assign s0_depth = a_hit ? a_pd + DepthW'(1) : '0;
  assign s0_col   = a_hit ? p_value_q[RangeW - 2 * (32'(a_pd) + 1) +: 2] : 2'd0;

  // ------------------------------------------------------------------ counter SRAM
  // Port A (a row) is read at every edge: in RUN the row S0 matched (S1's
  // counter), in PASS the row stage A found (stage B's children), in DUMP the
  // row of the next beat. Port B: the parent of stage A's group.
  logic              found, do_merge, do_split, c_we;
  logic [IdxW-1:0]   fs, c_ra, c_wrow;
  logic [1:0]        c_wcol;
  logic [CntW-1:0]   c_wdata, cntb;
  logic [4*CntW-1:0] rowa;
  logic [CntW+2:0]   sum;
  hwprof_rap_counter_ram #(.Groups(Groups), .CntW(CntW)) u_cnt (
    .clk_i, .rst_ni, .clear_i(clr), .zero_i(do_split), .zero_row_i(free_idx),
    .we_i(c_we), .wrow_i(c_wrow), .wcol_i(c_wcol), .wdata_i(c_wdata),
    .ra_i(c_ra), .rowa_o(rowa), .rb_row_i(par_idx_q[fs]), .rb_col_i(par_col_q[fs]), .cntb_o(cntb));

  // ------------------------------------------------------------------ S1: update and split check
  logic [CntW-1:0] cur, cnt_new, n_new, t_new, t_cur;
  logic            commit, split_due, fits, sched_due;
  logic            split_now, skip_now, cap_start, sched_start;
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) u_thr_new (.eps_i(eps_q), .n_i(n_new), .t_o(t_new));
  hwprof_rap_threshold #(.RangeW(RangeW), .CntW(CntW)) u_thr_cur (.eps_i(eps_q), .n_i(n_q), .t_o(t_cur));
  assign cur       = s1_root_q ? root_cnt_q : rowa[32'(s1_col_q) * CntW +: CntW];
  assign cnt_new   = cur + CntW'(s1_weight_q);
  assign n_new     = n_q + CntW'(s1_weight_q);
  assign commit    = st_q == StRun && s1_valid_q;
  assign split_due = 32'(s1_depth_q) < H && cnt_new > t_new;
  assign fits      = used_q < capg_q;
  assign sched_due = n_new >= nm_q;
  assign split_now = commit && split_due && fits;
  assign skip_now  = commit && split_due && !fits && full_q;
  assign cap_start = commit && split_due && !fits && !full_q;
  assign sched_start = commit && !cap_start && sched_due;
  assign disturbed = split_now || cap_start || sched_start;
  assign adv       = st_q == StRun && p_valid_q && !disturbed;
  assign p_free    = !p_valid_q || adv;

  // ------------------------------------------------------------------ merge pass scan
  // Stage A (every pass cycle): find the lowest valid group with parent depth
  // pass_d_q at or above scan_q and read its row (port A) and its parent's
  // counter (port B). Stage B (the next cycle): merge it if its children are
  // leaves and parent + children <= T(n). Stage B's write (a counter at depth
  // d) never feeds stage A's read in the same edge (children at depth d + 1,
  // another parent at depth d); the cycle that moves to depth d - 1 has no
  // stage A read, so the next level reads after the last write.
  logic              in_pass, elig, pass_end, cap_end, split_after;
  logic [CntW-1:0]   par_cnt;
  logic [ScanW-1:0]  used_after;
  always_comb begin
    found = 1'b0;
    fs = '0;
    for (int e = Groups - 1; e >= 0; e--) begin
      if (tsel[e] && ScanW'(e) >= scan_q) begin
        found = 1'b1;
        fs = IdxW'(e);
      end
    end
  end
  assign in_pass = st_q == StPass;
  assign elig    = kids_q[b_idx_q] == 4'b0;
  assign par_cnt = par_root_q[b_idx_q] ? root_cnt_q : cntb;
  assign sum = (CntW + 3)'(par_cnt) + (CntW + 3)'(rowa[0 +: CntW]) + (CntW + 3)'(rowa[CntW +: CntW]) +
               (CntW + 3)'(rowa[2*CntW +: CntW]) + (CntW + 3)'(rowa[3*CntW +: CntW]);
  assign do_merge  = in_pass && b_valid_q && elig && sum <= (CntW + 3)'(t_cur);
  assign pass_end  = in_pass && !found && pass_d_q == '0;
  assign cap_end   = pass_end && pass_cap_q;
  assign used_after = used_q - ScanW'(do_merge);
  // The last cycle of a capacity pass runs stage B of a depth-0 group (the
  // root's children) if any; it cannot merge: the leaf waiting to split has
  // count > T(n), and it is either one of those children or below one
  // (asserted below). So `fits` and the valid bits already count every
  // group the pass freed.
  assign split_after = cap_end && fits;

  // Allocation: the lowest free group.
  always_comb begin
    free_idx = '0;
    for (int e = Groups - 1; e >= 0; e--)
      if (!tvalid[e]) free_idx = IdxW'(e);
  end
  assign do_split = split_now || split_after;
  assign t_set = do_split && !clr;
  assign t_inv = do_merge && !clr;

  // Counter writes: the S1 commit (RUN) or a merge into a non-root parent (PASS).
  assign c_we    = (commit && !s1_root_q) || (do_merge && !par_root_q[b_idx_q]);
  assign c_wrow  = commit ? s1_grp_q : par_idx_q[b_idx_q];
  assign c_wcol  = commit ? s1_col_q : par_col_q[b_idx_q];
  assign c_wdata = commit ? cnt_new : CntW'(sum);

  // next_merge: doubled until it exceeds n (saturating).
  logic [CntW-1:0] nm_next;
  always_comb begin
    nm_next = nm_q;
    for (int unsigned i = 0; i <= CntW; i++)
      if (nm_next <= n_q) nm_next = nm_next[CntW-1] ? '1 : {nm_next[CntW-2:0], 1'b0};
  end

  logic idle;
  assign idle = st_q == StRun && !s1_valid_q && !p_valid_q && buf_empty && !flush_q && !q_valid;

  // ------------------------------------------------------------------ controller (scalars)
  always_comb begin
    st_d = st_q;
    err_d = err_q;
    flush_d = flush_q && !buf_empty;
    st_eps_d = st_eps_q;
    st_cap_d = st_cap_q;
    st_mf_d = st_mf_q;
    st_buf_d = st_buf_q;
    n_d = n_q;
    nm_d = nm_q;
    full_d = full_q;
    used_d = used_q;
    pass_cap_d = pass_cap_q;
    pend_sched_d = pend_sched_q;
    pass_d_d = pass_d_q;
    scan_d = scan_q;
    beat_d = beat_q;
    raw_d = buf_take ? sat_inc(raw_q) : raw_q;
    pairs_d = pairs_q;
    splits_d = splits_q;
    skipped_d = skipped_q;
    sched_d = sched_q;
    capp_d = capp_q;
    merges_d = merges_q;
    peak_d = peak_q;
    stf_d = disturbed ? sat_inc(stf_q) : stf_q;
    stc_d = (in_pass && pass_cap_q) ? sat_inc(stc_q) : stc_q;
    sts_d = (in_pass && !pass_cap_q) ? sat_inc(sts_q) : sts_q;
    ins_d = (ev_valid_i && !ev_ready_o) ? sat_inc(ins_q) : ins_q;
    stt_d = (st_q == StTwr) ? sat_inc(stt_q) : stt_q;

    // 1. Controller.
    if (commit) begin
      n_d = n_new;
      pairs_d = sat_inc(pairs_q);
      if (skip_now) skipped_d = sat_inc(skipped_q);
      if (cap_start) begin
        st_d = StPass;
        pass_cap_d = 1'b1;
        pend_sched_d = sched_due;
        pass_d_d = DepthW'(H - 1);
        scan_d = '0;
      end else if (split_now && TcamSlice != 0) begin
        // The RAM TCAM's write first, then the scheduled pass if it is due.
        st_d = StTwr;
        pend_sched_d = sched_due;
      end else if (sched_start) begin
        st_d = StPass;
        pass_cap_d = 1'b0;
        pass_d_d = DepthW'(H - 1);
        scan_d = '0;
      end
    end
    if (st_q == StTwr && t_last) begin
      if (pend_sched_q) begin
        st_d = StPass;
        pass_cap_d = 1'b0;
        pend_sched_d = 1'b0;
        pass_d_d = DepthW'(H - 1);
        scan_d = '0;
      end else begin
        st_d = StRun;
      end
    end
    if (do_merge) merges_d = sat_inc(merges_q);
    if (in_pass) begin
      if (found) begin
        scan_d = ScanW'(fs) + ScanW'(1);
      end else if (pass_d_q != '0) begin
        pass_d_d = pass_d_q - DepthW'(1);
        scan_d = '0;
      end else if (pass_cap_q) begin
        capp_d = sat_inc(capp_q);
        if (!fits) begin
          full_d = 1'b1;
          skipped_d = sat_inc(skipped_q);
        end
        if (split_after && TcamSlice != 0) begin
          st_d = StTwr;  // the scheduled pass (if pending) follows the write
        end else if (pend_sched_q) begin
          pass_cap_d = 1'b0;
          pass_d_d = DepthW'(H - 1);
          scan_d = '0;
        end else begin
          st_d = StRun;
        end
      end else begin
        sched_d = sat_inc(sched_q);
        full_d = 1'b0;
        nm_d = nm_next;
        st_d = StRun;
      end
    end
    if (st_q == StDump && dump_ready_i) begin
      if (beat_q == ScanW'(Groups)) st_d = StRun;
      else beat_d = beat_q + ScanW'(1);
    end
    used_d = used_after + ScanW'(do_split);
    if (do_split) begin
      splits_d = sat_inc(splits_q);
      if (32'(used_after) * 4 + 5 > peak_q) peak_d = 32'(used_after) * 4 + 5;
    end

    // 4. Register writes.
    if (wr_eps) begin
      if (csr_wdata_i[31:16] == '0) st_eps_d = csr_wdata_i[15:0];
      else err_d = 1'b1;
    end
    if (wr_cap) begin
      if (csr_wdata_i >= 32'd1 && csr_wdata_i <= CapMax) st_cap_d = csr_wdata_i;
      else err_d = 1'b1;
    end
    if (wr_mf) begin
      if (csr_wdata_i != '0) st_mf_d = csr_wdata_i;
      else err_d = 1'b1;
    end
    if (wr_buf) begin
      if (csr_wdata_i <= MaxBuf) st_buf_d = BufW'(csr_wdata_i);
      else err_d = 1'b1;
    end
    if (wr_status && csr_wdata_i[0]) err_d = 1'b0;
    if (wr_cmd) begin
      if (csr_wdata_i[1]) flush_d = 1'b1;
      if (csr_wdata_i[2]) begin
        if (idle) begin
          st_d = StDump;
          beat_d = '0;
        end else begin
          err_d = 1'b1;
        end
      end
    end
  end

  // ------------------------------------------------------------------ registers
  logic [31:0] capg_full;
  assign capg_full = (st_cap_q - 32'd1) >> 2;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q <= 1'b0;
      st_eps_q <= 16'd6554;
      st_cap_q <= CapMax;
      st_mf_q <= 32'd1024;
      st_buf_q <= BufW'(BufReset);
      eps_q <= 16'd6554;
      capg_q <= ScanW'(Groups);
      bufd_q <= BufW'(BufReset);
      nm_q <= CntW'(1024);
    end else if (clr) begin
      eps_q <= st_eps_q;
      capg_q <= (capg_full < Groups) ? ScanW'(capg_full) : ScanW'(Groups);
      bufd_q <= st_buf_q;
      nm_q <= CntW'(st_mf_q);
    end else begin
      err_q <= err_d;
      st_eps_q <= st_eps_d;
      st_cap_q <= st_cap_d;
      st_mf_q <= st_mf_d;
      st_buf_q <= st_buf_d;
      nm_q <= nm_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StRun;
      flush_q <= 1'b0;
      n_q <= '0;
      full_q <= 1'b0;
      used_q <= '0;
      root_cnt_q <= '0;
      p_valid_q <= 1'b0;
      s1_valid_q <= 1'b0;
      pass_cap_q <= 1'b0;
      pend_sched_q <= 1'b0;
      pass_d_q <= '0;
      scan_q <= '0;
      beat_q <= '0;
      raw_q <= '0; pairs_q <= '0; splits_q <= '0; skipped_q <= '0;
      sched_q <= '0; capp_q <= '0; merges_q <= '0; peak_q <= 32'd1;
      stf_q <= '0; stc_q <= '0; sts_q <= '0; ins_q <= '0; stt_q <= '0;
      b_valid_q <= 1'b0;
      sh_n_q <= '0; sh_pairs_q <= '0; sh_splits_q <= '0; sh_skipped_q <= '0; sh_sched_q <= '0;
      sh_capp_q <= '0; sh_merges_q <= '0; sh_peak_q <= 32'd1; sh_used_q <= '0; sh_full_q <= 1'b0;
    end else if (clr) begin
      st_q <= StRun;
      flush_q <= 1'b0;
      n_q <= '0;
      full_q <= 1'b0;
      used_q <= '0;
      root_cnt_q <= '0;
      p_valid_q <= 1'b0;
      s1_valid_q <= 1'b0;
      pass_cap_q <= 1'b0;
      pend_sched_q <= 1'b0;
      pass_d_q <= '0;
      scan_q <= '0;
      beat_q <= '0;
      raw_q <= '0; pairs_q <= '0; splits_q <= '0; skipped_q <= '0;
      sched_q <= '0; capp_q <= '0; merges_q <= '0; peak_q <= 32'd1;
      stf_q <= '0; stc_q <= '0; sts_q <= '0; ins_q <= '0; stt_q <= '0;
      b_valid_q <= 1'b0;
      sh_n_q <= '0; sh_pairs_q <= '0; sh_splits_q <= '0; sh_skipped_q <= '0; sh_sched_q <= '0;
      sh_capp_q <= '0; sh_merges_q <= '0; sh_peak_q <= 32'd1; sh_used_q <= '0; sh_full_q <= 1'b0;
    end else begin
      st_q <= st_d;
      flush_q <= flush_d;
      n_q <= n_d;
      full_q <= full_d;
      used_q <= used_d;
      pass_cap_q <= pass_cap_d;
      pend_sched_q <= pend_sched_d;
      pass_d_q <= pass_d_d;
      scan_q <= scan_d;
      beat_q <= beat_d;
      raw_q <= raw_d; pairs_q <= pairs_d; splits_q <= splits_d; skipped_q <= skipped_d;
      sched_q <= sched_d; capp_q <= capp_d; merges_q <= merges_d; peak_q <= peak_d;
      stf_q <= stf_d; stc_q <= stc_d; sts_q <= sts_d; ins_q <= ins_d; stt_q <= stt_d;
      b_valid_q <= in_pass && found;
      // Root counter: the S1 commit or a merge into the root.
      if (commit && s1_root_q) root_cnt_q <= cnt_new;
      else if (do_merge && par_root_q[b_idx_q]) root_cnt_q <= CntW'(sum);
      // P and S1.
      p_valid_q <= (p_valid_q && !adv) || buf_emit;
      s1_valid_q <= adv;
      // Shadows (not while a pass or the TCAM write that may precede a
      // scheduled pass is under way).
      if (st_d == StRun || st_d == StDump) begin
        sh_n_q <= n_d; sh_pairs_q <= pairs_d; sh_splits_q <= splits_d; sh_skipped_q <= skipped_d;
        sh_sched_q <= sched_d; sh_capp_q <= capp_d; sh_merges_q <= merges_d; sh_peak_q <= peak_d;
        sh_used_q <= used_d; sh_full_q <= full_d;
      end
    end
  end

  // Data registers without reset.
  always_ff @(posedge clk_i) begin
    if (buf_emit) begin
      p_value_q <= buf_out_value;
      p_weight_q <= buf_out_weight;
    end
    if (adv) begin
      s1_root_q <= !a_hit;
      s1_grp_q <= a_idx;
      s1_col_q <= s0_col;
      s1_depth_q <= s0_depth;
      s1_prefix_q <= p_value_q & mask_of(s0_depth);
      s1_weight_q <= p_weight_q;
    end
    b_idx_q <= fs;
  end

  // Row metadata (the counters are in u_cnt).
  always_ff @(posedge clk_i) begin
    if (!clr) begin
      if (do_merge && !par_root_q[b_idx_q]) kids_q[par_idx_q[b_idx_q]][par_col_q[b_idx_q]] <= 1'b0;
      if (do_split) begin
        kids_q[free_idx] <= 4'b0;
        par_root_q[free_idx] <= s1_root_q;
        par_idx_q[free_idx] <= s1_grp_q;
        par_col_q[free_idx] <= s1_col_q;
        if (!s1_root_q) kids_q[s1_grp_q][s1_col_q] <= 1'b1;
      end
    end
  end

  // ------------------------------------------------------------------ dump and registers out
  // Dump: the row and TCAM entry of beat b (slot b - 1) are read at the edge
  // that enters beat b (the slot of beat_d).
  assign rd_idx = (beat_d == '0) ? '0 : IdxW'(beat_d - ScanW'(1));
  assign c_ra = (st_q == StDump) ? rd_idx : (in_pass ? fs : a_idx);
  assign dump_valid_o = st_q == StDump;
  assign dump_last_o = st_q == StDump && beat_q == ScanW'(Groups);
  assign dump_slot_valid_o = (beat_q == '0) || rd_valid;
  assign dump_depth_o = (beat_q == '0) ? '0 : rd_pdepth + DepthW'(1);
  assign dump_prefix_o = (beat_q == '0) ? '0 : rd_prefix;
  assign dump_cnt0_o = (beat_q == '0) ? root_cnt_q : rowa[0 +: CntW];
  assign dump_cnt1_o = (beat_q == '0) ? '0 : rowa[CntW +: CntW];
  assign dump_cnt2_o = (beat_q == '0) ? '0 : rowa[2*CntW +: CntW];
  assign dump_cnt3_o = (beat_q == '0) ? '0 : rowa[3*CntW +: CntW];

  always_comb begin
    case (csr_addr_i)
      5'd0: csr_rdata_o = {16'b0, st_eps_q};
      5'd1: csr_rdata_o = st_cap_q;
      5'd2: csr_rdata_o = st_mf_q;
      5'd3: csr_rdata_o = 32'(st_buf_q);
      5'd5: csr_rdata_o = {25'b0, st_q == StTwr, flush_q, st_q == StPass, st_q == StDump, sh_full_q, idle, err_q};
      5'd6: csr_rdata_o = sh_n_q[31:0];
      5'd7: csr_rdata_o = 32'(sh_n_q[CntW-1:32]);
      5'd8: csr_rdata_o = raw_q;
      5'd9: csr_rdata_o = sh_pairs_q;
      5'd10: csr_rdata_o = sh_splits_q;
      5'd11: csr_rdata_o = sh_skipped_q;
      5'd12: csr_rdata_o = sh_sched_q;
      5'd13: csr_rdata_o = sh_capp_q;
      5'd14: csr_rdata_o = sh_merges_q;
      5'd15: csr_rdata_o = 32'(sh_used_q) * 4 + 32'd1;
      5'd16: csr_rdata_o = sh_peak_q;
      5'd17: csr_rdata_o = stf_q;
      5'd18: csr_rdata_o = stc_q;
      5'd19: csr_rdata_o = sts_q;
      5'd20: csr_rdata_o = ins_q;
      5'd21: csr_rdata_o = {6'b0, 4'(TcamSlice), 6'(RangeW), 4'(MaxBuf), 12'(Groups)};
      5'd22: csr_rdata_o = stt_q;
      default: csr_rdata_o = '0;
    endcase
  end

  `HWPROF_ASSERT(used_le_cap, used_q <= ScanW'(Groups))
  `HWPROF_ASSERT(no_split_without_room, !do_split || !tvalid[free_idx])
  `HWPROF_ASSERT(no_merge_at_cap_end, !(cap_end && do_merge))
  `HWPROF_ASSERT(twr_iff_tcam_busy, (st_q == StTwr) == t_busy)
  `HWPROF_ASSERT(stage_b_in_pass, !b_valid_q || in_pass)

endmodule

`default_nettype wire
