/// hwprof_board_shell: the board side of the link (docs/board_protocol.md):
///
///   uart_rx_i -> hwprof_uart_rx -> hwprof_board_link_rx --+--> hwprof_board_rxbuf
///                                                          |      -> hwprof_board_rec_decoder
///                                                          |      -> hwprof_board_fanout -> rec_*
///                                                          +--> hwprof_board_ctrl <-> csr_*, dump_*, res_*
///   uart_tx_o <- hwprof_uart_tx <- hwprof_board_link_tx <------ hwprof_board_ctrl
///
/// Unit-independent: the units sit behind per-unit record, register, dump
/// and result ports (hwprof_board_units). Model: sim_models/board/shell.h.
///
/// ExtRec = 1: a second record source (ext_*, valid/ready; the SoC's RVFI
/// ingress in hwprof_board_soc) shares the fan-out with the decoder. The
/// decoder's record goes first; a record once offered to the fan-out stays
/// its input until every unit has taken it (the source is locked while a
/// record is partly taken), so the fan-out never sees its record change.
/// The register, FLUSH and DUMP commands wait for the decoder's records
/// only (ctrl's `drained`), and FLUSHED counts only those.
`default_nettype none

module hwprof_board_shell #(
  /// Clocks per UART bit.
  parameter int unsigned ClksPerBit = 16,
  /// Receive buffer bytes (power of two).
  parameter int unsigned RxBytes = 1024,
  /// Units.
  parameter int unsigned NUnits = 1,
  /// Bytes per dump/result entry slot.
  parameter int unsigned EntMax = 16,
  /// Per unit (byte u): dump entry bytes (0: none).
  parameter logic [8*NUnits-1:0] DumpBytes = '0,
  /// Per unit (byte u): result entry bytes (0: none).
  parameter logic [8*NUnits-1:0] ResBytes = '0,
  /// Per unit: takes branch records.
  parameter logic [NUnits-1:0] TakesBranch = '1,
  /// Per unit: takes val records.
  parameter logic [NUnits-1:0] TakesVal = '0,
  /// ID block length in bytes.
  parameter int unsigned IdLen = 17,
  /// ID block (byte 0 at bits 7..0).
  parameter logic [8*IdLen-1:0] IdRom = '0,
  /// 1: records also from ext_* (see above).
  parameter int unsigned ExtRec = 0
) (
  /// Clock.
  input  wire logic                         clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                         rst_ni,
  /// UART line from the host.
  input  wire logic                         uart_rx_i,
  /// UART line to the host.
  output logic                              uart_tx_o,
  /// Reset the units (one cycle, OPEN).
  output logic                              unit_rst_o,
  /// Second record source (ExtRec = 1): a record is offered.
  input  wire logic                         ext_valid_i,
  /// It is taken by every unit.
  output logic                              ext_ready_o,
  /// The record.
  input  wire hwprof_board_pkg::board_rec_t ext_data_i,
  /// Per unit: a record is offered.
  output logic [NUnits-1:0]                 rec_valid_o,
  /// Per unit: taken.
  input  wire logic [NUnits-1:0]            rec_ready_i,
  /// The record.
  output hwprof_board_pkg::board_rec_t      rec_data_o,
  /// Per unit register write strobe.
  output logic [NUnits-1:0]                 csr_we_o,
  /// Register address.
  output logic [7:0]                        csr_addr_o,
  /// Register write data.
  output logic [31:0]                       csr_wdata_o,
  /// Per unit register read data.
  input  wire logic [NUnits*32-1:0]         csr_rdata_i,
  /// Per unit: start a dump.
  output logic [NUnits-1:0]                 dump_start_o,
  /// Per unit: a dump entry is offered.
  input  wire logic [NUnits-1:0]            dump_valid_i,
  /// Per unit: taken.
  output logic [NUnits-1:0]                 dump_ready_o,
  /// Per unit: the dump is running.
  input  wire logic [NUnits-1:0]            dump_busy_i,
  /// Per unit dump entry.
  input  wire logic [NUnits*EntMax*8-1:0]   dump_data_i,
  /// Per unit: a result is offered.
  input  wire logic [NUnits-1:0]            res_valid_i,
  /// Per unit: taken.
  output logic [NUnits-1:0]                 res_ready_o,
  /// Per unit result entry.
  input  wire logic [NUnits*EntMax*8-1:0]   res_data_i
);

  // UART receive and frame parse
  logic        rx_valid;
  logic [7:0]  rx_data;
  logic        hdr_valid, pay_valid, end_valid, crc_err, tmo;
  logic [7:0]  ftype, fseq, flen, pay_data;
  logic [47:0] pl;
  // buffer, decoder, fan-out
  logic        buf_we, buf_commit, buf_rollback, buf_clear, buf_empty, buf_re;
  logic [7:0]  buf_rdata;
  logic [15:0] buf_free;
  logic        dec_clear, dec_valid, dec_ready, dec_busy, dec_err;
  hwprof_board_pkg::board_rec_t dec_data;
  logic        fan_valid, fan_ready, use_ext;
  // transmit
  logic        tx_start, tx_busy, tx_take, ut_valid, ut_ready;
  logic [7:0]  tx_type, tx_seq, tx_len, tx_pay, ut_data;

  hwprof_uart_rx #(.ClksPerBit(ClksPerBit)) u_uart_rx (
    .clk_i,
    .rst_ni,
    .rx_i   (uart_rx_i),
    .valid_o(rx_valid),
    .data_o (rx_data)
  );

  hwprof_board_link_rx #(.TmoClks(640 * ClksPerBit)) u_link_rx (
    .clk_i,
    .rst_ni,
    .in_valid_i (rx_valid),
    .in_data_i  (rx_data),
    .hdr_valid_o(hdr_valid),
    .type_o     (ftype),
    .seq_o      (fseq),
    .len_o      (flen),
    .pay_valid_o(pay_valid),
    .pay_data_o (pay_data),
    .end_valid_o(end_valid),
    .pl_o       (pl),
    .crc_err_o  (crc_err),
    .tmo_o      (tmo)
  );

  hwprof_board_rxbuf #(.Bytes(RxBytes)) u_rxbuf (
    .clk_i,
    .rst_ni,
    .clear_i   (buf_clear),
    .we_i      (buf_we),
    .wdata_i   (pay_data),
    .commit_i  (buf_commit),
    .rollback_i(buf_rollback),
    .re_i      (buf_re),
    .rdata_o   (buf_rdata),
    .empty_o   (buf_empty),
    .free_o    (buf_free)
  );

  hwprof_board_rec_decoder u_dec (
    .clk_i,
    .rst_ni,
    .clear_i    (dec_clear),
    .avail_i    (!buf_empty),
    .rd_o       (buf_re),
    .rd_data_i  (buf_rdata),
    .out_valid_o(dec_valid),
    .out_ready_i(dec_ready),
    .out_data_o (dec_data),
    .busy_o     (dec_busy),
    .err_o      (dec_err)
  );

  // The fan-out's source: the decoder, or (ExtRec) the second source when
  // the decoder offers nothing; locked while a record is partly taken.
  if (ExtRec != 0) begin : g_ext
    logic lock_q, lock_ext_q;
    assign use_ext = lock_q ? lock_ext_q : !dec_valid;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lock_q     <= 1'b0;
        lock_ext_q <= 1'b0;
      end else begin
        lock_q     <= fan_valid && !fan_ready && !dec_clear;
        lock_ext_q <= use_ext;
      end
    end
  end else begin : g_no_ext
    assign use_ext = 1'b0;
  end

  assign fan_valid   = use_ext ? ext_valid_i : dec_valid;
  assign rec_data_o  = use_ext ? ext_data_i : dec_data;
  assign dec_ready   = fan_ready && !use_ext;
  assign ext_ready_o = fan_ready && use_ext;

  hwprof_board_fanout #(
    .NUnits     (NUnits),
    .TakesBranch(TakesBranch),
    .TakesVal   (TakesVal)
  ) u_fanout (
    .clk_i,
    .rst_ni,
    .clear_i     (dec_clear),
    .in_valid_i  (fan_valid),
    .in_ready_o  (fan_ready),
    .in_is_val_i (rec_data_o.is_val),
    .unit_valid_o(rec_valid_o),
    .unit_ready_i(rec_ready_i)
  );

  hwprof_board_ctrl #(
    .NUnits   (NUnits),
    .EntMax   (EntMax),
    .DumpBytes(DumpBytes),
    .ResBytes (ResBytes),
    .IdLen    (IdLen),
    .IdRom    (IdRom)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .hdr_valid_i   (hdr_valid),
    .type_i        (ftype),
    .seq_i         (fseq),
    .len_i         (flen),
    .pay_valid_i   (pay_valid),
    .end_valid_i   (end_valid),
    .pl_i          (pl),
    .crc_err_i     (crc_err),
    .tmo_i         (tmo),
    .buf_we_o      (buf_we),
    .buf_commit_o  (buf_commit),
    .buf_rollback_o(buf_rollback),
    .buf_clear_o   (buf_clear),
    .buf_empty_i   (buf_empty),
    .buf_free_i    (buf_free),
    .dec_clear_o   (dec_clear),
    .dec_valid_i   (dec_valid),
    .dec_busy_i    (dec_busy),
    .dec_err_i     (dec_err),
    .rec_take_i    (dec_ready),
    .unit_rst_o,
    .csr_we_o,
    .csr_addr_o,
    .csr_wdata_o,
    .csr_rdata_i,
    .dump_start_o,
    .dump_valid_i,
    .dump_ready_o,
    .dump_busy_i,
    .dump_data_i,
    .res_valid_i,
    .res_ready_o,
    .res_data_i,
    .tx_start_o    (tx_start),
    .tx_type_o     (tx_type),
    .tx_seq_o      (tx_seq),
    .tx_len_o      (tx_len),
    .tx_busy_i     (tx_busy),
    .tx_pay_o      (tx_pay),
    .tx_take_i     (tx_take)
  );

  hwprof_board_link_tx u_link_tx (
    .clk_i,
    .rst_ni,
    .start_i    (tx_start),
    .type_i     (tx_type),
    .seq_i      (tx_seq),
    .len_i      (tx_len),
    .busy_o     (tx_busy),
    .pay_data_i (tx_pay),
    .pay_take_o (tx_take),
    .out_valid_o(ut_valid),
    .out_ready_i(ut_ready),
    .out_data_o (ut_data)
  );

  hwprof_uart_tx #(.ClksPerBit(ClksPerBit)) u_uart_tx (
    .clk_i,
    .rst_ni,
    .valid_i(ut_valid),
    .ready_o(ut_ready),
    .data_i (ut_data),
    .tx_o   (uart_tx_o)
  );

endmodule

`default_nettype wire
