// hwprof_hpt: the Hot Path Table of docs/hpt.md (paper 000 section 5, spec section
// 3.2). Takes one path descriptor per clock from the path stack and keeps a
// Sets x Ways table of {key, accumulator} entries; a dump walk reads the
// table out through the dump port. The table update of one descriptor is
// HptAlgo::insert (sim_models/path_profiler/hpt_algo.cpp); the cycle
// behaviour is Hpt::step (hpt.h).
//
// Table update of a completed descriptor with metric m, way by way at each
// way's own index (docs/hpt.md, "Index"; HptAlgo::index):
//   1. hit: the lowest way whose valid candidate holds the key:
//      acc = sat(acc + m);
//   2. fill: else the lowest way whose candidate is invalid: {key, m};
//   3. else the victim is the candidate with the minimum acc, ties to the
//      lowest way; by CTRL.policy:
//        lfu   replace with {key, m};
//        ss    replace with {key, sat(victim.acc + m)};
//        erode victim.acc > m: victim.acc -= m, the path is not entered
//              (reject); else replace with {key, m}.
//        lfu+prob (code 3, only with ProbSets > 0): the path's probation
//              count c (hwprof_hpt_probation: its entry + m, saturating)
//              c > victim.acc: replace with {key, c} (its probation entry
//              emptied); else reject, the victim untouched (its acc is
//              rewritten as it is) and c kept in the probation area.
//              The area runs beside S0..S3 (its own forwarding from its
//              own write history): no stage, no stall. Its choice is
//              prepared before S3, where only c > acc is compared (for
//              every entry, against both victim candidates).
//   Incomplete descriptors only count in IGNORED. sat() clips at 2^32-1
//   and counts in SATURATIONS.
//
// Pipeline (one descriptor per clock, no stall outside a dump; a descriptor
// accepted at edge t commits at edge t+3, Hpt::kCommitLatency):
//   * S0 (accept): in_ready_o = !dump_busy_o; go = in_valid_i & in_ready_o.
//     On go the Ways indices (from the incoming key and CTRL before the
//     edge) address the way RAMs' read ports; the key, the metric, the
//     policy and the forwarding compares (below) enter S1.
//   * S1: the RAM outputs (slow on block RAM) go through one level of logic:
//     the key compare in 2-bit groups, the valid bit with the collision
//     flag; the accumulators are registered as read, and the group of 4
//     fresh bits holding the row (S2 picks the row's bit: a Sets:1
//     multiplexer in one cycle was a critical path).
//   * S2: the writes the RAM read missed, except the one decided in the same
//     cycle, are merged in (accumulator, key match, valid); then the
//     pairwise order of the candidates' accumulators and, per way, acc + m
//     (saturated), acc - m, acc > m.
//   * S3: the write decided in the last cycle (w1) is merged into its way j,
//     the hit / fill / victim decision is made with the only compares left
//     (w1's accumulator against each other way's), and the result goes to
//     the write register w1 (logical write L); the outcome bits go to the
//     outcome register st_out_q.
//   * w1 writes the RAM word (and the row's fresh bit) at the next edge;
//     st_out_q is counted at the next edge (DESCS..IGNORED show a
//     descriptor accepted at t after edge t+4, Hpt::kStatsLatency), so no
//     counter enable waits for the victim choice.
//   Forwarding: for the descriptor read at edge t, the logical writes
//   L(t-1) (landing at t: the read collides and reads X), L(t), L(t+1) and
//   L(t+2) are missing from what it read. Their way and index matches are
//   the flags m4, m3, m2 (merged in S2 from the write history w3, w2, w1)
//   and m1 (merged in S3 from w1); the index compares are made at
//   acceptance, the way is taken from w1 after each write, so no flag waits
//   for the decision of its own cycle. A written key is the writer's key
//   (its equality with this descriptor's key, skK, is compared at
//   acceptance); a reject writes only the accumulator. Back-to-back
//   descriptors to the same entry or set therefore run at one per clock, at
//   every distance.
// Edge order (Hpt::step): S3 commits; then a register write (CTRL, STATUS,
// CMD; a CMD clear / clear_stats acts after the commit of the same edge:
// the descriptor in S3 is inserted and then cleared, its counts zeroed (a
// clear_stats drops both the outcome counted at its edge and the one
// registered at it, so the counters hold the descriptors that commit after
// the clearing edge); the ones in S1 and S2 commit after it, into the
// cleared table); then the dump
// walk advances; then an accepted descriptor enters S1. A clear kills the
// write of its edge (w1) and every forwarding flag in flight.
//
// Registers (reads combinational from the state before the edge): data/regs/hpt.json
// (generated: hwprof_hpt_reg_pkg, docs/hpt.md, "Registers").
//
// Dump walk (CMD.dump): Drain (4 cycles, Hpt::kDrainCycles: S1..S3 commit
// and w1's write lands), then per set s: Read (1 cycle: the way RAMs read
// address s), Load (1 cycle: its valid bits are registered), Emit (per way
// one cycle, more while a valid entry waits for dump_ready_i; invalid
// entries are skipped in one cycle), set-major then way.
// 4 + Sets*(2 + Ways) cycles plus backpressure. Intake pauses for the
// whole walk, so the table does not change during it.
//
// Storage: one hwprof_ram_2p per way (Sets words of 103 bits: acc 31:0, key
// 101:32, valid 102; the write mask enables the accumulator, the key unless
// a reject, the valid bit as below; block RAM, no reset). fresh_q (one flop
// per row, reset) says a row was written since the last clear or reset: an
// entry is valid when its row is fresh and its valid bit is set; the first
// write to a stale row writes every way's valid bit (its own 1, the others
// 0). Reset and clear therefore take one cycle. Control state, the
// forwarding flags and the counters reset asynchronously; the stage data,
// the write history and the RAM data have no reset (qualified by the stage
// valid bits and the flags).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_hpt #(
  /// Sets (a power of two, 1..4096).
  parameter int unsigned Sets = 128,
  /// Ways (1..32).
  parameter int unsigned Ways = 4,
  /// Rows of the probation area of policy 3, lfu+prob (a power of two,
  /// 1..4096); 0: no probation area, CTRL.policy 3 is illegal
  /// (hwprof_hpt_probation, docs/hpt.md).
  parameter int unsigned ProbSets = 0,
  /// Entries per probation row (1..16).
  parameter int unsigned ProbWays = 4,
  /// Fingerprint bits of a probation entry (1..16).
  parameter int unsigned ProbFpBits = 12,
  /// Count bits of a probation entry (1..32).
  parameter int unsigned ProbCountBits = 14,
  /// Width of the set index and of dump_set_o.
  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1,
  /// Width of dump_way_o.
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Asynchronous active-low reset: invalidates every entry, empties S1,
  /// stops a dump, CTRL to 0x22, err and the counters to 0.
  input  wire logic             rst_ni,
  // Descriptors (from the path stack).
  /// A descriptor is offered; hold it (and its fields) until taken.
  input  wire logic             in_valid_i,
  /// It is taken this cycle: high unless a dump is busy (registered).
  output logic                  in_ready_o,
  /// Path start address.
  input  wire logic [31:0]      in_start_i,
  /// Branches on the path.
  input  wire logic [5:0]       in_length_i,
  /// Directions.
  input  wire logic [31:0]      in_dirs_i,
  /// Events on the path (the events metric).
  input  wire logic [15:0]      in_events_i,
  /// Instructions on the path (the insns metric).
  input  wire logic [23:0]      in_insns_i,
  /// The path began at a missing top of stack: counted in IGNORED only.
  input  wire logic             in_incomplete_i,
  // Dump (registered; fields meaningful while dump_valid_o).
  /// A valid entry is offered.
  output logic                  dump_valid_o,
  /// The consumer takes it this cycle.
  input  wire logic             dump_ready_i,
  /// Its set.
  output logic [SetW-1:0]       dump_set_o,
  /// Its way.
  output logic [WayW-1:0]       dump_way_o,
  /// Key: path start address.
  output logic [31:0]           dump_start_o,
  /// Key: branches on the path.
  output logic [5:0]            dump_length_o,
  /// Key: directions.
  output logic [31:0]           dump_dirs_o,
  /// Accumulator.
  output logic [31:0]           dump_acc_o,
  /// A dump is in progress (intake paused).
  output logic                  dump_busy_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic             csr_we_i,
  /// Word address.
  input  wire logic [hwprof_hpt_reg_pkg::HptAddrW-1:0] csr_addr_i,
  /// Write data.
  input  wire logic [31:0]      csr_wdata_i,
  /// Read data of csr_addr_i (combinational, state before the edge).
  output logic [31:0]           csr_rdata_o
);

  import hwprof_hpt_reg_pkg::*;

  initial begin
    if (ProbSets > 4096 || (ProbSets & (ProbSets - 1)) != 0)
      $fatal(1, "hwprof_hpt: ProbSets must be 0 or a power of two in 1..4096");
    if (Sets < 1 || Sets > 4096 || (Sets & (Sets - 1)) != 0)
      $fatal(1, "hwprof_hpt: Sets must be a power of two in 1..4096");
    if (Ways < 1 || Ways > 32) $fatal(1, "hwprof_hpt: Ways must be 1..32");
  end

  /// log2(Sets): bits of the index fold (0 for a fully associative table).
  localparam int unsigned SetBits = $clog2(Sets);
`ifdef HWPROF_FV_HPT_ACCW
  // Formal only (formal/hpt.sby): narrow accumulators, so that saturation
  // is reachable within a bounded proof.
  localparam int unsigned AccW = `HWPROF_FV_HPT_ACCW;
`else
  localparam int unsigned AccW = 32;
`endif
  localparam int unsigned MetricW = 24;  // the widest metric (insns)
  localparam int unsigned StatW = 32;
  localparam int unsigned FoldW = 68;    // the folded vector v

  typedef struct packed {
    logic [31:0] start;
    logic [5:0]  length;
    logic [31:0] dirs;
  } key_t;

  /// One RAM word (103 bits): the entry's valid bit (meaningful while its
  /// row is fresh, see fresh_q), key and accumulator.
  typedef struct packed {
    logic            valid;
    key_t            key;
    logic [AccW-1:0] acc;
  } word_t;

  localparam int unsigned KeyW = $bits(key_t);
  localparam int unsigned WordW = $bits(word_t);

  // Registers: addresses and fields from hwprof_hpt_reg_pkg
  // (data/regs/hpt.json). CTRL holds its bits up to the policy field.
  localparam int unsigned CtrlW = HptCtrlPolicyLsb + HptCtrlPolicyW;
  /// CTRL.metric and CTRL.policy codes; the last of each is illegal.
  typedef enum logic [HptCtrlMetricW-1:0] {MetricFreq, MetricEvents, MetricInsns, MetricIllegal} metric_e;
  typedef enum logic [HptCtrlPolicyW-1:0] {PolicyLfu, PolicySs, PolicyErode, PolicyIllegal} policy_e;
  /// Policy code 3 is lfu+prob in a build with a probation area.
  localparam logic HasProb = (ProbSets > 0);
  localparam policy_e PolicyLfuProb = PolicyIllegal;
  /// CMD bits that are commands.
  localparam logic [31:0] CmdBits = (32'd1 << HptCmdClearBit) | (32'd1 << HptCmdDumpBit) |
                                    (32'd1 << HptCmdClearStatsBit);

  typedef enum logic [2:0] {
    StIdle  = 3'd0,
    StDrain = 3'd1,  // the descriptors in flight commit, their writes land
    StRead  = 3'd2,  // the way RAMs read set dump_set_q
    StLoad  = 3'd3,  // its valid and fresh bits are registered (S2)
    StEmit  = 3'd4   // present way dump_way_q of set dump_set_q
  } state_e;

  /// Drain cycles of a dump (Hpt::kDrainCycles): S1, S2, S3 commit and the
  /// RAM write of the last commit lands.
  localparam int unsigned DrainCycles = 4;
  localparam int unsigned PkW = (KeyW + 1) / 2;  // 2-bit key compare groups

  // ---------------------------------------------------------------------
  // State.

  logic [CtrlW-1:0]   ctrl_q;
  logic               err_q;
  state_e             state_q, state_d;
  logic [SetW-1:0]    dump_set_q, dump_set_d;
  logic [WayW-1:0]    dump_way_q, dump_way_d;
  logic [1:0]         drain_q, drain_d;
  // fresh_q[a]: RAM row a (address a of every way) was written since the
  // last clear or reset, so the valid bits the RAMs hold at a are true;
  // a stale row has no valid entry. The first write to a stale row writes
  // the valid bit of every way (its own 1, the others 0) and makes it fresh.
  logic [Sets-1:0]    fresh_q;
  logic               w1_clean;  // w1 writes a stale row: every way's valid bit

  // Pipeline: a descriptor accepted at edge t reads the way RAMs at t, is in
  // S1 (RAM outputs) in cycle t+1, S2 (prepare) in t+2, S3 (decide) in t+3
  // and commits at edge t+3 (the logical write L(t+3)); the write register
  // w1 writes the RAM word and the valid bit one edge later. The data
  // registers have no reset (qualified by the valid bits).
  logic               s1_valid_q, s2_valid_q, s3_valid_q;
  key_t               s1_key_q, s2_key_q, s3_key_q;
  logic [MetricW-1:0] s1_metric_q, s2_metric_q, s3_metric_q;
  logic               s1_incomplete_q, s2_incomplete_q, s3_incomplete_q;
  logic [HptCtrlPolicyW-1:0] s1_policy_q, s2_policy_q, s3_policy_q;
  // The index of each way (S1: also the walk's set during a dump).
  logic [SetW-1:0]    s1_idx_q [Ways];
  logic [SetW-1:0]    s2_idx_q [Ways];
  logic [SetW-1:0]    s3_idx_q [Ways];

  // Forwarding. For the descriptor read at edge t, the logical writes
  // L(t-1) (physically written at t: the read collides), L(t), L(t+1) and
  // L(t+2) are not in what it read. mK[w] (K = 4, 3, 2, 1 for L(t-1) ..
  // L(t+2)): that write went to way w at this descriptor's index of way w;
  // eK[w]: the indices of way w are equal (compared at acceptance), so mK =
  // eK & the write's way, taken from w1 in the cycle after the write (m4 at
  // acceptance, m3 at the S1 -> S2 edge, m2 in S2, m1 in S3): no flag waits
  // for the decision of its cycle. skK: the descriptor's key equals that
  // write's key. A clear kills w1 and every registered flag (the writes
  // before it are gone).
  logic [Ways-1:0]    s1_m4_q, s1_c4_q, s1_e3_q, s1_e2_q, s1_e1_q;
  logic [Ways-1:0]    s2_m4_q, s2_m3_q, s2_e2_q, s2_e1_q;
  logic [Ways-1:0]    s3_e1_q;
  logic               s1_sk4_q, s1_sk3_q, s1_sk2_q, s1_sk1_q;
  logic               s2_sk4_q, s2_sk3_q, s2_sk2_q, s2_sk1_q;
  logic               s3_sk1_q;
  logic               s2_clr_q;  // a clear came after the S1 valid read

  // Write history: w1 = the logical write of the last edge (it writes the
  // RAM and the valid bit at the next edge), w2, w3 the two before (data
  // only: whether a write counts for a descriptor is in its mK flags).
  logic               w1_en_q;
  logic               w1_k_q, w2_k_q, w3_k_q;  // the key was written (no reject)
  logic [Ways-1:0]    w1_oh_q;                  // way, one-hot
  logic [SetW-1:0]    w1_addr_q;
  // w1's accumulator is kept as both candidates (victim j or not) and the
  // choice, and picked where it is used: the choice is the last result of
  // S3, so it goes to one flip-flop instead of 32.
  logic [AccW-1:0]    w1_accj_q, w1_accx_q, w2_acc_q, w3_acc_q;
  logic               w1_tj_q;
  logic [AccW-1:0]    w1_acc;
  key_t               w1_key_q;

  // ---------------------------------------------------------------------
  // Registers: decode.

  logic ctrl_we, ctrl_legal, cmd_we, idle, cmd_ok;
  logic cmd_clear, cmd_dump, cmd_clear_stats, cmd_err, err_set, err_clr;

  assign idle            = (state_q == StIdle);
  assign ctrl_we         = csr_we_i && (csr_addr_i == HptAddrCtrl);
  assign ctrl_legal      = (csr_wdata_i[HptCtrlMetricLsb +: HptCtrlMetricW] != MetricIllegal) &&
                           (HasProb || csr_wdata_i[HptCtrlPolicyLsb +: HptCtrlPolicyW] != PolicyIllegal);
  assign cmd_we          = csr_we_i && (csr_addr_i == HptAddrCmd);
  assign cmd_ok          = cmd_we && idle;
  assign cmd_clear       = cmd_ok && csr_wdata_i[HptCmdClearBit];
  assign cmd_dump        = cmd_ok && csr_wdata_i[HptCmdDumpBit];
  assign cmd_clear_stats = cmd_ok && csr_wdata_i[HptCmdClearStatsBit];
  assign cmd_err         = cmd_we && !idle && ((csr_wdata_i & CmdBits) != '0);
  assign err_set         = (ctrl_we && !ctrl_legal) || cmd_err;
  assign err_clr         = csr_we_i && (csr_addr_i == HptAddrStatus) && csr_wdata_i[HptStatusErrBit];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= CtrlW'(HptCtrlReset);  // plb, skew, freq, erode
      err_q  <= 1'b0;
    end else begin
      if (ctrl_we && ctrl_legal) ctrl_q <= csr_wdata_i[CtrlW-1:0];
      // One address per cycle: err_set and err_clr never coincide.
      err_q <= err_set || (err_q && !err_clr);
    end
  end

  // ---------------------------------------------------------------------
  // S0: accept, index fold, metric, forwarding compares.

  logic               go;
  key_t               in_key;
  logic [FoldW-1:0]   fold_v;
  logic [SetW-1:0]    in_idx [Ways];
  logic [MetricW-1:0] in_metric;

  assign in_ready_o = idle;
  assign go         = in_valid_i && in_ready_o;
  assign in_key     = '{start: in_start_i, length: in_length_i, dirs: in_dirs_i};

  // v = {dirs, length (plb) or 0 (pb), start[31:2]} (docs/hpt.md, "Index").
  assign fold_v = {in_dirs_i, ctrl_q[HptCtrlIndexBit] ? 6'd0 : in_length_i, in_start_i[31:2]};

  if (SetBits == 0) begin : gen_idx_one
    // One set: every index is 0.
    for (genvar w = 0; w < Ways; w++) begin : gen_way
      assign in_idx[w] = '0;
    end
    logic unused_fold;
    assign unused_fold = ^fold_v;
  end else begin : gen_idx_fold
    // v cut into NumChunks chunks of SetBits bits from bit 0, the last one
    // zero-extended; way w XORs chunk c rotated left by (skew ? w*c : 0).
    // The rotations are constants: wiring only.
    localparam int unsigned NumChunks = (FoldW + SetBits - 1) / SetBits;
    localparam int unsigned PadW = NumChunks * SetBits;

    function automatic logic [SetBits-1:0] rotl(logic [SetBits-1:0] x, int unsigned r);
      logic [SetBits-1:0] y;
      for (int unsigned i = 0; i < SetBits; i++) y[(i + r) % SetBits] = x[i];
      return y;
    endfunction

    logic [PadW-1:0]    vp;
    logic [SetBits-1:0] plain;  // the same for every way
    assign vp = PadW'(fold_v);

    always_comb begin
      plain = '0;
      for (int unsigned c = 0; c < NumChunks; c++) plain = plain ^ vp[c*SetBits +: SetBits];
    end

    for (genvar w = 0; w < Ways; w++) begin : gen_way
      logic [SetBits-1:0] skewed;
      always_comb begin
        skewed = '0;
        for (int unsigned c = 0; c < NumChunks; c++) begin
          skewed = skewed ^ rotl(vp[c*SetBits +: SetBits], (w * c) % SetBits);
        end
      end
      assign in_idx[w] = ctrl_q[HptCtrlSkewBit] ? skewed : plain;
    end
  end

  always_comb begin
    unique case (ctrl_q[HptCtrlMetricLsb +: HptCtrlMetricW])
      MetricFreq:   in_metric = MetricW'(1);
      MetricEvents: in_metric = MetricW'(in_events_i);
      MetricInsns:  in_metric = in_insns_i;
      default:      in_metric = MetricW'(1);  // unreachable: CTRL rejects 3
    endcase
  end

  // S3's decision (below): the logical write of this edge.
  logic            commit;   // S3 holds a complete descriptor: it writes
  logic [Ways-1:0] wr_oh;    // the way it writes, one-hot

  // The new descriptor against the writes L(t-1) (w1, landing now) and L(t)
  // (S3's decision), and the indices of the descriptors in S2 and S1 (their
  // writes L(t+1), L(t+2) are matched when they are decided).
  logic [Ways-1:0] in_m4, in_c4, in_e3, in_e2, in_e1;
  for (genvar w = 0; w < Ways; w++) begin : gen_in_eq
    assign in_m4[w] = w1_en_q && w1_oh_q[w] && (in_idx[w] == w1_addr_q) && !cmd_clear;
    assign in_c4[w] = w1_en_q && w1_clean && (in_idx[w] == w1_addr_q);
    assign in_e3[w] = (in_idx[w] == s3_idx_q[w]);
    assign in_e2[w] = (in_idx[w] == s2_idx_q[w]);
    assign in_e1[w] = (in_idx[w] == s1_idx_q[w]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
      s3_valid_q <= 1'b0;
      s1_m4_q    <= '0;
      s1_c4_q    <= '0;
      s2_m4_q    <= '0;
      s2_m3_q    <= '0;
      s2_clr_q   <= 1'b0;
    end else begin
      s1_valid_q <= go;
      s2_valid_q <= s1_valid_q;
      s3_valid_q <= s2_valid_q;
      s1_m4_q    <= go ? in_m4 : '0;
      s1_c4_q    <= go ? in_c4 : '0;
      s2_m4_q    <= cmd_clear ? '0 : s1_m4_q;
      // w1 holds L(t) now.
      s2_m3_q    <= (w1_en_q && !cmd_clear) ? (s1_e3_q & w1_oh_q) : '0;
      s2_clr_q   <= cmd_clear;
    end
  end

  always_ff @(posedge clk_i) begin
    if (go) begin
      s1_key_q        <= in_key;
      s1_metric_q     <= in_metric;
      s1_incomplete_q <= in_incomplete_i;
      s1_policy_q     <= ctrl_q[HptCtrlPolicyLsb +: HptCtrlPolicyW];
      s1_e3_q         <= in_e3;
      s1_e2_q         <= in_e2;
      s1_e1_q         <= in_e1;
      s1_sk4_q        <= (in_key == w1_key_q);
      s1_sk3_q        <= (in_key == s3_key_q);
      s1_sk2_q        <= (in_key == s2_key_q);
      s1_sk1_q        <= (in_key == s1_key_q);
    end
    s2_key_q        <= s1_key_q;
    s2_metric_q     <= s1_metric_q;
    s2_incomplete_q <= s1_incomplete_q;
    s2_policy_q     <= s1_policy_q;
    s2_e2_q         <= s1_e2_q;
    s2_e1_q         <= s1_e1_q;
    s3_e1_q         <= s2_e1_q;
    s2_sk4_q        <= s1_sk4_q;
    s2_sk3_q        <= s1_sk3_q;
    s2_sk2_q        <= s1_sk2_q;
    s2_sk1_q        <= s1_sk1_q;
    s3_key_q        <= s2_key_q;
    s3_metric_q     <= s2_metric_q;
    s3_incomplete_q <= s2_incomplete_q;
    s3_policy_q     <= s2_policy_q;
    s3_sk1_q        <= s2_sk1_q;
  end

  // ---------------------------------------------------------------------
  // Way RAMs: read at acceptance (or by the dump walk's Read state), written
  // from w1.

  assign w1_acc   = w1_tj_q ? w1_accj_q : w1_accx_q;
  assign w1_clean = !fresh_q[w1_addr_q];

  logic [SetW-1:0] raddr [Ways];
  word_t           ram_rdata [Ways];


  for (genvar w = 0; w < Ways; w++) begin : gen_ram
    // The RAMs read every cycle (no read enable on the address path): the
    // incoming descriptor's indices when idle (a read nobody takes is
    // dropped with its bubble), the walk's set otherwise (read again every
    // cycle of the set, nothing is written during the walk).
    assign raddr[w] = idle ? in_idx[w] : dump_set_q;

    always_ff @(posedge clk_i) begin
      s1_idx_q[w] <= raddr[w];
      s2_idx_q[w] <= s1_idx_q[w];
      s3_idx_q[w] <= s2_idx_q[w];
    end

    logic  way_we;
    word_t wword;
    assign way_we = w1_en_q && w1_oh_q[w];
    assign wword  = '{valid: w1_oh_q[w], key: w1_key_q, acc: w1_acc};

    // Write mask: the accumulator always, the key unless a reject, the
    // valid bit when written or when the row is stale (then 0 in the
    // other ways).
    hwprof_ram_2p #(
      .Depth(Sets),
      .Width(WordW)
    ) u_ram (
      .clk_i,
      .wmask_i({w1_en_q && (w1_oh_q[w] || w1_clean), {KeyW{way_we && w1_k_q}}, {AccW{way_we}}}),
      .waddr_i(w1_addr_q),
      .wdata_i(wword),
      .re_i   (1'b1),
      .raddr_i(raddr[w]),
      .rdata_o(ram_rdata[w])
    );
  end

  // ---------------------------------------------------------------------
  // S1: the RAM outputs (slow on block RAM) go through one level of logic
  // only: the key compare in 2-bit groups, and the valid bit with the
  // collision flag. The row's fresh bit is looked up in two steps, one per
  // stage (a Sets:1 multiplexer in one cycle was the critical path): S1
  // registers the group of FreshG bits holding the row (fresh_q as it was
  // at the read edge), S2 picks the row's bit from it (sv2). A read that
  // collided with w1's write of a stale row (s1_c4_q: every way's valid bit
  // was being written) sees no valid entry; the written way comes back
  // through m4.

  localparam int unsigned FreshG = (Sets >= 4) ? 4 : Sets;  // bits per group
  localparam int unsigned FreshGBits = $clog2(FreshG);

  logic [Ways-1:0]             rv;  // RAM valid bit, no collision
  logic [Ways-1:0][FreshG-1:0] fg;  // the fresh group of s1_idx_q
  logic [Ways-1:0][PkW-1:0]    pk;
  logic [2*PkW-1:0]            s1_key_pad;
  assign s1_key_pad = (2 * PkW)'(s1_key_q);

  for (genvar w = 0; w < Ways; w++) begin : gen_s1
    logic [2*PkW-1:0] rk;
    assign rv[w] = ram_rdata[w].valid && !s1_c4_q[w];
    if (SetBits > FreshGBits) begin : gen_fg
      logic [Sets/FreshG-1:0][FreshG-1:0] fresh_grp;
      assign fresh_grp = fresh_q;
      assign fg[w]     = fresh_grp[s1_idx_q[w][SetW-1:FreshGBits]];
    end else begin : gen_fg_all
      assign fg[w] = fresh_q;
    end
    assign rk     = (2 * PkW)'(ram_rdata[w].key);
    for (genvar g = 0; g < PkW; g++) begin : gen_pk
      assign pk[w][g] = (rk[2*g +: 2] == s1_key_pad[2*g +: 2]);
    end
  end

  logic [Ways-1:0][PkW-1:0]    s2_pk_q;
  logic [Ways-1:0][AccW-1:0]   s2_acc_q;
  logic [Ways-1:0]             s2_rv_q;
  logic [Ways-1:0][FreshG-1:0] s2_fg_q;
  always_ff @(posedge clk_i) begin
    for (int unsigned w = 0; w < Ways; w++) begin
      s2_pk_q[w]  <= pk[w];
      s2_acc_q[w] <= ram_rdata[w].acc;
      s2_rv_q[w]  <= rv[w];
      s2_fg_q[w]  <= fg[w];
    end
  end

  // sv2[w]: the entry read is valid (its row fresh at the read edge, its
  // valid bit set, no collision). During a dump walk's Emit it is the valid
  // bit of way w of set dump_set_q (the RAMs read that set every cycle).
  logic [Ways-1:0] sv2;
  for (genvar w = 0; w < Ways; w++) begin : gen_sv2
    if (FreshGBits > 0) begin : gen_pick
      logic [FreshGBits-1:0] lo;
      assign lo     = s2_idx_q[w][FreshGBits-1:0];
      assign sv2[w] = s2_rv_q[w] && s2_fg_q[w][lo];
    end else begin : gen_one
      assign sv2[w] = s2_rv_q[w] && s2_fg_q[w][0];
    end
  end

  // ---------------------------------------------------------------------
  // S2: the candidates with the writes L(t+1) (w1), L(t) (w2), L(t-1) (w3)
  // forwarded, the most recent first; then everything S3 needs that does
  // not depend on the write L(t+2) decided in the same cycle: pairwise
  // order of the accumulators, and per way acc + m (saturated), acc - m,
  // acc > m.

  logic [Ways-1:0]           hv, hk;
  logic [Ways-1:0][AccW-1:0] a2;
  logic [Ways-1:0][AccW-1:0] p_sum, p_diff;
  logic [Ways-1:0]           p_sat, p_gt;
  logic [Ways-1:0][Ways-1:0] beat;  // beat[i][k]: i before k in the minimum order
  logic [AccW-1:0]           s2_m;
  logic [Ways-1:0]           s2_m2;  // w1 holds L(t+1) now
  assign s2_m  = AccW'(s2_metric_q);
  assign s2_m2 = w1_en_q ? (s2_e2_q & w1_oh_q) : '0;

  for (genvar w = 0; w < Ways; w++) begin : gen_s2
    logic keq_ram;
    logic [AccW:0] sum;
    assign keq_ram = &s2_pk_q[w];
    assign a2[w]   = s2_m2[w] ? w1_acc : s2_m3_q[w] ? w2_acc_q : s2_m4_q[w] ? w3_acc_q : s2_acc_q[w];
    assign hk[w]   = (s2_m2[w] && w1_k_q) ? s2_sk2_q :
                     (s2_m3_q[w] && w2_k_q) ? s2_sk3_q :
                     (s2_m4_q[w] && w3_k_q) ? s2_sk4_q : keq_ram;
    assign hv[w]   = (sv2[w] && !s2_clr_q) || s2_m2[w] || s2_m3_q[w] || s2_m4_q[w];
    assign sum       = {1'b0, a2[w]} + {1'b0, s2_m};
    assign p_sat[w]  = sum[AccW];
    assign p_sum[w]  = sum[AccW] ? '1 : sum[AccW-1:0];
    assign p_diff[w] = a2[w] - s2_m;
    assign p_gt[w]   = a2[w] > s2_m;
    for (genvar k = 0; k < Ways; k++) begin : gen_beat
      // Ties to the lower way; one comparator per pair (the two
      // expressions of a pair are the same cell after opt_merge).
      if (k == w) begin : gen_self
        assign beat[w][k] = 1'b1;
      end else if (w < k) begin : gen_lo
        assign beat[w][k] = (a2[w] <= a2[k]);
      end else begin : gen_hi
        assign beat[w][k] = !(a2[k] <= a2[w]);
      end
    end
  end

  logic [Ways-1:0]           s3_hv_q, s3_hk_q, s3_sat_q, s3_gt_q;
  logic [Ways-1:0][AccW-1:0] s3_a2_q, s3_sum_q, s3_diff_q;
  logic [Ways-1:0][Ways-1:0] s3_beat_q;
  always_ff @(posedge clk_i) begin
    // A clear at this edge empties the table under the descriptor.
    s3_hv_q   <= cmd_clear ? '0 : hv;
    s3_hk_q   <= hk;
    s3_a2_q   <= a2;
    s3_sum_q  <= p_sum;
    s3_sat_q  <= p_sat;
    s3_diff_q <= p_diff;
    s3_gt_q   <= p_gt;
    s3_beat_q <= beat;
  end

  // ---------------------------------------------------------------------
  // S3: the write L(t+2) of the last edge (w1) forwarded into way j (m1,
  // one-hot or zero), then the decision. Only compares against w1's
  // accumulator are left in this cycle: the victim is way j when w1's acc
  // (with j) comes before the minimum of the other ways (by the S2 order),
  // else that minimum. Everything that does not depend on that compare is
  // prepared beside it, so the compare is followed by three levels of logic.

  logic [AccW-1:0] s3_m;
  logic [Ways-1:0] m1;       // w1 holds L(t+2) now
  logic            j_any;
  logic [Ways-1:0] j_lt;     // j_lt[w]: j < w (w1 wins a tie with way w)
  logic [Ways-1:0] val3, keq3, hit3, free3;
  logic [Ways-1:0] hit_oh, free_oh, win_ex, sel_le, sel_lt, vic_t, w_lt, w_le;
  logic            hit_any, free_any, miss_full, take_j, hit_j;
  logic [AccW:0]   w_sum_x;
  logic [AccW-1:0] w_sum, w_diff;
  logic            w_sat, w_gt;

  assign s3_m  = AccW'(s3_metric_q);
  assign m1    = w1_en_q ? (s3_e1_q & w1_oh_q) : '0;
  assign j_any = |m1;
  always_comb begin
    for (int unsigned w = 0; w < Ways; w++) begin
      j_lt[w] = 1'b0;
      for (int unsigned k = 0; k < w; k++) j_lt[w] = j_lt[w] | m1[k];
    end
  end

  assign val3  = s3_hv_q | m1;
  assign keq3  = w1_k_q ? ((s3_hk_q & ~m1) | ({Ways{s3_sk1_q}} & m1)) : s3_hk_q;
  assign hit3  = val3 & keq3;
  assign free3 = ~val3;

  // Lowest set bit, one-hot.
  always_comb begin
    hit_oh  = '0;
    free_oh = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (hit3[w]) hit_oh = Ways'(1) << w;
      if (free3[w]) free_oh = Ways'(1) << w;
    end
  end
  assign hit_any   = |hit3;
  assign free_any  = |free3;
  assign miss_full = !hit_any && !free_any;

  assign w_sum_x = {1'b0, w1_acc} + {1'b0, s3_m};
  assign w_sat   = w_sum_x[AccW];
  assign w_sum   = w_sum_x[AccW] ? '1 : w_sum_x[AccW-1:0];
  assign w_diff  = w1_acc - s3_m;
  assign w_gt    = w1_acc > s3_m;

  for (genvar w = 0; w < Ways; w++) begin : gen_s3
    // w1's entry (way j) before way w: both compares straight from the
    // registers, the tie-break (j < w) picks one after them.
    assign w_lt[w] = (w1_acc < s3_a2_q[w]);
    assign w_le[w] = (w1_acc <= s3_a2_q[w]);
    // Way w is the minimum of the ways other than j.
    always_comb begin
      win_ex[w] = !m1[w];
      for (int unsigned k = 0; k < Ways; k++) begin
        if (k != w) win_ex[w] = win_ex[w] && (m1[k] || s3_beat_q[w][k]);
      end
    end
    // A miss in a full set, w the minimum of the ways other than j, and j
    // before w: j is the victim. The selects are ready before the compares.
    assign sel_le[w] = miss_full && j_any && win_ex[w] && j_lt[w];
    assign sel_lt[w] = miss_full && j_any && win_ex[w] && !j_lt[w];
    assign vic_t[w]  = (sel_le[w] && w_le[w]) || (sel_lt[w] && w_lt[w]);
  end
  // take_j: a miss in a full set whose victim is way j (with one way, j is
  // the only candidate). Two levels of logic after the compares.
  assign take_j = (Ways == 1) ? (miss_full && j_any) : |vic_t;
  assign hit_j = |(hit_oh & m1);

  // One-hot selections of the S2 values.
  logic [AccW-1:0] ex_sum, ex_diff, hit_sum, ex_a2;
  logic            ex_sat, ex_gt, hit_sat;
  logic [SetW-1:0] ex_addr, hit_addr, free_addr, j_addr;
  always_comb begin
    ex_sum    = '0;
    ex_diff   = '0;
    ex_a2     = '0;
    ex_sat    = 1'b0;
    ex_gt     = 1'b0;
    hit_sum   = '0;
    hit_sat   = 1'b0;
    ex_addr   = '0;
    hit_addr  = '0;
    free_addr = '0;
    j_addr    = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      if (win_ex[w]) begin
        ex_sum  = ex_sum | s3_sum_q[w];
        ex_diff = ex_diff | s3_diff_q[w];
        ex_a2   = ex_a2 | s3_a2_q[w];
        ex_sat  = ex_sat | s3_sat_q[w];
        ex_gt   = ex_gt | s3_gt_q[w];
        ex_addr = ex_addr | s3_idx_q[w];
      end
      if (hit_oh[w]) begin
        hit_sum  = hit_sum | s3_sum_q[w];
        hit_sat  = hit_sat | s3_sat_q[w];
        hit_addr = hit_addr | s3_idx_q[w];
      end
      if (free_oh[w]) free_addr = free_addr | s3_idx_q[w];
      if (m1[w]) j_addr = j_addr | s3_idx_q[w];
    end
  end

  // Outcome of the descriptor in S3 (meaningful when it is complete). Each
  // result is prepared for both victims (way j: *_j; the minimum of the
  // others: *_x) and the hit / fill cases folded into the second; take_j
  // picks.
  logic            is_ss, is_erode, is_prob, reject, replace, fill, sat;
  logic            adm_j, adm_x;  // lfu+prob: the probation count beats victim j / x
  logic            rej_j, rej_x, sat_j, sat_x;
  logic [AccW-1:0] h_sum, acc_j, acc_x, prob_c;
  logic            h_sat;
  logic [Ways-1:0] oh_x;
  logic [SetW-1:0] addr_x;

  assign is_ss    = (s3_policy_q == PolicySs);
  assign is_erode = (s3_policy_q == PolicyErode);
  assign is_prob  = HasProb && (s3_policy_q == PolicyLfuProb);
  assign h_sum    = hit_j ? w_sum : hit_sum;
  assign h_sat    = hit_j ? w_sat : hit_sat;
  // lfu+prob refuses (the victim keeps its accumulator, rewritten as it is)
  // unless the path's probation count beats it; an admitted path starts at
  // that count.
  assign rej_j    = (is_erode && w_gt) || (is_prob && !adm_j);
  assign rej_x    = (is_erode && ex_gt) || (is_prob && !adm_x);
  assign acc_j    = rej_j ? (is_prob ? w1_acc : w_diff) : is_ss ? w_sum : is_prob ? prob_c : s3_m;
  assign sat_j    = !rej_j && is_ss && w_sat;

  always_comb begin
    if (hit_any) begin
      oh_x   = hit_oh;
      addr_x = hit_addr;
      acc_x  = h_sum;
      sat_x  = h_sat;
    end else if (free_any) begin
      oh_x   = free_oh;
      addr_x = free_addr;
      acc_x  = s3_m;
      sat_x  = 1'b0;
    end else begin
      oh_x   = win_ex;
      addr_x = ex_addr;
      acc_x  = rej_x ? (is_prob ? ex_a2 : ex_diff) : is_ss ? ex_sum : is_prob ? prob_c : s3_m;
      sat_x  = !rej_x && is_ss && ex_sat;
    end
  end

  logic [SetW-1:0] wr_addr;
  assign commit  = s3_valid_q && !s3_incomplete_q;
  assign fill    = !hit_any && free_any;
  assign reject  = take_j ? rej_j : (miss_full && rej_x);
  assign replace = take_j ? !rej_j : (miss_full && !rej_x);
  assign wr_oh   = take_j ? m1 : oh_x;
  assign wr_addr = take_j ? j_addr : addr_x;
  assign sat     = take_j ? sat_j : sat_x;

  // Probation area (lfu+prob): its count for the descriptor in S3 against
  // both victim candidates; the row is updated on a miss with a full set.
  if (HasProb) begin : gen_prob
    // The area prepares its choice and count c before S3
    // (hwprof_hpt_probation): here only c > acc is compared, against both
    // victim candidates (w1's accumulator for way j, each other way's S2
    // accumulator for the minimum of the others), straight from the
    // registers; win_ex picks as for erode's ex_gt.
    logic [ProbCountBits-1:0] cnt;
    logic [Ways-1:0]          gt_x;
    localparam int unsigned CntCmpW = (ProbCountBits > AccW) ? ProbCountBits : AccW;

    /// cnt > acc.
    function automatic logic cnt_gt(logic [ProbCountBits-1:0] c, logic [AccW-1:0] a);
      logic [CntCmpW-1:0] aw;
      aw = CntCmpW'(a);
      // a < 2^ProbCountBits and c above its low bits.
      return ((aw >> ProbCountBits) == '0) && (c > ProbCountBits'(aw));
    endfunction

    hwprof_hpt_probation #(
      .ProbSets (ProbSets),
      .ProbWays (ProbWays),
      .FpBits   (ProbFpBits),
      .CountBits(ProbCountBits),
      .MetricW  (MetricW)
    ) u_prob (
      .clk_i,
      .rst_ni,
      .go_i       (go),
      .start_i    (in_start_i),
      .length_i   (in_length_i),
      .dirs_i     (in_dirs_i),
      .clear_i    (cmd_clear),
      .s2_metric_i(s2_metric_q),
      .s3_count_o (cnt),
      .we_i       (commit && miss_full && is_prob),
      .admit_i    (take_j ? adm_j : adm_x)
    );
    for (genvar w = 0; w < Ways; w++) begin : gen_gt
      assign gt_x[w] = cnt_gt(cnt, s3_a2_q[w]);
    end
    assign prob_c = AccW'(cnt);
    assign adm_j  = cnt_gt(cnt, w1_acc);
    assign adm_x  = |(win_ex & gt_x);
  end else begin : gen_no_prob
    assign prob_c = '0;
    assign adm_j  = 1'b0;
    assign adm_x  = 1'b0;
  end

  // Write history. A clear kills the write of its edge and the ones before
  // (the valid bits are cleared; nothing is forwarded across a clear).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w1_en_q <= 1'b0;
    end else begin
      w1_en_q <= commit && !cmd_clear;
    end
  end

  always_ff @(posedge clk_i) begin
    w1_k_q    <= !reject;
    w1_oh_q   <= wr_oh;
    w1_addr_q <= wr_addr;
    w1_tj_q   <= take_j;
    w1_accj_q <= acc_j;
    w1_accx_q <= acc_x;
    w1_key_q  <= s3_key_q;
    w2_k_q    <= w1_k_q;
    w2_acc_q  <= w1_acc;
    w3_k_q    <= w2_k_q;
    w3_acc_q  <= w2_acc_q;
  end

  // Fresh rows: reset and clear make every row stale in one cycle (so every
  // entry invalid); w1's write makes its row fresh at the edge where the RAM
  // takes the word (a clear at that edge wins).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fresh_q <= '0;
    end else if (cmd_clear) begin
      fresh_q <= '0;
    end else if (w1_en_q) begin
      fresh_q[w1_addr_q] <= 1'b1;
    end
  end

  // ---------------------------------------------------------------------
  // Dump walk.

  always_comb begin
    state_d    = state_q;
    dump_set_d = dump_set_q;
    dump_way_d = dump_way_q;
    drain_d    = drain_q;
    unique case (state_q)
      StIdle: begin
        if (cmd_dump) begin
          state_d    = StDrain;
          dump_set_d = '0;
          dump_way_d = '0;
          drain_d    = '0;
        end
      end
      StDrain: begin
        drain_d = drain_q + 2'd1;
        if (drain_q == 2'(DrainCycles - 1)) state_d = StRead;
      end
      StRead: state_d = StLoad;
      StLoad: begin
        state_d    = StEmit;
        dump_way_d = '0;
      end
      StEmit: begin
        if (!dump_valid_o || dump_ready_i) begin
          if (dump_way_q != WayW'(Ways - 1)) begin
            dump_way_d = dump_way_q + WayW'(1);
          end else if (dump_set_q != SetW'(Sets - 1)) begin
            dump_set_d = dump_set_q + SetW'(1);
            state_d    = StRead;
          end else begin
            state_d = StIdle;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      dump_set_q <= '0;
      dump_way_q <= '0;
      drain_q    <= '0;
    end else begin
      state_q    <= state_d;
      dump_set_q <= dump_set_d;
      dump_way_q <= dump_way_d;
      drain_q    <= drain_d;
    end
  end

  // In Load and Emit every way RAM holds set dump_set_q's word and
  // s1_idx_q[w] = dump_set_q; Load registers its valid and fresh bits into
  // S2, so in Emit sv2 is the set's valid row and the walk's handshake does
  // not start at the RAM outputs.
  key_t            dump_key;
  logic [AccW-1:0] dump_acc;
  assign dump_key      = ram_rdata[dump_way_q].key;
  assign dump_acc      = ram_rdata[dump_way_q].acc;
  assign dump_valid_o  = (state_q == StEmit) && sv2[dump_way_q];
  assign dump_set_o    = dump_set_q;
  assign dump_way_o    = dump_way_q;
  assign dump_start_o  = dump_key.start;
  assign dump_length_o = dump_key.length;
  assign dump_dirs_o   = dump_key.dirs;
  assign dump_acc_o    = dump_acc;
  assign dump_busy_o   = !idle;

  // ---------------------------------------------------------------------
  // Statistics: 32-bit saturating counters at addresses HptAddrDescs + k.
  // The outcome of the descriptor in S3 is registered at its commit edge
  // (st_v_q, st_out_q) and counted at the next edge (Hpt::kStatsLatency), so
  // no counter enable waits for the victim choice. clear_stats wins over
  // the increment of its edge and also drops the outcome registered at it:
  // the counters hold the descriptors that commit after the clearing edge.
  // STALL_CYCLES counts at the edge of the stall.

  localparam int unsigned NumStats = 32'(HptAddrStallCycles) - 32'(HptAddrDescs) + 1;
  localparam int unsigned NumOut   = NumStats - 1;  // DESCS .. IGNORED
  logic [NumStats-1:0]            st_inc;
  logic [NumStats-1:0][StatW-1:0] st;
  logic                           st_v_q;    // st_out_q holds an outcome (reset)
  logic [NumOut-1:0]              st_out_q;  // no reset: qualified by st_v_q

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_v_q <= 1'b0;
    end else begin
      st_v_q <= s3_valid_q && !cmd_clear_stats;
    end
  end

  always_ff @(posedge clk_i) begin
    st_out_q <= {s3_incomplete_q,                             // 6 ignored
                 !s3_incomplete_q && sat,                     // 5 saturations
                 !s3_incomplete_q && reject,                  // 4 rejects
                 !s3_incomplete_q && replace,                 // 3 replacements
                 !s3_incomplete_q && fill,                    // 2 fills
                 !s3_incomplete_q && hit_any,                 // 1 hits
                 !s3_incomplete_q};                           // 0 descs
  end

  assign st_inc = {in_valid_i && !in_ready_o,                 // 7 stall cycles
                   {NumOut{st_v_q}} & st_out_q};              // 6..0 as st_out_q

  hwprof_stat_bank #(.N(NumStats), .W(StatW)) u_stats (
    .clk_i, .rst_ni, .clear_i(cmd_clear_stats), .inc_i(st_inc), .add_i('1),
    .cnt_o(st)
  );

  // ---------------------------------------------------------------------
  // Register read.

  localparam logic [31:0] ParamsWord = (32'(HptParamsWaysW'(Ways)) << HptParamsWaysLsb) |
                                       (32'(HasProb) << HptParamsProbBit) |
                                       (32'(HptParamsSetBitsW'(SetBits)) << HptParamsSetBitsLsb);

  logic [31:0] status;
  assign status = (32'(err_q) << HptStatusErrBit) | (32'(dump_busy_o) << HptStatusDumpBusyBit);

  // Counter k at HptAddrDescs + k; CMD and addresses above PARAMS read 0.
  logic [2:0] st_off;
  assign st_off = 3'(csr_addr_i - HptAddrDescs);

  always_comb begin
    unique case (csr_addr_i)
      HptAddrCtrl:   csr_rdata_o = 32'(ctrl_q);
      HptAddrStatus: csr_rdata_o = status;
      HptAddrCmd:    csr_rdata_o = '0;
      HptAddrParams: csr_rdata_o = ParamsWord;
      default:       csr_rdata_o = (csr_addr_i < HptAddrParams) ? st[st_off] : '0;
    endcase
  end

  // The fold uses start[31:2] (docs/hpt.md, "Index"); the low two bits are
  // part of the key only.
  logic [1:0] unused_start_lo;
  assign unused_start_lo = in_start_i[1:0];
  // CTRL holds 6 bits, STATUS and CMD use the low 3; the rest of a write is
  // ignored.
  logic [31:CtrlW] unused_wdata_hi;
  assign unused_wdata_hi = csr_wdata_i[31:CtrlW];

  // ---------------------------------------------------------------------
  // Assertions.

  `HWPROF_ASSERT(ctrl_q_legal, ctrl_q[HptCtrlMetricLsb +: HptCtrlMetricW] != MetricIllegal &&
                 (HasProb || ctrl_q[HptCtrlPolicyLsb +: HptCtrlPolicyW] != PolicyIllegal))
  `HWPROF_ASSERT(s3_policy_legal, s3_valid_q |->
                 s3_policy_q == PolicyLfu || s3_policy_q == PolicySs || s3_policy_q == PolicyErode || HasProb)
  // Dump handshake: valid only inside a walk; once valid, stays valid with
  // stable data until taken.
  `HWPROF_ASSERT(dump_valid_only_when_busy, dump_valid_o |-> dump_busy_o)
  `HWPROF_ASSERT(dump_valid_held, dump_valid_o && !dump_ready_i |=> dump_valid_o)
  `HWPROF_ASSERT(dump_data_held, dump_valid_o && !dump_ready_i |=>
                 $stable({dump_set_o, dump_way_o, dump_start_o, dump_length_o, dump_dirs_o, dump_acc_o}))
  `HWPROF_ASSERT(dump_way_in_range, dump_way_q <= WayW'(Ways - 1))
  for (genvar w = 0; w < Ways; w++) begin : gen_assert_way
    // The walk reads the valid bits through the S1 read index.
    logic [SetW-1:0] rd_idx;
    assign rd_idx = s1_idx_q[w];
    `HWPROF_ASSERT(emit_reads_dump_set, state_q == StEmit |-> rd_idx == dump_set_q)
  end
  // The table is frozen while the walk reads it: the pipeline and the write
  // register are empty after Drain.
  `HWPROF_ASSERT(pipe_empty_during_walk, s1_valid_q || s2_valid_q || s3_valid_q || w1_en_q |->
                 state_q == StIdle || state_q == StDrain)
  `HWPROF_ASSERT(no_intake_during_dump, dump_busy_o |-> !go)
  // Exactly one outcome per complete descriptor; a write forwards into at
  // most one way; the victim and the chosen way are one way.
  `HWPROF_ASSERT(one_outcome, commit |-> $onehot({hit_any, fill, replace, reject}))
  `HWPROF_ASSERT(forward_at_most_one_way, $onehot0(m1) && $onehot0(s2_m2) && $onehot0(s2_m3_q) &&
                 $onehot0(s2_m4_q))
  `HWPROF_ASSERT(victim_one_way, commit && miss_full && !take_j |-> $onehot(win_ex))
  `HWPROF_ASSERT(victim_j_only_with_w1, take_j |-> miss_full && j_any)
  `HWPROF_ASSERT(write_one_way, commit |-> $onehot(wr_oh))
  `HWPROF_ASSERT(saturation_only_on_add, commit && sat |-> hit_any || (replace && s3_policy_q == PolicySs))
  // HITS + FILLS + REPLACEMENTS + REJECTS (st[1..4]) = DESCS (st[0]) until
  // a counter saturates.
  logic             st_any_full;
  logic [StatW+1:0] st_outcomes;
  always_comb begin
    st_any_full = &st[0];
    st_outcomes = '0;
    for (int unsigned k = 1; k <= 4; k++) begin
      st_any_full = st_any_full || (&st[k]);
      st_outcomes = st_outcomes + (StatW + 2)'(st[k]);
    end
  end
  `HWPROF_ASSERT(counters_add_up, !st_any_full |-> st_outcomes == (StatW + 2)'(st[0]))


`ifdef FORMAL
  // ---------------------------------------------------------------------
  // Formal properties (make formal: formal/hpt.sby with the harness
  // formal/hwprof_hpt_fv.sv, which resets the design in its first cycle;
  // docs/verification.md). Immediate assertions only; no effect on
  // simulation or synthesis.
  //
  // A reference table f_tv/f_tk/f_ta[set][way], written from the table
  // update of the header (steps 1-3, every policy) and updated when a
  // descriptor commits (then cleared by a CMD clear of the same edge), with
  // the descriptors' key, metric, policy and per-way index captured at
  // acceptance and delayed by the commit latency (f_*3). At every commit
  // the RTL's outcome, written way, address, accumulator, key write and
  // saturation flag equal the reference's, computed on the reference table,
  // so every forwarding distance is checked against the table as it really
  // is. Stated on their own as well: a hit is never replaced (the key's way
  // is written, as a hit); a free way is filled before any eviction (the
  // lowest one); the victim of a replacement or rejection has the minimum
  // accumulator, every lower way a strictly larger one. During a dump walk
  // every entry offered is the reference entry of its set and way, and a way
  // skipped is invalid in the reference. Bounded (the RAM words are not
  // visible to an induction).
  logic f_past_q = 1'b0;
  always_ff @(posedge clk_i) f_past_q <= 1'b1;

  logic                f_v1_q, f_v2_q, f_v3_q;
  key_t                f_key1_q, f_key2_q, f_key3_q;
  logic [AccW-1:0]     f_m1_q, f_m2_q, f_m3_q;
  logic [1:0]          f_pol1_q, f_pol2_q, f_pol3_q;
  logic                f_inc1_q, f_inc2_q, f_inc3_q;
  logic [SetW-1:0]     f_idx1_q [Ways];
  logic [SetW-1:0]     f_idx2_q [Ways];
  logic [SetW-1:0]     f_idx3_q [Ways];
  logic [AccW-1:0]     f_in_m;

  always_comb begin
    unique case (ctrl_q[HptCtrlMetricLsb +: HptCtrlMetricW])
      MetricEvents: f_in_m = AccW'(in_events_i);
      MetricInsns:  f_in_m = AccW'(in_insns_i);
      default:      f_in_m = AccW'(1);
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {f_v1_q, f_v2_q, f_v3_q} <= '0;
    else {f_v1_q, f_v2_q, f_v3_q} <= {go, f_v1_q, f_v2_q};
  end
  always_ff @(posedge clk_i) begin
    f_key1_q <= in_key;
    f_m1_q   <= f_in_m;
    f_pol1_q <= ctrl_q[HptCtrlPolicyLsb +: HptCtrlPolicyW];
    f_inc1_q <= in_incomplete_i;
    f_idx1_q <= in_idx;
    {f_key2_q, f_m2_q, f_pol2_q, f_inc2_q} <= {f_key1_q, f_m1_q, f_pol1_q, f_inc1_q};
    {f_key3_q, f_m3_q, f_pol3_q, f_inc3_q} <= {f_key2_q, f_m2_q, f_pol2_q, f_inc2_q};
    f_idx2_q <= f_idx1_q;
    f_idx3_q <= f_idx2_q;
  end

  // The reference table and its decision for the descriptor in S3.
  logic [Ways-1:0]  f_tv [Sets];
  key_t             f_tk [Sets][Ways];
  logic [AccW-1:0]  f_ta [Sets][Ways];
  logic [Ways-1:0]  f_cv, f_ck;          // the candidates: valid, key equal
  logic [AccW-1:0]  f_ca [Ways];         // their accumulators
  logic             f_hit, f_fill, f_evict, f_reject, f_sat, f_keyw;
  logic [WayW-1:0]  f_way;
  logic [AccW-1:0]  f_acc, f_va;
  logic [AccW:0]    f_sum;
  logic [Ways-1:0]  f_low;               // no other way is a better victim
  for (genvar w = 0; w < Ways; w++) begin : gen_f_cand
    assign f_cv[w] = f_tv[f_idx3_q[w]][w];
    assign f_ck[w] = f_cv[w] && (f_tk[f_idx3_q[w]][w] == f_key3_q);
    assign f_ca[w] = f_ta[f_idx3_q[w]][w];
    always_comb begin
      f_low[w] = 1'b1;
      for (int k = 0; k < Ways; k++) begin
        if (k < w && f_ca[k] <= f_ca[w]) f_low[w] = 1'b0;
        if (k > w && f_ca[k] < f_ca[w]) f_low[w] = 1'b0;
      end
    end
  end
  always_comb begin
    f_hit = |f_ck;
    f_fill = !f_hit && !(&f_cv);
    f_evict = !f_hit && !f_fill;
    f_way = '0;
    if (f_hit) begin
      for (int w = Ways - 1; w >= 0; w--) if (f_ck[w]) f_way = WayW'(w);
    end else if (f_fill) begin
      for (int w = Ways - 1; w >= 0; w--) if (!f_cv[w]) f_way = WayW'(w);
    end else begin
      // Minimum accumulator, ties to the lowest way.
      for (int w = Ways - 1; w >= 0; w--) if (f_low[w]) f_way = WayW'(w);
    end
    f_va = f_ca[f_way];
    f_sum = {1'b0, f_va} + {1'b0, f_m3_q};
    f_reject = 1'b0;
    f_sat = 1'b0;
    f_keyw = 1'b1;
    if (f_hit) begin
      f_acc = f_sum[AccW] ? '1 : f_sum[AccW-1:0];
      f_sat = f_sum[AccW];
    end else if (f_fill) begin
      f_acc = f_m3_q;
    end else if (f_pol3_q == PolicySs) begin
      f_acc = f_sum[AccW] ? '1 : f_sum[AccW-1:0];
      f_sat = f_sum[AccW];
    end else if (f_pol3_q == PolicyErode && f_va > f_m3_q) begin
      f_acc = f_va - f_m3_q;
      f_reject = 1'b1;
      f_keyw = 1'b0;
    end else begin
      f_acc = f_m3_q;
    end
  end

  logic f_commit, f_keyw_q;
  assign f_commit = f_v3_q && !f_inc3_q;
  always_ff @(posedge clk_i) f_keyw_q <= f_keyw;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned a = 0; a < Sets; a++) f_tv[a] <= '0;
    end else if (cmd_clear) begin
      for (int unsigned a = 0; a < Sets; a++) f_tv[a] <= '0;
    end else if (f_commit) begin
      f_tv[f_idx3_q[f_way]][f_way] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_commit) begin
      f_ta[f_idx3_q[f_way]][f_way] <= f_acc;
      if (f_keyw) f_tk[f_idx3_q[f_way]][f_way] <= f_key3_q;
    end
  end

  logic [AccW-1:0] f_wacc;
  assign f_wacc = take_j ? acc_j : acc_x;

  always_comb begin
    if (rst_ni) begin
      assert (s3_valid_q == f_v3_q);
      assert (commit == f_commit);
      if (f_commit) begin
        // The whole outcome equals the reference's.
        assert (hit_any == f_hit);
        assert (fill == f_fill);
        assert (replace == (f_evict && !f_reject));
        assert (reject == f_reject);
        assert (wr_oh == (Ways'(1) << f_way));
        assert (wr_addr == f_idx3_q[f_way]);
        assert (f_wacc == f_acc);
        assert (sat == f_sat);
        // The three rules on their own, against the reference table.
        if (f_hit) begin  // a hit is never replaced
          assert (hit_any && !replace && !reject && |(wr_oh & f_ck));
        end
        if (!f_hit && !(&f_cv)) begin  // a free way before any eviction
          assert (fill && !replace && !reject && |(wr_oh & ~f_cv));
          for (int unsigned k = 0; k < Ways; k++) begin
            // The way written is the lowest free one: every way below it is valid.
            if (wr_oh[k]) assert ((f_cv & ((Ways'(1) << k) - 1)) == ((Ways'(1) << k) - 1));
          end
        end
        if (replace || reject) begin  // the victim: minimum, lowest way on a tie
          for (int unsigned v = 0; v < Ways; v++) begin
            if (wr_oh[v]) begin
              for (int unsigned k = 0; k < Ways; k++) begin
                if (k < v) assert (f_ca[k] > f_ca[v]);
                if (k > v) assert (f_ca[k] >= f_ca[v]);
              end
            end
          end
        end
      end
      if (f_past_q && w1_en_q) assert (w1_k_q == f_keyw_q);
      // The dump offers exactly the reference table's valid entries.
      if (state_q == StEmit) begin
        if (dump_valid_o) begin
          assert (f_tv[dump_set_q][dump_way_q]);
          assert (dump_key == f_tk[dump_set_q][dump_way_q]);
          assert (dump_acc == f_ta[dump_set_q][dump_way_q]);
        end else begin
          assert (!f_tv[dump_set_q][dump_way_q]);
        end
      end
    end
  end

  // Reachability (task cover): an eviction, a rejection, a saturation, a
  // hit on the entry written in the cycle before (forwarding at distance
  // one), a valid entry dumped.
  always_comb begin
    if (rst_ni) begin
      cover (commit && replace);
      cover (commit && reject);
      cover (commit && sat);
      cover (commit && hit_j);
      cover (dump_valid_o && dump_ready_i);
    end
  end
`endif

endmodule

`default_nettype wire
