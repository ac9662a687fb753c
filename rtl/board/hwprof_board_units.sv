/// hwprof_board_units: the profiler units of a board build behind the board
/// shell's unit ports (docs/boards.md). Units present (EnPath, EnRap, EnDcr,
/// EnBbv) take indices 0.. in that order. Per unit:
///   * records: unit u's rec_valid_i / rec_ready_o; the shared record
///     (branch records to every unit; val records only to the RAP engine);
///   * registers: csr_we_i[u], csr_addr_i (low bits: path 5, RAP 5, DCR 4,
///     BBV 4), csr_wdata_i, csr_rdata_o[u];
///   * dump (path, RAP): dump_start_i[u] writes the unit's own dump command
///     (path: HPT CMD.dump at word 16 + HptAddrCmd; RAP: CMD.dump) and the
///     entries leave as byte strings (EntMax bytes per unit, byte 0 first):
///     path 16 bytes: set u16, way u8, start u32, length u8, dirs u32, acc u32;
///     RAP 27 bytes: last u8, slot_valid u8, depth u8, prefix u32, cnt0..3
///     u40; dump_busy_o[u] is the HPT's dump_busy_o, for the RAP engine it is
///     high from the start until the last beat is taken (or until 7 cycles
///     without a beat: the engine ignored the command, e.g. not idle);
///   * results (DCR, BBV): res_valid_o[u] / res_ready_i[u] and the entry:
///     DCR 10 bytes: phase u16, pred u16, depth u8, flags u8, hash u32;
///     BBV 7 bytes: phase u16, pred u16, distance u16, flags u8 (bit 0
///     changed, 1 matched, 2 scored, 3 correct).
/// The RAP engine takes code events from branch records (value = the
/// previous branch record's next address, weight = its insns; none for the
/// first record after reset) and value events from val records.
`default_nettype none

module hwprof_board_units #(
  /// Units present.
  parameter int unsigned EnPath = 1,
  parameter int unsigned EnRap  = 0,
  parameter int unsigned EnDcr  = 0,
  parameter int unsigned EnBbv  = 0,
  /// Path profiler: queue depth, stack depth, MaxLen, HPT sets, HPT ways.
  parameter int unsigned PathQueue = 4,
  parameter int unsigned PathDepth = 16,
  parameter int unsigned PathMaxLen = 32,
  parameter int unsigned PathSets = 128,
  parameter int unsigned PathWays = 4,
  /// RAP engine: RangeW, Groups, QueueDepth, MaxBuf, BufDefault, CntW, TcamSlice.
  parameter int unsigned RapRangeW = 32,
  parameter int unsigned RapGroups = 127,
  parameter int unsigned RapQueue = 1024,
  parameter int unsigned RapMaxBuf = 8,
  parameter int unsigned RapBufDefault = 4,
  parameter int unsigned RapCntW = 40,
  parameter int unsigned RapTcamSlice = 4,
  /// DCR tracker: Depth, SigEntries, MarkovEntries, IntervalReset.
  parameter int unsigned DcrDepth = 32,
  parameter int unsigned DcrSigEntries = 64,
  parameter int unsigned DcrMarkov = 256,
  parameter int unsigned DcrInterval = 1000000,
  /// BBV detector: Counters, SigW, Entries, MarkovEntries, IntervalInsns, Threshold.
  parameter int unsigned BbvCounters = 32,
  parameter int unsigned BbvSigW = 10,
  parameter int unsigned BbvEntries = 32,
  parameter int unsigned BbvMarkov = 256,
  parameter int unsigned BbvInterval = 1000000,
  parameter int unsigned BbvThreshold = 128,
  /// Units present.
  localparam int unsigned NUnits = int'(EnPath != 0) + int'(EnRap != 0) + int'(EnDcr != 0) + int'(EnBbv != 0),
  /// Bytes per dump/result entry slot.
  localparam int unsigned EntMax = (EnRap != 0) ? 27 : ((EnPath != 0) ? 16 : ((EnDcr != 0) ? 10 : 7)),
  localparam int unsigned EntW = EntMax * 8
) (
  /// Clock.
  input  wire logic                        clk_i,
  /// Asynchronous reset of every unit, active low.
  input  wire logic                        rst_ni,
  /// Per unit: a record is offered.
  input  wire logic [NUnits-1:0]           rec_valid_i,
  /// Per unit: taken.
  output logic [NUnits-1:0]                rec_ready_o,
  /// The record.
  input  wire hwprof_board_pkg::board_rec_t rec_data_i,
  /// Per unit register write strobe.
  input  wire logic [NUnits-1:0]           csr_we_i,
  /// Register address.
  input  wire logic [7:0]                  csr_addr_i,
  /// Register write data.
  input  wire logic [31:0]                 csr_wdata_i,
  /// Per unit register read data.
  output logic [NUnits*32-1:0]             csr_rdata_o,
  /// Per unit: start a dump.
  input  wire logic [NUnits-1:0]           dump_start_i,
  /// Per unit: a dump entry is offered.
  output logic [NUnits-1:0]                dump_valid_o,
  /// Per unit: taken.
  input  wire logic [NUnits-1:0]           dump_ready_i,
  /// Per unit: the dump is running.
  output logic [NUnits-1:0]                dump_busy_o,
  /// Per unit: the dump entry.
  output logic [NUnits*EntW-1:0]           dump_data_o,
  /// Per unit: a result is offered.
  output logic [NUnits-1:0]                res_valid_o,
  /// Per unit: taken.
  input  wire logic [NUnits-1:0]           res_ready_i,
  /// Per unit: the result entry.
  output logic [NUnits*EntW-1:0]           res_data_o
);

  localparam int unsigned IPath = 0;
  localparam int unsigned IRap  = int'(EnPath != 0);
  localparam int unsigned IDcr  = int'(EnPath != 0) + int'(EnRap != 0);
  localparam int unsigned IBbv  = int'(EnPath != 0) + int'(EnRap != 0) + int'(EnDcr != 0);

  initial begin
    if (NUnits == 0) $fatal(1, "hwprof_board_units: no unit enabled");
  end

  hwprof_pkg::branch_rec_t br;
  assign br = rec_data_i.br;

  // Not every build uses every part of the record, the address or the
  // result handshake.
  logic unused_inputs;
  assign unused_inputs = ^{rec_data_i, csr_addr_i, res_ready_i};

  // ------------------------------------------------------------ path profiler
  if (EnPath != 0) begin : gen_path
    localparam int unsigned SetW = (PathSets > 1) ? $clog2(PathSets) : 1;
    localparam int unsigned WayW = (PathWays > 1) ? $clog2(PathWays) : 1;
    logic [SetW-1:0] dset;
    logic [WayW-1:0] dway;
    logic [31:0]     dstart, ddirs, dacc;
    logic [5:0]      dlen;
    logic            we;
    logic [4:0]      addr;
    logic [31:0]     wdata;
    assign we    = csr_we_i[IPath] || dump_start_i[IPath];
    assign addr  = dump_start_i[IPath] ? 5'(16 + 32'(hwprof_hpt_reg_pkg::HptAddrCmd)) : csr_addr_i[4:0];
    assign wdata = dump_start_i[IPath] ? 32'h2 : csr_wdata_i;
    hwprof_path_profiler #(
      .QueueDepth(PathQueue),
      .Depth     (PathDepth),
      .MaxLen    (PathMaxLen),
      .Sets      (PathSets),
      .Ways      (PathWays)
    ) u_path (
      .clk_i,
      .rst_ni,
      .rec_valid_i  (rec_valid_i[IPath]),
      .rec_ready_o  (rec_ready_o[IPath]),
      .rec_data_i   (br),
      .dump_valid_o (dump_valid_o[IPath]),
      .dump_ready_i (dump_ready_i[IPath]),
      .dump_set_o   (dset),
      .dump_way_o   (dway),
      .dump_start_o (dstart),
      .dump_length_o(dlen),
      .dump_dirs_o  (ddirs),
      .dump_acc_o   (dacc),
      .dump_busy_o  (dump_busy_o[IPath]),
      .csr_we_i     (we),
      .csr_addr_i   (addr),
      .csr_wdata_i  (wdata),
      .csr_rdata_o  (csr_rdata_o[32*IPath +: 32])
    );
    assign dump_data_o[EntW*IPath +: EntW] =
        EntW'({dacc, ddirs, 2'b00, dlen, dstart, 8'(dway), 16'(dset)});
    assign res_valid_o[IPath] = 1'b0;
    assign res_data_o[EntW*IPath +: EntW] = '0;
  end

  // --------------------------------------------------------------- RAP engine
  if (EnRap != 0) begin : gen_rap
    localparam int unsigned DepthW = $clog2(RapRangeW / 2 + 1);
    logic             have_prev_q, busy_q, seen_q;
    logic [31:0]      prev_next_q;
    logic [2:0]       wait_q;
    logic             need_ev, ev_valid, ev_ready;
    logic [31:0]      ev_value;
    logic [15:0]      ev_weight;
    logic             dv, dlast, dslot;
    logic [DepthW-1:0] ddepth;
    logic [RapRangeW-1:0] dprefix;
    logic [RapCntW-1:0]   c0, c1, c2, c3;
    logic             we;
    logic [4:0]       addr;
    logic [31:0]      wdata;
    logic [31:0]      next;
    assign next      = br.taken ? br.target : br.pc + 32'(br.ilen);
    assign need_ev   = rec_data_i.is_val || have_prev_q;
    assign ev_valid  = rec_valid_i[IRap] && need_ev;
    assign ev_value  = rec_data_i.is_val ? rec_data_i.value : prev_next_q;
    assign ev_weight = rec_data_i.is_val ? rec_data_i.weight : br.insns;
    assign rec_ready_o[IRap] = need_ev ? ev_ready : 1'b1;
    assign we    = csr_we_i[IRap] || dump_start_i[IRap];
    assign addr  = dump_start_i[IRap] ? 5'(hwprof_rap_reg_pkg::RapAddrCmd) : csr_addr_i[4:0];
    assign wdata = dump_start_i[IRap] ? (32'd1 << hwprof_rap_reg_pkg::RapCmdDumpBit) : csr_wdata_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        have_prev_q <= 1'b0;
        prev_next_q <= '0;
        busy_q      <= 1'b0;
        seen_q      <= 1'b0;
        wait_q      <= '0;
      end else begin
        if (rec_valid_i[IRap] && rec_ready_o[IRap] && !rec_data_i.is_val) begin
          have_prev_q <= 1'b1;
          prev_next_q <= next;
        end
        if (dump_start_i[IRap]) begin
          busy_q <= 1'b1;
          seen_q <= 1'b0;
          wait_q <= '0;
        end else if (busy_q) begin
          if (dv) seen_q <= 1'b1;
          if (dv && dump_ready_i[IRap] && dlast) busy_q <= 1'b0;
          else if (!seen_q && !dv) begin
            wait_q <= wait_q + 1'b1;
            if (wait_q == 3'd6) busy_q <= 1'b0;
          end
        end
      end
    end
    hwprof_rap_engine #(
      .RangeW    (RapRangeW),
      .Groups    (RapGroups),
      .QueueDepth(RapQueue),
      .MaxBuf    (RapMaxBuf),
      .BufDefault(RapBufDefault),
      .CntW      (RapCntW),
      .TcamSlice (RapTcamSlice)
    ) u_rap (
      .clk_i,
      .rst_ni,
      .ev_valid_i       (ev_valid),
      .ev_ready_o       (ev_ready),
      .ev_value_i       (RapRangeW'(ev_value)),
      .ev_weight_i      (ev_weight),
      .dump_valid_o     (dv),
      .dump_ready_i     (dump_ready_i[IRap]),
      .dump_last_o      (dlast),
      .dump_slot_valid_o(dslot),
      .dump_depth_o     (ddepth),
      .dump_prefix_o    (dprefix),
      .dump_cnt0_o      (c0),
      .dump_cnt1_o      (c1),
      .dump_cnt2_o      (c2),
      .dump_cnt3_o      (c3),
      .csr_we_i         (we),
      .csr_addr_i       (addr),
      .csr_wdata_i      (wdata),
      .csr_rdata_o      (csr_rdata_o[32*IRap +: 32])
    );
    assign dump_valid_o[IRap] = dv && busy_q;
    assign dump_busy_o[IRap]  = busy_q;
    assign dump_data_o[EntW*IRap +: EntW] = EntW'({40'(c3), 40'(c2), 40'(c1), 40'(c0), 32'(dprefix),
                                                   8'(ddepth), 7'd0, dslot, 7'd0, dlast});
    assign res_valid_o[IRap] = 1'b0;
    assign res_data_o[EntW*IRap +: EntW] = '0;
  end

  // -------------------------------------------------------------- DCR tracker
  if (EnDcr != 0) begin : gen_dcr
    logic [15:0] phase, pred;
    logic [7:0]  depth, flags;
    logic [31:0] hash;
    hwprof_dcr_tracker #(
      .Depth        (DcrDepth),
      .SigEntries   (DcrSigEntries),
      .MarkovEntries(DcrMarkov),
      .IntervalReset(DcrInterval)
    ) u_dcr (
      .clk_i,
      .rst_ni,
      .rec_valid_i(rec_valid_i[IDcr]),
      .rec_ready_o(rec_ready_o[IDcr]),
      .rec_i      (br),
      .res_valid_o(res_valid_o[IDcr]),
      .res_ready_i(res_ready_i[IDcr]),
      .res_phase_o(phase),
      .res_pred_o (pred),
      .res_depth_o(depth),
      .res_flags_o(flags),
      .res_hash_o (hash),
      .csr_we_i   (csr_we_i[IDcr]),
      .csr_addr_i (csr_addr_i[3:0]),
      .csr_wdata_i,
      .csr_rdata_o(csr_rdata_o[32*IDcr +: 32])
    );
    assign res_data_o[EntW*IDcr +: EntW] = EntW'({hash, flags, depth, pred, phase});
    assign dump_valid_o[IDcr] = 1'b0;
    assign dump_busy_o[IDcr]  = 1'b0;
    assign dump_data_o[EntW*IDcr +: EntW] = '0;
    logic unused_dcr;
    assign unused_dcr = dump_start_i[IDcr] ^ dump_ready_i[IDcr];
  end

  // ------------------------------------------------------------- BBV detector
  if (EnBbv != 0) begin : gen_bbv
    logic [15:0]       phase, pred;
    logic [BbvSigW+1:0] distance;
    logic              changed, matched, scored, correct;
    hwprof_bbv_phase #(
      .Counters     (BbvCounters),
      .SigW         (BbvSigW),
      .Entries      (BbvEntries),
      .MarkovEntries(BbvMarkov),
      .IntervalInsns(BbvInterval),
      .Threshold    (BbvThreshold)
    ) u_bbv (
      .clk_i,
      .rst_ni,
      .rec_valid_i   (rec_valid_i[IBbv]),
      .res_ready_i   (res_ready_i[IBbv]),
      .csr_we_i      (csr_we_i[IBbv]),
      .rec_data_i    (br),
      .csr_addr_i    (csr_addr_i[3:0]),
      .csr_wdata_i,
      .rec_ready_o   (rec_ready_o[IBbv]),
      .res_valid_o   (res_valid_o[IBbv]),
      .res_changed_o (changed),
      .res_matched_o (matched),
      .res_scored_o  (scored),
      .res_correct_o (correct),
      .res_phase_o   (phase),
      .res_pred_o    (pred),
      .res_distance_o(distance),
      .csr_rdata_o   (csr_rdata_o[32*IBbv +: 32])
    );
    assign res_data_o[EntW*IBbv +: EntW] = EntW'({4'd0, correct, scored, matched, changed, 16'(distance), pred, phase});
    assign dump_valid_o[IBbv] = 1'b0;
    assign dump_busy_o[IBbv]  = 1'b0;
    assign dump_data_o[EntW*IBbv +: EntW] = '0;
    logic unused_bbv;
    assign unused_bbv = dump_start_i[IBbv] ^ dump_ready_i[IBbv];
  end

endmodule

`default_nettype wire
