/// hwprof_board_core: the board shell and the units of a board build, with
/// the ID block built from the parameters (docs/board_protocol.md "ID
/// block", docs/boards.md for the parameter order of each unit). The board
/// tops (fpga/boards/<board>/) add the clock, the reset synchronizer and the
/// pins; the SystemC virtual board and the lock-step tests Verilate this
/// module directly. The probe_* outputs show the shell's outputs toward the
/// units for the lock-step tests (unconnected on a board, removed by
/// synthesis).
///
/// ExtUnit = 1: one more unit outside this module (hwprof_board_soc's SoC),
/// the last in the ID block (kind ExtKind, ExtNParams parameters ExtParams,
/// no dump, no results, takes no records), with its register port on ext_csr_*,
/// the units' reset on ext_rst_no, and a record source (ext_rec_*) that
/// shares the shell's fan-out with the host's records (hwprof_board_shell
/// ExtRec). With ExtUnit = 0 the ext_* inputs are ignored.
`default_nettype none

module hwprof_board_core #(
  /// Board id of the ID block: 1 iCEBreaker, 2 ULX3S, 3 virtual board.
  parameter int unsigned Board = 3,
  /// Clock frequency in Hz.
  parameter int unsigned ClkHz = 25000000,
  /// UART baud rate.
  parameter int unsigned Baud = 115200,
  /// Receive buffer bytes (power of two).
  parameter int unsigned RxBytes = 1024,
  /// Units present.
  parameter int unsigned EnPath = 1,
  parameter int unsigned EnRap  = 0,
  parameter int unsigned EnDcr  = 0,
  parameter int unsigned EnBbv  = 0,
  /// Unit parameters (hwprof_board_units).
  parameter int unsigned PathQueue = 4,
  parameter int unsigned PathDepth = 16,
  parameter int unsigned PathMaxLen = 32,
  parameter int unsigned PathSets = 128,
  parameter int unsigned PathWays = 4,
  parameter int unsigned RapRangeW = 32,
  parameter int unsigned RapGroups = 127,
  parameter int unsigned RapQueue = 1024,
  parameter int unsigned RapMaxBuf = 8,
  parameter int unsigned RapBufDefault = 4,
  parameter int unsigned RapCntW = 40,
  parameter int unsigned RapTcamSlice = 4,
  parameter int unsigned DcrDepth = 32,
  parameter int unsigned DcrSigEntries = 64,
  parameter int unsigned DcrMarkov = 256,
  parameter int unsigned DcrInterval = 1000000,
  parameter int unsigned BbvCounters = 32,
  parameter int unsigned BbvSigW = 10,
  parameter int unsigned BbvEntries = 32,
  parameter int unsigned BbvMarkov = 256,
  parameter int unsigned BbvInterval = 1000000,
  parameter int unsigned BbvThreshold = 128,
  /// An extra unit outside this module (see above).
  parameter int unsigned ExtUnit = 0,
  /// Its kind, parameter count (<= 8) and parameters (32 bits each, first at bits 31..0).
  parameter int unsigned ExtKind = 6,
  parameter int unsigned ExtNParams = 0,
  parameter logic [255:0] ExtParams = '0,
  /// Units of hwprof_board_units.
  localparam int unsigned NUnitsIn = int'(EnPath != 0) + int'(EnRap != 0) + int'(EnDcr != 0) + int'(EnBbv != 0),
  localparam int unsigned NUnits = NUnitsIn + int'(ExtUnit != 0),
  localparam int unsigned EntMax = (EnRap != 0) ? 27 : ((EnPath != 0) ? 16 : ((EnDcr != 0) ? 10 : 7))
) (
  /// Clock.
  input  wire logic                          clk_i,
  /// Asynchronous reset, active low (synchronized by the board top).
  input  wire logic                          rst_ni,
  /// UART line from the host.
  input  wire logic                          uart_rx_i,
  /// UART line to the host.
  output logic                               uart_tx_o,
  /// Extra unit (ExtUnit): a record is offered.
  input  wire logic                          ext_rec_valid_i,
  /// It is taken by every unit.
  output logic                               ext_rec_ready_o,
  /// The record.
  input  wire hwprof_board_pkg::board_rec_t  ext_rec_data_i,
  /// Extra unit: the units' reset (board reset or OPEN), active low.
  output logic                               ext_rst_no,
  /// Extra unit: register write strobe, address, data.
  output logic                               ext_csr_we_o,
  output logic [7:0]                         ext_csr_addr_o,
  output logic [31:0]                        ext_csr_wdata_o,
  /// Extra unit: register read data (of ext_csr_addr_o).
  input  wire logic [31:0]                   ext_csr_rdata_i,
  /// Probes: the units' reset from the shell (OPEN).
  output logic                               probe_unit_rst_o,
  /// Probes: per unit record valid, ready and the record.
  output logic [NUnits-1:0]                  probe_rec_valid_o,
  output logic [NUnits-1:0]                  probe_rec_ready_o,
  output hwprof_board_pkg::board_rec_t       probe_rec_data_o,
  /// Probes: register port.
  output logic [NUnits-1:0]                  probe_csr_we_o,
  output logic [7:0]                         probe_csr_addr_o,
  output logic [31:0]                        probe_csr_wdata_o,
  /// Probes: dump start and ready, result ready.
  output logic [NUnits-1:0]                  probe_dump_start_o,
  output logic [NUnits-1:0]                  probe_dump_ready_o,
  output logic [NUnits-1:0]                  probe_res_ready_o
);

  import hwprof_board_pkg::*;

  localparam int unsigned ClksPerBit = (ClkHz + Baud / 2) / Baud;
  localparam int unsigned EntW = EntMax * 8;

  /// Bytes of the ID block.
  localparam int unsigned IdLen = 17 + ((EnPath != 0) ? 27 : 0) + ((EnRap != 0) ? 31 : 0) + ((EnDcr != 0) ? 19 : 0) +
                                  ((EnBbv != 0) ? 27 : 0) + ((ExtUnit != 0) ? 3 + 4 * ExtNParams : 0);

  /// The ID block: magic "HWPF", proto, board, clk_hz, baud, rxbuf, units,
  /// then per unit: index, kind, nparams, params (docs/boards.md order).
  function automatic logic [2047:0] id_bits();
    logic [2047:0] b;
    logic [255:0]  p [5];
    logic [7:0]    kind [5];
    int unsigned   n [5];
    bit            en [5];
    int unsigned   k, idx;
    b = '0;
    b[31:0]    = 32'h46505748;  // "HWPF"
    b[39:32]   = 8'd1;
    b[47:40]   = 8'(Board);
    b[79:48]   = 32'(ClkHz);
    b[111:80]  = 32'(Baud);
    b[127:112] = 16'(RxBytes);
    b[135:128] = 8'(NUnits);
    en[0] = EnPath != 0;
    kind[0] = KindPath;
    n[0] = 6;
    p[0] = {64'd0, 32'd32, 32'(PathWays), 32'(PathSets), 32'(PathMaxLen), 32'(PathDepth), 32'(PathQueue)};
    en[1] = EnRap != 0;
    kind[1] = KindRap;
    n[1] = 7;
    p[1] = {32'd0, 32'(RapTcamSlice), 32'(RapCntW), 32'(RapBufDefault), 32'(RapMaxBuf), 32'(RapQueue),
            32'(RapGroups), 32'(RapRangeW)};
    en[2] = EnDcr != 0;
    kind[2] = KindDcr;
    n[2] = 4;
    p[2] = {128'd0, 32'(DcrInterval), 32'(DcrMarkov), 32'(DcrSigEntries), 32'(DcrDepth)};
    en[3] = EnBbv != 0;
    kind[3] = KindBbv;
    n[3] = 6;
    p[3] = {64'd0, 32'(BbvThreshold), 32'(BbvInterval), 32'(BbvMarkov), 32'(BbvEntries), 32'(BbvSigW),
            32'(BbvCounters)};
    en[4] = ExtUnit != 0;
    kind[4] = 8'(ExtKind);
    n[4] = ExtNParams;
    p[4] = ExtParams;
    k = 17;
    idx = 0;
    for (int u = 0; u < 5; u++) begin
      if (en[u]) begin
        b[8*k +: 8] = 8'(idx);
        b[8*k+8 +: 8] = kind[u];
        b[8*k+16 +: 8] = 8'(n[u]);
        k += 3;
        for (int i = 0; i < 8; i++) begin
          if (i < int'(n[u])) begin
            b[8*k +: 32] = p[u][32*i +: 32];
            k += 4;
          end
        end
        idx++;
      end
    end
    return b;
  endfunction

  /// Per unit entry bytes: dump (path 16, RAP 27), results (DCR 10, BBV 7).
  function automatic logic [39:0] entry_bytes(input bit dump);
    logic [39:0] v;
    int unsigned u;
    v = '0;
    u = 0;
    if (EnPath != 0) begin v[8*u +: 8] = dump ? 8'd16 : 8'd0; u++; end
    if (EnRap != 0)  begin v[8*u +: 8] = dump ? 8'd27 : 8'd0; u++; end
    if (EnDcr != 0)  begin v[8*u +: 8] = dump ? 8'd0 : 8'd10; u++; end
    if (EnBbv != 0)  begin v[8*u +: 8] = dump ? 8'd0 : 8'd7; end
    return v;
  endfunction

  function automatic logic [4:0] takes_val();
    logic [4:0] v;
    v = '0;
    if (EnRap != 0) v[int'(EnPath != 0)] = 1'b1;
    return v;
  endfunction

  /// Every unit of hwprof_board_units takes branch records; the extra unit none.
  function automatic logic [4:0] takes_branch();
    logic [4:0] v;
    v = '0;
    for (int u = 0; u < int'(NUnitsIn); u++) v[u] = 1'b1;
    return v;
  endfunction

  localparam logic [2047:0] IdAll = id_bits();
  localparam logic [39:0] DumpAll = entry_bytes(1'b1);
  localparam logic [39:0] ResAll = entry_bytes(1'b0);
  localparam logic [4:0] ValAll = takes_val();
  localparam logic [4:0] BranchAll = takes_branch();

  initial begin
    if (ClkHz / ClksPerBit > Baud + Baud / 50 || ClkHz / ClksPerBit < Baud - Baud / 50) begin
      $fatal(1, "hwprof_board_core: baud rate error above 2%%");
    end
    if (NUnitsIn == 0 || ExtNParams > 8) begin
      $fatal(1, "hwprof_board_core: at least one unit of hwprof_board_units, at most 8 extra-unit parameters");
    end
  end

  logic                      unit_rst, units_rst_n;
  logic [NUnits-1:0]         rec_valid, rec_ready, csr_we, dump_start, dump_valid, dump_ready, dump_busy;
  logic [NUnits-1:0]         res_valid, res_ready;
  board_rec_t                rec_data;
  logic [7:0]                csr_addr;
  logic [31:0]               csr_wdata;
  logic [NUnits*32-1:0]      csr_rdata;
  logic [NUnits*EntW-1:0]    dump_data, res_data;
  // The units of hwprof_board_units (the extra unit is the last index).
  logic [NUnitsIn-1:0]       in_rec_ready, in_dump_valid, in_dump_busy, in_res_valid;
  logic [NUnitsIn*32-1:0]    in_csr_rdata;
  logic [NUnitsIn*EntW-1:0]  in_dump_data, in_res_data;

  hwprof_board_shell #(
    .ClksPerBit (ClksPerBit),
    .RxBytes    (RxBytes),
    .NUnits     (NUnits),
    .EntMax     (EntMax),
    .DumpBytes  (DumpAll[8*NUnits-1:0]),
    .ResBytes   (ResAll[8*NUnits-1:0]),
    .TakesBranch(BranchAll[NUnits-1:0]),
    .TakesVal   (ValAll[NUnits-1:0]),
    .IdLen      (IdLen),
    .IdRom      (IdAll[8*IdLen-1:0]),
    .ExtRec     (ExtUnit)
  ) u_shell (
    .clk_i,
    .rst_ni,
    .uart_rx_i,
    .uart_tx_o,
    .ext_valid_i (ext_rec_valid_i),
    .ext_ready_o (ext_rec_ready_o),
    .ext_data_i  (ext_rec_data_i),
    .unit_rst_o  (unit_rst),
    .rec_valid_o (rec_valid),
    .rec_ready_i (rec_ready),
    .rec_data_o  (rec_data),
    .csr_we_o    (csr_we),
    .csr_addr_o  (csr_addr),
    .csr_wdata_o (csr_wdata),
    .csr_rdata_i (csr_rdata),
    .dump_start_o(dump_start),
    .dump_valid_i(dump_valid),
    .dump_ready_o(dump_ready),
    .dump_busy_i (dump_busy),
    .dump_data_i (dump_data),
    .res_valid_i (res_valid),
    .res_ready_o (res_ready),
    .res_data_i  (res_data)
  );

  // The units' reset: the board reset or one cycle of OPEN (a register
  // output, glitch free).
  assign units_rst_n = rst_ni && !unit_rst;
  assign ext_rst_no  = units_rst_n;

  if (ExtUnit != 0) begin : g_ext
    assign rec_ready = {1'b1, in_rec_ready};
    assign csr_rdata = {ext_csr_rdata_i, in_csr_rdata};
    assign dump_valid = {1'b0, in_dump_valid};
    assign dump_busy = {1'b0, in_dump_busy};
    assign res_valid = {1'b0, in_res_valid};
    assign dump_data = {{EntW{1'b0}}, in_dump_data};
    assign res_data = {{EntW{1'b0}}, in_res_data};
    assign ext_csr_we_o = csr_we[NUnits-1];
  end else begin : g_no_ext
    assign rec_ready = in_rec_ready;
    assign csr_rdata = in_csr_rdata;
    assign dump_valid = in_dump_valid;
    assign dump_busy = in_dump_busy;
    assign res_valid = in_res_valid;
    assign dump_data = in_dump_data;
    assign res_data = in_res_data;
    assign ext_csr_we_o = 1'b0;
    logic unused_ext;
    assign unused_ext = ^ext_csr_rdata_i;
  end
  assign ext_csr_addr_o  = csr_addr;
  assign ext_csr_wdata_o = csr_wdata;

  hwprof_board_units #(
    .EnPath       (EnPath),
    .EnRap        (EnRap),
    .EnDcr        (EnDcr),
    .EnBbv        (EnBbv),
    .PathQueue    (PathQueue),
    .PathDepth    (PathDepth),
    .PathMaxLen   (PathMaxLen),
    .PathSets     (PathSets),
    .PathWays     (PathWays),
    .RapRangeW    (RapRangeW),
    .RapGroups    (RapGroups),
    .RapQueue     (RapQueue),
    .RapMaxBuf    (RapMaxBuf),
    .RapBufDefault(RapBufDefault),
    .RapCntW      (RapCntW),
    .RapTcamSlice (RapTcamSlice),
    .DcrDepth     (DcrDepth),
    .DcrSigEntries(DcrSigEntries),
    .DcrMarkov    (DcrMarkov),
    .DcrInterval  (DcrInterval),
    .BbvCounters  (BbvCounters),
    .BbvSigW      (BbvSigW),
    .BbvEntries   (BbvEntries),
    .BbvMarkov    (BbvMarkov),
    .BbvInterval  (BbvInterval),
    .BbvThreshold (BbvThreshold)
  ) u_units (
    .clk_i,
    .rst_ni      (units_rst_n),
    .rec_valid_i (rec_valid[NUnitsIn-1:0]),
    .rec_ready_o (in_rec_ready),
    .rec_data_i  (rec_data),
    .csr_we_i    (csr_we[NUnitsIn-1:0]),
    .csr_addr_i  (csr_addr),
    .csr_wdata_i (csr_wdata),
    .csr_rdata_o (in_csr_rdata),
    .dump_start_i(dump_start[NUnitsIn-1:0]),
    .dump_valid_o(in_dump_valid),
    .dump_ready_i(dump_ready[NUnitsIn-1:0]),
    .dump_busy_o (in_dump_busy),
    .dump_data_o (in_dump_data),
    .res_valid_o (in_res_valid),
    .res_ready_i (res_ready[NUnitsIn-1:0]),
    .res_data_o  (in_res_data)
  );

  assign probe_unit_rst_o   = unit_rst;
  assign probe_rec_valid_o  = rec_valid;
  assign probe_rec_ready_o  = rec_ready;
  assign probe_rec_data_o   = rec_data;
  assign probe_csr_we_o     = csr_we;
  assign probe_csr_addr_o   = csr_addr;
  assign probe_csr_wdata_o  = csr_wdata;
  assign probe_dump_start_o = dump_start;
  assign probe_dump_ready_o = dump_ready;
  assign probe_res_ready_o  = res_ready;

endmodule

`default_nettype wire
