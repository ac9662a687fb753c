// hwprof_phase_detector: the path-based phase detector and its BBV baseline
// (docs/phase_detector.md; hwprof-spec.md section 3.3): a register file and
// the feature source of the mode around hwprof_detector_core. Model:
// sim_models/phase/phase_detector.h, PhaseDetector. hwprof_bbv_phase.sv and
// hwprof_path_phase.sv fix the mode.
//
//   Mode 0 (BBV): each record is one item: feature {key = pc, weight =
//     insns}, tick insns. rec_ready_o = the core's item_ready.
//   Mode 1 (path): rec_* -> hwprof_path_classifier (u_classifier, PPCR from
//     hwprof_ppcr_reg) -> hwprof_path_stack (u_stack) -> core. When the stack processes
//     record i it loads the tick register with record i's insns in the same
//     edge as its output register takes record i's emission (if any); the
//     core then takes both as one item: the emission (unless incomplete,
//     which is counted in IGNORED) as feature {path key, path insns}, then
//     the tick. The stack takes a record only when the tick register is
//     empty or being taken, so every record reaches the core exactly once
//     and its path is accumulated before its instructions are counted.
//
// Registers: data/regs/detector.json
// (generated: hwprof_detector_reg_pkg, docs/phase_detector.md, "Registers").
// Same-cycle ordering: csr_rdata_o is combinational from csr_addr_i and the
// state before the edge. A cycle with csr_we_i takes no record into the
// core (item_ready low), so a register write never meets an item. An
// illegal write sets err even when a STATUS clear is in the same cycle (one
// address per cycle makes that impossible anyway).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_phase_detector #(
  /// 0: BBV (branch-pc hash, record insns); 1: path (descriptor hash, path insns).
  parameter int unsigned Mode = 0,
  /// Accumulators (a power of two, 2..128).
  parameter int unsigned Counters = 32,
  /// Signature element width; scaled total 2^SigW (4..16).
  parameter int unsigned SigW = 10,
  /// Signature table entries (1..64).
  parameter int unsigned Entries = 32,
  /// Markov predictor slots (a power of two >= 2).
  parameter int unsigned MarkovEntries = 256,
  /// Reset value of INTERVAL (>= 1).
  parameter int unsigned IntervalInsns = 1000000,
  /// Reset value of THRESHOLD (1..2^(SigW+1)).
  parameter int unsigned Threshold = 128,
  /// Path stack entries (path mode).
  parameter int unsigned Depth = 16,
  /// Maximum branches per path (path mode, 1..32).
  parameter int unsigned MaxLen = 32,
  /// Width of a distance.
  localparam int unsigned DistW = SigW + 2
) (
  /// Clock.
  input  wire logic                      clk_i,
  /// Asynchronous active-low reset: everything, registers to their reset values.
  input  wire logic                      rst_ni,
  // Branch records.
  /// A record is offered.
  input  wire logic                      rec_valid_i,
  /// It is taken (combinational from csr_we_i and the state).
  output logic                           rec_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t   rec_data_i,
  // Results, one per interval (registered; held until taken).
  /// A result is offered.
  output logic                           res_valid_o,
  /// The consumer takes it (records stall while a result waits).
  input  wire logic                      res_ready_i,
  /// Phase id.
  output logic [15:0]                    res_phase_o,
  /// The phase differs from the previous interval's (1 for the first).
  output logic                           res_changed_o,
  /// A table entry was within the threshold.
  output logic                           res_matched_o,
  /// Smallest Manhattan distance to a valid entry (all ones when none).
  output logic [DistW-1:0]               res_distance_o,
  /// Predicted phase of the next interval (Markov).
  output logic [15:0]                    res_pred_o,
  /// A prediction for this interval existed ...
  output logic                           res_scored_o,
  /// ... and was right.
  output logic                           res_correct_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic                      csr_we_i,
  /// Word address.
  input  wire logic [3:0]                csr_addr_i,
  /// Write data.
  input  wire logic [31:0]               csr_wdata_i,
  /// Read data of csr_addr_i (combinational).
  output logic [31:0]                    csr_rdata_o
);

  import hwprof_pkg::*;
  import hwprof_detector_reg_pkg::*;

  initial begin
    if (Mode > 1) $fatal(1, "hwprof_phase_detector: Mode must be 0 (BBV) or 1 (path)");
    if (IntervalInsns < 1) $fatal(1, "hwprof_phase_detector: IntervalInsns must be >= 1");
    if (Threshold < 1 || Threshold > (1 << (SigW + 1))) $fatal(1, "hwprof_phase_detector: Threshold must be 1..2^(SigW+1)");
  end

  // ---------------------------------------------------------------------
  // Register writes.

  logic [31:0]      interval_q;
  logic [DistW-1:0] threshold_q;
  logic             err_q;
  logic             restart, ctrl_bad, int_we, int_bad, thr_we, thr_bad, clr_err;
  logic             thr_legal;

  assign thr_legal = (csr_wdata_i >= 32'd1) && (csr_wdata_i <= (32'd1 << (SigW + 1)));
  assign restart  = csr_we_i && csr_addr_i == DetAddrCtrl && csr_wdata_i == 32'd1;
  assign ctrl_bad = csr_we_i && csr_addr_i == DetAddrCtrl && csr_wdata_i > 32'd1;
  assign int_we   = csr_we_i && csr_addr_i == DetAddrInterval && csr_wdata_i != '0;
  assign int_bad  = csr_we_i && csr_addr_i == DetAddrInterval && csr_wdata_i == '0;
  assign thr_we   = csr_we_i && csr_addr_i == DetAddrThreshold && thr_legal;
  assign thr_bad  = csr_we_i && csr_addr_i == DetAddrThreshold && !thr_legal;
  assign clr_err  = csr_we_i && csr_addr_i == DetAddrStatus && csr_wdata_i[DetStatusErrBit];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      interval_q <= 32'(IntervalInsns);
      threshold_q <= DistW'(Threshold);
      err_q <= 1'b0;
    end else begin
      if (int_we) interval_q <= csr_wdata_i;
      if (thr_we) threshold_q <= DistW'(csr_wdata_i);
      if (clr_err) err_q <= 1'b0;
      if (ctrl_bad || int_bad || thr_bad) err_q <= 1'b1;
    end
  end

  // ---------------------------------------------------------------------
  // Feature source and core.

  logic                  core_ready, item_valid, item_feat;
  logic [31:0]           item_key;
  logic [DescInsnsW-1:0] item_weight;
  logic [InsnsW-1:0]     item_insns;
  logic                  busy;
  logic [31:0]           st_records, st_features, st_intervals, st_phases, st_busy;
  logic [31:0]           st_ignored, st_stall;
  logic [PpcrW-1:0]      ppcr;
  logic                  ppcr_err;
  logic                  ignore_now;

  if (Mode == 0) begin : gen_bbv
    assign item_valid = rec_valid_i;
    assign item_feat = 1'b1;
    assign item_key = rec_data_i.pc;
    assign item_weight = DescInsnsW'(rec_data_i.insns);
    assign item_insns = rec_data_i.insns;
    assign rec_ready_o = core_ready;
    assign ppcr = '0;
    assign ppcr_err = 1'b0;
    assign ignore_now = 1'b0;
    // Only pc and insns feed the BBV.
    logic unused_rec;
    assign unused_rec = ^{rec_data_i.kind, rec_data_i.target, rec_data_i.taken, rec_data_i.ilen, rec_data_i.events};
  end else begin : gen_path
    localparam int unsigned LenW = $clog2(MaxLen + 1);
    localparam int unsigned CountW = $clog2(Depth + 1);

    logic              c_valid, c_ready, s_in_ready, tick_free, go;
    path_rec_t         c_data;
    logic              s_valid, s_incomplete;
    logic [AddrW-1:0]  s_start;
    logic [LenW-1:0]   s_length;
    logic [MaxLen-1:0] s_dirs;
    logic [DescInsnsW-1:0] s_insns;
    logic [31:0]       dirs32;
    logic              tick_valid_q;
    logic [InsnsW-1:0] tick_insns_q;

    hwprof_ppcr_reg u_ppcr (
      .clk_i,
      .rst_ni,
      .we_i       (csr_we_i && csr_addr_i == DetAddrPpcr),
      .wdata_i    (csr_wdata_i),
      .err_clear_i(csr_we_i && csr_addr_i == DetAddrStatus && csr_wdata_i[DetStatusPpcrErrBit]),
      .ppcr_o     (ppcr),
      .err_o      (ppcr_err)
    );

    hwprof_path_classifier u_classifier (
      .clk_i,
      .rst_ni,
      .ppcr_i     (ppcr),
      .in_valid_i (rec_valid_i),
      .in_ready_o (rec_ready_o),
      .in_data_i  (rec_data_i),
      .out_valid_o(c_valid),
      .out_ready_i(c_ready),
      .out_data_o (c_data)
    );

    assign tick_free = !tick_valid_q || core_ready;
    assign c_ready = s_in_ready && tick_free;
    assign go = c_valid && c_ready;

    logic [hwprof_pkg::DescEventsW-1:0] unused_events;
    logic [ExtW-1:0]   unused_ext;
    logic              unused_split, unused_frame_end;
    logic [CountW-1:0] unused_depth, unused_count;
    logic [31:0]       unused_st [7];

    hwprof_path_stack #(
      .Depth (Depth),
      .MaxLen(MaxLen)
    ) u_stack (
      .clk_i,
      .rst_ni,
      .in_valid_i         (c_valid && tick_free),
      .in_ready_o         (s_in_ready),
      .in_data_i          (c_data),
      .out_valid_o        (s_valid),
      .out_ready_i        (core_ready),
      .out_start_o        (s_start),
      .out_length_o       (s_length),
      .out_dirs_o         (s_dirs),
      .out_events_o       (unused_events),
      .out_insns_o        (s_insns),
      .out_ext_o          (unused_ext),
      .out_incomplete_o   (s_incomplete),
      .out_split_o        (unused_split),
      .out_frame_end_o    (unused_frame_end),
      .out_depth_o        (unused_depth),
      .count_o            (unused_count),
      .stat_records_o     (unused_st[0]),
      .stat_emitted_o     (unused_st[1]),
      .stat_incomplete_o  (unused_st[2]),
      .stat_splits_o      (unused_st[3]),
      .stat_overflows_o   (unused_st[4]),
      .stat_empty_pops_o  (unused_st[5]),
      .stat_stall_cycles_o(unused_st[6])
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tick_valid_q <= 1'b0;
        tick_insns_q <= '0;
      end else if (go) begin
        tick_valid_q <= 1'b1;
        tick_insns_q <= c_data.insns;
      end else if (core_ready) begin
        tick_valid_q <= 1'b0;
      end
    end

    assign dirs32 = 32'(s_dirs);
    assign item_valid = tick_valid_q;
    assign item_feat = s_valid && !s_incomplete;
    assign item_key = s_start ^ {dirs32[15:0], dirs32[31:16]} ^ (32'(s_length) << 26);
    assign item_weight = s_insns;
    assign item_insns = tick_insns_q;
    assign ignore_now = tick_valid_q && core_ready && s_valid && s_incomplete;

    `HWPROF_ASSERT(emission_has_tick, s_valid |-> tick_valid_q)
  end

  hwprof_detector_core #(
    .Counters     (Counters),
    .SigW         (SigW),
    .Entries      (Entries),
    .MarkovEntries(MarkovEntries)
  ) u_core (
    .clk_i,
    .rst_ni,
    .restart_i       (restart),
    .interval_we_i   (int_we),
    .interval_i      (interval_q),
    .threshold_i     (threshold_q),
    .hold_i          (csr_we_i),
    .item_valid_i    (item_valid),
    .item_ready_o    (core_ready),
    .item_feat_i     (item_feat),
    .item_key_i      (item_key),
    .item_weight_i   (item_weight),
    .item_insns_i    (item_insns),
    .res_valid_o,
    .res_ready_i,
    .res_phase_o,
    .res_changed_o,
    .res_matched_o,
    .res_distance_o,
    .res_pred_o,
    .res_scored_o,
    .res_correct_o,
    .busy_o          (busy),
    .stat_records_o  (st_records),
    .stat_features_o (st_features),
    .stat_intervals_o(st_intervals),
    .stat_phases_o   (st_phases),
    .stat_busy_o     (st_busy)
  );

  // IGNORED and STALL_CYCLES (32-bit saturating, cleared only by reset).
  hwprof_stat_bank #(
    .N(2),
    .W(32)
  ) u_stats (
    .clk_i,
    .rst_ni,
    .clear_i(1'b0),
    .inc_i  ({rec_valid_i && !rec_ready_o, ignore_now}),
    .add_i  ('1),
    .cnt_o  ({st_stall, st_ignored})
  );

  // ---------------------------------------------------------------------
  // Register reads.

  localparam logic [31:0] ParamsWord = {7'b0, 1'(Mode), 8'(Entries), 8'(SigW), 8'(Counters)};

  always_comb begin
    unique case (csr_addr_i)
      DetAddrCtrl:        csr_rdata_o = '0;
      DetAddrStatus:      csr_rdata_o = {28'b0, res_valid_o, busy, ppcr_err, err_q};
      DetAddrInterval:    csr_rdata_o = interval_q;
      DetAddrThreshold:   csr_rdata_o = 32'(threshold_q);
      DetAddrPpcr:        csr_rdata_o = ppcr;
      DetAddrRecords:     csr_rdata_o = st_records;
      DetAddrFeatures:    csr_rdata_o = st_features;
      DetAddrIgnored:     csr_rdata_o = st_ignored;
      DetAddrIntervals:   csr_rdata_o = st_intervals;
      DetAddrPhases:      csr_rdata_o = st_phases;
      DetAddrStallCycles: csr_rdata_o = st_stall;
      DetAddrBusyCycles:  csr_rdata_o = st_busy;
      DetAddrParams:      csr_rdata_o = ParamsWord;
      default:         csr_rdata_o = '0;
    endcase
  end

endmodule

`default_nettype wire
