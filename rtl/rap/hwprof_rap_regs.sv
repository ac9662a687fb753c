// hwprof_rap_regs: the RAP engine's register block (docs/rap_engine.md,
// "Registers"): the staged parameters and the ones in use, the CMD decode,
// STATUS with its sticky err, the statistics counters and the read mux.
// hwprof_rap_engine holds the datapath and the controller and reports its
// state and each cycle's events here.
//
// Cycle behaviour (one edge):
//   * CMD.clear (clear_o, combinational) wins over everything: the staged
//     parameters become the ones in use, the statistics, flush mode, the peak
//     and the snapshot are reset; the staged values and err are kept;
//   * a write of EPS, CAP, MERGE_FIRST or BUF_DEPTH stages a legal value
//     (EPS <= 0xffff, 1 <= CAP <= 4 * Groups + 4, MERGE_FIRST >= 1,
//     BUF_DEPTH <= MaxBuf) and otherwise sets err; STATUS bit 0 written 1
//     clears err; CMD.flush starts flush mode, which ends after a cycle that
//     began with the merging buffer empty; CMD.dump starts a dump
//     (dump_start_o) when the engine is idle and otherwise sets err;
//   * counters: each event of the cycle adds 1 (32-bit saturating,
//     hwprof_stat_bank); PEAK reads the larger of its register and the node
//     count now, which is the count after the largest split (the register
//     takes that value at each edge);
//   * reads (combinational, from the state before the edge): the tree values
//     (N, NODES, PEAK, STATUS.full and the tree statistics) are a snapshot
//     while the engine is in a pass or the TCAM write before one (freeze_i
//     at the edge that enters it): the values after the last edge that did
//     not enter one. The flow statistics are always live.
`default_nettype none

module hwprof_rap_regs #(
  /// Value width W.
  parameter int unsigned RangeW = 32,
  /// Child groups.
  parameter int unsigned Groups = 127,
  /// Largest merging-buffer depth.
  parameter int unsigned MaxBuf = 8,
  /// BUF_DEPTH after reset.
  parameter int unsigned BufDefault = 4,
  /// Width of n.
  parameter int unsigned CntW = 40,
  /// TCAM slice width (0: flip-flop TCAM), shown in PARAMS.
  parameter int unsigned TcamSlice = 4,
  /// Width of a group count.
  localparam int unsigned ScanW = $clog2(Groups + 1),
  /// Width of a buffer depth.
  localparam int unsigned BufW = $clog2(MaxBuf + 1)
) (
  /// Clock.
  input  wire logic                         clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                         rst_ni,

  // Register port.
  /// Write strobe.
  input  wire logic                         csr_we_i,
  /// Address.
  input  wire logic [hwprof_rap_reg_pkg::RapAddrW-1:0] csr_addr_i,
  /// Write data.
  input  wire logic [31:0]                  csr_wdata_i,
  /// Read data (combinational).
  output logic [31:0]                       csr_rdata_o,

  // Commands and parameters in use.
  /// CMD.clear is written in this cycle.
  output logic                              clear_o,
  /// CMD.dump is accepted in this cycle (the engine is idle).
  output logic                              dump_start_o,
  /// Flush mode (registered).
  output logic                              flush_o,
  /// EPS in use.
  output logic [15:0]                       eps_o,
  /// Groups that CAP allows (min((CAP - 1) / 4, Groups)), in use.
  output logic [ScanW-1:0]                  cap_groups_o,
  /// Merging-buffer depth in use.
  output logic [BufW-1:0]                   buf_depth_o,
  /// Staged MERGE_FIRST (next_merge after a clear).
  output logic [31:0]                       merge_first_o,

  // Engine state and events.
  /// The merging buffer is empty.
  input  wire logic                         buf_empty_i,
  /// The engine is idle (a dump may start).
  input  wire logic                         idle_i,
  /// The engine is in a merge pass.
  input  wire logic                         pass_i,
  /// The engine is dumping.
  input  wire logic                         dump_i,
  /// The engine waits for a TCAM write.
  input  wire logic                         tcam_write_i,
  /// The next state is a pass or a TCAM write: hold the snapshot.
  input  wire logic                         freeze_i,
  /// Total weight n.
  input  wire logic [CntW-1:0]              tree_n_i,
  /// Child groups in use.
  input  wire logic [ScanW-1:0]             tree_groups_i,
  /// The tree is full (splits are skipped until the next scheduled pass).
  input  wire logic                         tree_full_i,
  /// Tree events of this cycle.
  input  hwprof_rap_pkg::tree_events_t      tree_events_i,
  /// Flow events of this cycle.
  input  hwprof_rap_pkg::flow_events_t      flow_events_i
);

  import hwprof_rap_pkg::*;
  import hwprof_rap_reg_pkg::*;

  localparam logic [31:0] CapMax = 32'(4 * Groups + 4);

  typedef struct packed {
    logic [15:0]     eps;
    logic [31:0]     cap;
    logic [31:0]     merge_first;
    logic [BufW-1:0] buf_depth;
  } staged_t;
  typedef struct packed {
    logic [15:0]      eps;
    logic [ScanW-1:0] cap_groups;
    logic [BufW-1:0]  buf_depth;
  } in_use_t;
  // Control state of the block: one reset value, one clear rule.
  typedef struct packed {
    staged_t     staged;
    in_use_t     in_use;
    logic        err;
    logic        flush;
    logic        frozen;   // the last edge entered a pass or a TCAM write
    logic [31:0] peak;
  } state_t;
  // The tree values the register port shows (snapshot while frozen).
  typedef struct packed {
    logic [CntW-1:0]  n;
    logic [ScanW-1:0] groups;
    logic             full;
    logic [31:0]      peak;
    tree_stats_t      stats;
  } shown_t;

  // The parameters a clear applies: CAP as a number of child groups.
  function automatic in_use_t in_use_of(logic [15:0] eps, logic [31:0] cap, logic [BufW-1:0] buf_depth);
    logic [31:0] cap_groups;
    cap_groups = (cap - 32'd1) >> 2;
    return '{eps: eps, buf_depth: buf_depth,
             cap_groups: (cap_groups < Groups) ? ScanW'(cap_groups) : ScanW'(Groups)};
  endfunction

  localparam logic [BufW-1:0] BufReset = BufW'((BufDefault < MaxBuf) ? BufDefault : MaxBuf);
  localparam staged_t StagedReset = '{eps: 16'(RapEpsReset), cap: CapMax, merge_first: RapMergeFirstReset,
                                      buf_depth: BufReset};
  localparam state_t StateReset = '{staged: StagedReset, in_use: in_use_of(16'(RapEpsReset), CapMax, BufReset),
                                    err: 1'b0, flush: 1'b0, frozen: 1'b0, peak: 32'd1};

  state_t state_q, state_d;
  logic   wr_cmd, legal;
  // PEAK: node counts grow only by splits, so the largest count seen is the
  // larger of the register (the largest before this cycle) and the count now;
  // the register takes that value at each edge, from registered inputs only
  // (no path from this cycle's split decision).
  logic [31:0] nodes_now, peak_now;
  assign nodes_now = nodes_of(32'(tree_groups_i));
  assign peak_now  = (nodes_now > state_q.peak) ? nodes_now : state_q.peak;
  assign wr_cmd  = csr_we_i && csr_addr_i == RapAddrCmd;
  assign clear_o = wr_cmd && csr_wdata_i[RapCmdClearBit];
  assign dump_start_o = wr_cmd && csr_wdata_i[RapCmdDumpBit] && idle_i;

  always_comb begin
    state_d = state_q;
    legal = 1'b1;
    if (csr_we_i) begin
      case (csr_addr_i)
        RapAddrEps: begin
          legal = csr_wdata_i[31:16] == '0;
          if (legal) state_d.staged.eps = csr_wdata_i[15:0];
        end
        RapAddrCap: begin
          legal = csr_wdata_i >= 32'd1 && csr_wdata_i <= CapMax;
          if (legal) state_d.staged.cap = csr_wdata_i;
        end
        RapAddrMergeFirst: begin
          legal = csr_wdata_i != '0;
          if (legal) state_d.staged.merge_first = csr_wdata_i;
        end
        RapAddrBufDepth: begin
          legal = csr_wdata_i <= MaxBuf;
          if (legal) state_d.staged.buf_depth = BufW'(csr_wdata_i);
        end
        RapAddrStatus: if (csr_wdata_i[RapStatusErrBit]) state_d.err = 1'b0;
        // A dump is refused unless idle (a clear in the same write wins).
        RapAddrCmd: legal = !csr_wdata_i[RapCmdDumpBit] || idle_i || csr_wdata_i[RapCmdClearBit];
        default: ;
      endcase
    end
    if (!legal) state_d.err = 1'b1;
    state_d.flush = (state_q.flush && !buf_empty_i) || (wr_cmd && csr_wdata_i[RapCmdFlushBit]);
    state_d.frozen = freeze_i;
    state_d.peak = peak_now;
    if (clear_o) begin
      state_d = StateReset;
      state_d.staged = state_q.staged;
      state_d.err = state_q.err;
      state_d.in_use = in_use_of(state_q.staged.eps, state_q.staged.cap, state_q.staged.buf_depth);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= StateReset;
    else state_q <= state_d;
  end

  assign flush_o = state_q.flush;
  assign eps_o = state_q.in_use.eps;
  assign cap_groups_o = state_q.in_use.cap_groups;
  assign buf_depth_o = state_q.in_use.buf_depth;
  assign merge_first_o = state_q.staged.merge_first;

  // ------------------------------------------------------------------ statistics
  tree_stats_t tree_stats;
  flow_stats_t flow_stats;
  hwprof_stat_bank #(.N($bits(tree_events_t)), .W(32)) u_tree_stats (
    .clk_i, .rst_ni, .clear_i(clear_o), .inc_i(tree_events_i), .add_i('1), .cnt_o(tree_stats));
  hwprof_stat_bank #(.N($bits(flow_events_t)), .W(32)) u_flow_stats (
    .clk_i, .rst_ni, .clear_i(clear_o), .inc_i(flow_events_i), .add_i('1), .cnt_o(flow_stats));

  // Snapshot: taken from the live values at each edge that leaves them shown.
  shown_t live, held_q, shown;
  assign live = '{n: tree_n_i, groups: tree_groups_i, full: tree_full_i, peak: peak_now,
                  stats: tree_stats};
  always_ff @(posedge clk_i) begin
    if (!state_q.frozen) held_q <= live;  // no reset: read only while frozen
  end
  assign shown = state_q.frozen ? held_q : live;

  // ------------------------------------------------------------------ read mux
  localparam logic [31:0] Params = (32'(Groups) << RapParamsGroupsLsb) | (32'(MaxBuf) << RapParamsMaxBufLsb) |
                                   (32'(RangeW) << RapParamsRangeWLsb) | (32'(TcamSlice) << RapParamsTcamSliceLsb);
  logic [31:0] status;
  always_comb begin
    status = '0;
    status[RapStatusErrBit] = state_q.err;
    status[RapStatusIdleBit] = idle_i;
    status[RapStatusFullBit] = shown.full;
    status[RapStatusDumpingBit] = dump_i;
    status[RapStatusPassBit] = pass_i;
    status[RapStatusFlushingBit] = state_q.flush;
    status[RapStatusTwrBit] = tcam_write_i;
  end
  always_comb begin
    case (csr_addr_i)
      RapAddrEps: csr_rdata_o = 32'(state_q.staged.eps);
      RapAddrCap: csr_rdata_o = state_q.staged.cap;
      RapAddrMergeFirst: csr_rdata_o = state_q.staged.merge_first;
      RapAddrBufDepth: csr_rdata_o = 32'(state_q.staged.buf_depth);
      RapAddrStatus: csr_rdata_o = status;
      RapAddrNLo: csr_rdata_o = shown.n[31:0];
      RapAddrNHi: csr_rdata_o = 32'(shown.n[CntW-1:32]);
      RapAddrRaw: csr_rdata_o = flow_stats.raw;
      RapAddrPairs: csr_rdata_o = shown.stats.pairs;
      RapAddrSplits: csr_rdata_o = shown.stats.splits;
      RapAddrSkipped: csr_rdata_o = shown.stats.skipped;
      RapAddrSchedPasses: csr_rdata_o = shown.stats.sched_passes;
      RapAddrCapPasses: csr_rdata_o = shown.stats.cap_passes;
      RapAddrMerges: csr_rdata_o = shown.stats.merges;
      RapAddrNodes: csr_rdata_o = nodes_of(32'(shown.groups));
      RapAddrPeak: csr_rdata_o = shown.peak;
      RapAddrStallFlush: csr_rdata_o = flow_stats.stall_flush;
      RapAddrStallCap: csr_rdata_o = flow_stats.stall_cap;
      RapAddrStallSched: csr_rdata_o = flow_stats.stall_sched;
      RapAddrInStall: csr_rdata_o = flow_stats.in_stall;
      RapAddrParams: csr_rdata_o = Params;
      RapAddrStallTcam: csr_rdata_o = flow_stats.stall_tcam;
      default: csr_rdata_o = '0;
    endcase
  end

endmodule

`default_nettype wire
