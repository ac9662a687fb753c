/// hwprof_board_ctrl: the command side of the board shell
/// (docs/board_protocol.md): sessions and sequence numbers, the receive
/// buffer's write/commit/rollback, the register, dump and results bridge to
/// the units, the link counters and every answer frame.
///
/// Frame ends (end_valid_i, good CRC) are decided in the cycle they arrive,
/// in this order:
///   1. the answer queue is full, or the command machine is busy (a
///      stop-and-wait command in progress) and the frame is not OPEN: the
///      frame is dropped (its payload rolled back; the host's timeout
///      resends it);
///   2. OPEN (any seq, in any state: it aborts a waiting command): len 2 and
///      a non-zero session, else NAK BadLength;
///      sets session and expect = seq + 1, clears the counters, the buffer,
///      the decoder and the fan-out, resets the units for one cycle
///      (unit_rst_o), answers ACK;
///   3. no session: INFO is answered, anything else gets ERROR NoSession;
///   4. seq == expect: BadType, BadLength, BadUnit checks (NAK), then
///      execution and expect + 1; a RECORDS frame is committed unless the
///      decoder has failed (ERROR RecordError) or it had no room at its
///      header (NAK NoRoom); an empty RECORDS frame is executed and ACKed
///      (the host's credit poll after RESULTS);
///   5. seq == expect - 1: a duplicate (dup counter); the same checks, then
///      the answer again without side effects (RECORDS, REG_WRITE: ACK;
///      REG_READ: read again; FLUSH: wait again; DUMP: the unit's dump walk
///      runs again; RESULTS: the same entries; INFO, LINK_STATUS: again);
///   6. else NAK OutOfOrder.
/// Immediate answers (ACK of OPEN and RECORDS, NAK, ERROR) go through an
/// answer queue of 8 (the host keeps at most 8 frames unanswered); the
/// stop-and-wait commands run in the command machine (Drain: wait until
/// every record before them has entered the units, then the register
/// access, the FLUSHED counters or the dump walk) and send their answer when
/// the queue is empty. RESULTS sends at most one entry (the unit's result
/// output, held until taken) and pops it (res_ready_o) when the next new
/// frame is executed.
/// Model: sim_models/board/ctrl.h (Ctrl).
`default_nettype none

module hwprof_board_ctrl #(
  /// Units.
  parameter int unsigned NUnits = 1,
  /// Largest dump or result entry in bytes (1..32).
  parameter int unsigned EntMax = 16,
  /// Per unit (byte u): dump entry bytes (0: no dump port).
  parameter logic [8*NUnits-1:0] DumpBytes = '0,
  /// Per unit (byte u): result entry bytes (0: no results).
  parameter logic [8*NUnits-1:0] ResBytes = '0,
  /// ID block bytes (magic first; byte k at bits 8k+7..8k).
  parameter int unsigned IdLen = 17,
  /// ID block.
  parameter logic [8*IdLen-1:0] IdRom = '0
) (
  /// Clock.
  input  wire logic                        clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                        rst_ni,
  // frame receiver
  /// Header received.
  input  wire logic                        hdr_valid_i,
  /// Frame type.
  input  wire logic [7:0]                  type_i,
  /// Frame seq.
  input  wire logic [7:0]                  seq_i,
  /// Frame payload length.
  input  wire logic [7:0]                  len_i,
  /// Payload byte received.
  input  wire logic                        pay_valid_i,
  /// Frame ended, good CRC.
  input  wire logic                        end_valid_i,
  /// First 6 payload bytes.
  input  wire logic [47:0]                 pl_i,
  /// Frame dropped: wrong CRC.
  input  wire logic                        crc_err_i,
  /// Frame dropped: inter-byte timeout.
  input  wire logic                        tmo_i,
  // receive buffer
  /// Write the payload byte.
  output logic                             buf_we_o,
  /// Commit the frame's bytes.
  output logic                             buf_commit_o,
  /// Drop the frame's bytes.
  output logic                             buf_rollback_o,
  /// Empty the buffer (OPEN).
  output logic                             buf_clear_o,
  /// Buffer holds no committed byte.
  input  wire logic                        buf_empty_i,
  /// Free bytes, committed view.
  input  wire logic [15:0]                 buf_free_i,
  // decoder and fan-out
  /// Clear decoder and fan-out (OPEN).
  output logic                             dec_clear_o,
  /// A decoded record is offered.
  input  wire logic                        dec_valid_i,
  /// The decoder holds a partial record or a read.
  input  wire logic                        dec_busy_i,
  /// The decoder failed.
  input  wire logic                        dec_err_i,
  /// Every unit took the offered record.
  input  wire logic                        rec_take_i,
  // units
  /// Reset the units (one cycle, registered).
  output logic                             unit_rst_o,
  /// Per unit register write strobe (registered).
  output logic [NUnits-1:0]                csr_we_o,
  /// Register address (registered).
  output logic [7:0]                       csr_addr_o,
  /// Register write data (registered).
  output logic [31:0]                      csr_wdata_o,
  /// Per unit register read data of csr_addr_o.
  input  wire logic [NUnits*32-1:0]        csr_rdata_i,
  /// Per unit: start the dump walk (one cycle, registered).
  output logic [NUnits-1:0]                dump_start_o,
  /// Per unit: a dump entry is offered.
  input  wire logic [NUnits-1:0]           dump_valid_i,
  /// Per unit: taken.
  output logic [NUnits-1:0]                dump_ready_o,
  /// Per unit: the dump walk is running.
  input  wire logic [NUnits-1:0]           dump_busy_i,
  /// Per unit dump entry (EntMax bytes each, byte 0 first).
  input  wire logic [NUnits*EntMax*8-1:0]  dump_data_i,
  /// Per unit: a result is offered.
  input  wire logic [NUnits-1:0]           res_valid_i,
  /// Per unit: taken.
  output logic [NUnits-1:0]                res_ready_o,
  /// Per unit result entry (EntMax bytes each, byte 0 first).
  input  wire logic [NUnits*EntMax*8-1:0]  res_data_i,
  // frame transmitter
  /// Start an answer frame.
  output logic                             tx_start_o,
  /// Its type.
  output logic [7:0]                       tx_type_o,
  /// Its seq.
  output logic [7:0]                       tx_seq_o,
  /// Its length.
  output logic [7:0]                       tx_len_o,
  /// The transmitter is busy.
  input  wire logic                        tx_busy_i,
  /// Payload byte at the current index.
  output logic [7:0]                       tx_pay_o,
  /// The payload byte is taken.
  input  wire logic                        tx_take_i
);

  import hwprof_board_pkg::*;

  localparam int unsigned UW = (NUnits > 1) ? $clog2(NUnits) : 1;
  localparam int unsigned EntW = EntMax * 8;

  initial begin
    if (EntMax < 1 || EntMax > 32) $fatal(1, "hwprof_board_ctrl: EntMax must be 1..32");
    if (IdLen > 253) $fatal(1, "hwprof_board_ctrl: the ID block must fit a frame");
  end

  // ------------------------------------------------------------------ state
  typedef enum logic [2:0] {Idle, Drain, RegRd, DumpWait, ResWait, Send, SendWait} state_e;
  /// What the command machine sends in Send.
  typedef enum logic [2:0] {
    LInfo, LAck, LData, LFlushed, LDumpData, LDumpEnd, LResult, LLinkStatus
  } long_e;
  /// Short answer codes of the answer queue.
  localparam logic [1:0] QAck = 2'd0, QNak = 2'd1, QErr = 2'd2;
  /// Payload byte sources past the fixed bytes.
  localparam logic [1:0] ExtNone = 2'd0, ExtId = 2'd1, ExtDump = 2'd2, ExtRes = 2'd3;

  state_e        st_q, st_d;
  long_e         lk_q, lk_d;
  logic [15:0]   session_q, session_d;
  logic [7:0]    expect_q, expect_d;
  logic          wr_en_q, wr_en_d;
  logic [15:0]   crc_errs_q, crc_errs_d, tmos_q, tmos_d, naks_q, naks_d, dups_q, dups_d;
  logic [31:0]   records_q, records_d, busy_q, busy_d, idle_q, idle_d;
  logic [7:0]    cmd_type_q, cmd_type_d, cmd_seq_q, cmd_seq_d;
  logic [UW-1:0] unit_q, unit_d;
  logic          res_pend_q, res_pend_d;
  logic [UW-1:0] res_unit_q, res_unit_d;
  logic          unit_rst_q, unit_rst_d;
  logic [NUnits-1:0] csr_we_q, csr_we_d, dump_start_q, dump_start_d;
  logic [7:0]    csr_addr_q, csr_addr_d;
  logic [31:0]   csr_wdata_q, csr_wdata_d, rdata_q, rdata_d;
  logic [31:0]   dcnt_q, dcnt_d, dcrc_q, dcrc_d;
  logic [1:0]    dwait_q, dwait_d;
  logic [EntW-1:0] entry_q, entry_d;
  logic [7:0]    rmax_q, rmax_d;
  // transmit side
  logic [7:0]    ans_q [16];
  logic [7:0]    ans_d [16];
  logic [1:0]    ext_q, ext_d;
  logic [7:0]    pidx_q, pidx_d;

  // --------------------------------------------------------- answer queue
  localparam int unsigned QW = 2 + 8 + 8;
  logic          q_push, q_ready, q_valid, q_pop;
  logic [QW-1:0] q_in, q_out;
  logic [3:0]    unused_q_count;


  hwprof_fifo_sync #(
    .Width  (QW),
    .Depth  (8),
    .RamRead(0)
  ) u_ansq (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (q_push),
    .in_ready_o (q_ready),
    .in_data_i  (q_in),
    .out_valid_o(q_valid),
    .out_ready_i(q_pop),
    .out_data_o (q_out),
    .count_o    (unused_q_count)
  );

  // ------------------------------------------------------- derived values
  logic          drained, is_dup, seq_ok, type_ok, len_ok, unit_ok, ev, abort;
  logic [7:0]    pl_unit, status;
  logic [UW-1:0] pl_u;
  logic [7:0]    exp_len;

  assign pl_unit = pl_i[7:0];
  assign pl_u    = UW'(pl_unit);
  assign drained = (buf_empty_i && !dec_valid_i && !dec_busy_i) || dec_err_i;
  assign status  = {6'd0, !(buf_empty_i && !dec_valid_i && !dec_busy_i), dec_err_i};
  assign seq_ok  = seq_i == expect_q;
  assign is_dup  = seq_i == expect_q - 8'd1;
  assign type_ok = type_i >= TypeInfo && type_i <= TypeLinkStatus;
  // OPEN is taken in any state (it aborts a waiting command); other frames
  // only while the command machine is idle.
  assign ev      = end_valid_i && (st_q == Idle || type_i == TypeOpen) && q_ready;
  assign abort   = ev && type_i == TypeOpen;

  always_comb begin
    unique case (type_i)
      TypeOpen:     exp_len = 8'd2;
      TypeRegWrite: exp_len = 8'd6;
      TypeRegRead:  exp_len = 8'd2;
      TypeDump:     exp_len = 8'd1;
      TypeResults:  exp_len = 8'd2;
      default:      exp_len = 8'd0;
    endcase
    // Any length for RECORDS: an empty one is the host's credit poll (ACK).
    len_ok = (type_i == TypeRecords) ? 1'b1 : (len_i == exp_len);
    unit_ok = 1'b1;
    if (type_i inside {TypeRegWrite, TypeRegRead, TypeResults}) unit_ok = pl_unit < 8'(NUnits);
    if (type_i == TypeDump) unit_ok = pl_unit < 8'(NUnits) && DumpBytes[8*pl_u +: 8] != 8'd0;
  end

  /// Byte k (0..31) of an entry.
  function automatic logic [7:0] byte_of(logic [EntW-1:0] v, logic [4:0] k);
    logic [255:0] p;
    p = 256'(v);
    return p[8*k +: 8];
  endfunction

  /// The ID block padded to 256 bytes.
  localparam logic [2047:0] IdPad = 2048'(IdRom);

  // -------------------------------------------------------- event decision
  logic [QW-1:0] q_ack;
  always_comb begin
    st_d         = st_q;
    lk_d         = lk_q;
    session_d    = session_q;
    expect_d     = expect_q;
    wr_en_d      = wr_en_q;
    crc_errs_d   = crc_errs_q + 16'(crc_err_i && crc_errs_q != 16'hFFFF);
    tmos_d       = tmos_q + 16'(tmo_i && tmos_q != 16'hFFFF);
    naks_d       = naks_q;
    dups_d       = dups_q;
    records_d    = records_q + 32'(rec_take_i);
    busy_d       = busy_q + 32'(dec_valid_i);
    idle_d       = idle_q + 32'(buf_empty_i);
    cmd_type_d   = cmd_type_q;
    cmd_seq_d    = cmd_seq_q;
    unit_d       = unit_q;
    res_pend_d   = res_pend_q;
    res_unit_d   = res_unit_q;
    unit_rst_d   = 1'b0;
    csr_we_d     = '0;
    dump_start_d = '0;
    csr_addr_d   = csr_addr_q;
    csr_wdata_d  = csr_wdata_q;
    rdata_d      = rdata_q;
    dcnt_d       = dcnt_q;
    dcrc_d       = dcrc_q;
    dwait_d      = dwait_q;
    entry_d      = entry_q;
    rmax_d       = rmax_q;
    buf_commit_o = 1'b0;
    buf_clear_o  = 1'b0;
    dec_clear_o  = 1'b0;
    res_ready_o  = '0;
    dump_ready_o = '0;
    q_push       = 1'b0;
    q_in         = '0;
    q_ack        = {QAck, seq_i, 8'd0};

    if (hdr_valid_i) wr_en_d = type_i == TypeRecords && 16'(len_i) <= buf_free_i;
    if (end_valid_i || crc_err_i || tmo_i) wr_en_d = 1'b0;

    if (ev) begin
      if (type_i == TypeOpen) begin
        if (len_i != 8'd2 || pl_i[15:0] == 16'd0) begin
          q_push = 1'b1;
          q_in   = {QNak, seq_i, NakBadLength};
        end else begin
          session_d   = pl_i[15:0];
          expect_d    = seq_i + 8'd1;
          crc_errs_d  = '0;
          tmos_d      = '0;
          naks_d      = '0;
          dups_d      = '0;
          records_d   = '0;
          busy_d      = '0;
          idle_d      = '0;
          res_pend_d  = 1'b0;
          unit_rst_d  = 1'b1;
          buf_clear_o = 1'b1;
          dec_clear_o = 1'b1;
          q_push      = 1'b1;
          q_in        = q_ack;
        end
      end else if (session_q == 16'd0) begin
        if (type_i == TypeInfo && len_i == 8'd0) begin
          cmd_seq_d = seq_i;
          lk_d      = LInfo;
          st_d      = Send;
        end else begin
          q_push = 1'b1;
          q_in   = {QErr, seq_i, ErrNoSession};
        end
      end else if (!(seq_ok || is_dup)) begin
        q_push = 1'b1;
        q_in   = {QNak, seq_i, NakOutOfOrder};
      end else if (!type_ok) begin
        q_push = 1'b1;
        q_in   = {QNak, seq_i, NakBadType};
      end else if (!len_ok) begin
        q_push = 1'b1;
        q_in   = {QNak, seq_i, NakBadLength};
      end else if (!unit_ok) begin
        q_push = 1'b1;
        q_in   = {QNak, seq_i, NakBadUnit};
      end else if (type_i == TypeRecords) begin
        if (is_dup) begin
          q_push = 1'b1;
          q_in   = q_ack;
        end else if (dec_err_i) begin
          q_push = 1'b1;
          q_in   = {QErr, seq_i, ErrRecordError};
        end else if (!wr_en_q) begin
          q_push = 1'b1;
          q_in   = {QNak, seq_i, NakNoRoom};
        end else begin
          buf_commit_o = 1'b1;
          q_push       = 1'b1;
          q_in         = q_ack;
        end
      end else begin
        // A stop-and-wait command, new or repeated.
        cmd_type_d = type_i;
        cmd_seq_d  = seq_i;
        unit_d     = pl_u;
        unique case (type_i)
          TypeInfo: begin
            lk_d = LInfo;
            st_d = Send;
          end
          TypeLinkStatus: begin
            lk_d = LLinkStatus;
            st_d = Send;
          end
          TypeRegWrite: begin
            csr_addr_d  = pl_i[15:8];
            csr_wdata_d = pl_i[47:16];
            lk_d        = LAck;
            st_d        = is_dup ? Send : Drain;
          end
          TypeRegRead: begin
            csr_addr_d = pl_i[15:8];
            lk_d       = LData;
            st_d       = Drain;
          end
          TypeFlush: begin
            lk_d = LFlushed;
            st_d = Drain;
          end
          TypeDump: begin
            st_d = Drain;
          end
          default: begin  // TypeResults
            lk_d = LResult;
            if (is_dup) begin
              st_d = Send;
            end else begin
              // The entry sent before (if any) leaves its unit now; the next
              // one is looked at 3 cycles later.
              res_unit_d = pl_u;
              rmax_d     = pl_i[15:8];
              dwait_d    = 2'd2;
              st_d       = ResWait;
            end
          end
        endcase
      end
      // A new frame executed: expect advances, a result sent before leaves
      // its unit.
      if (seq_ok && session_q != 16'd0 && type_i != TypeOpen && type_ok && len_ok && unit_ok &&
          !(type_i == TypeRecords && (dec_err_i || !wr_en_q))) begin
        expect_d = expect_q + 8'd1;
        if (res_pend_q) begin
          res_ready_o[res_unit_q] = 1'b1;
          res_pend_d              = 1'b0;
        end
      end
      if (session_q != 16'd0 && is_dup && !seq_ok && type_ok && len_ok && unit_ok) begin
        dups_d = dups_q + 16'(dups_q != 16'hFFFF);
      end
      if (q_push && q_in[QW-1 -: 2] == QNak) naks_d = naks_q + 16'(naks_q != 16'hFFFF);
    end

    // ----------------------------------------------------- command machine
    // (an OPEN aborts it: back to Idle, nothing else this cycle)
    if (abort) begin
      st_d = Idle;
    end else unique case (st_q)
      Drain: begin
        if (drained) begin
          unique case (cmd_type_q)
            TypeRegWrite: begin
              csr_we_d[unit_q] = 1'b1;
              st_d             = Send;
            end
            TypeRegRead: st_d = RegRd;
            TypeDump: begin
              dump_start_d[unit_q] = 1'b1;
              dcnt_d  = '0;
              dcrc_d  = 32'hFFFFFFFF;
              dwait_d = 2'd3;
              st_d    = DumpWait;
            end
            default: st_d = (cmd_type_q == TypeFlush && dec_err_i) ? Idle : Send;
          endcase
          if (cmd_type_q == TypeFlush && dec_err_i) begin
            q_push = 1'b1;
            q_in   = {QErr, cmd_seq_q, ErrRecordError};
          end
        end
      end
      RegRd: begin
        rdata_d = csr_rdata_i[32*unit_q +: 32];
        st_d    = Send;
      end
      DumpWait: begin
        if (dwait_q != 2'd0) begin
          dwait_d = dwait_q - 2'd1;
        end else if (dump_valid_i[unit_q]) begin
          dump_ready_o[unit_q] = 1'b1;
          entry_d = dump_data_i[EntW*unit_q +: EntW];
          lk_d    = LDumpData;
          st_d    = Send;
        end else if (!dump_busy_i[unit_q]) begin
          lk_d = LDumpEnd;
          st_d = Send;
        end
      end
      ResWait: begin
        if (dwait_q != 2'd0) begin
          dwait_d = dwait_q - 2'd1;
        end else begin
          res_pend_d = ResBytes[8*res_unit_q +: 8] != 8'd0 && res_valid_i[res_unit_q] && rmax_q != 8'd0;
          st_d       = Send;
        end
      end
      SendWait: begin
        if (!tx_busy_i) begin
          if (lk_q == LDumpData) begin
            dcnt_d = dcnt_q + 32'd1;
            st_d   = DumpWait;
          end else begin
            st_d = Idle;
          end
        end
      end
      default: ;
    endcase
    if (st_q == SendWait && lk_q == LDumpData && tx_take_i && pidx_q >= 8'd4) begin
      dcrc_d = crc32_byte(dcrc_q, tx_pay_o);
    end
  end

  // -------------------------------------------------------- transmit side
  logic [7:0] l_type, l_len, ext_byte;
  logic [7:0] l_bytes [16];
  logic [1:0] l_ext;
  logic [7:0] q_type, q_len;
  logic [7:0] dump_len, res_len;
  logic       start_long;

  assign dump_len = DumpBytes[8*unit_q +: 8];
  assign res_len  = res_pend_q ? ResBytes[8*res_unit_q +: 8] : 8'd0;

  always_comb begin
    for (int k = 0; k < 16; k++) l_bytes[k] = 8'd0;
    l_bytes[0] = session_q[7:0];
    l_bytes[1] = session_q[15:8];
    l_ext      = ExtNone;
    unique case (lk_q)
      LInfo: begin
        l_type = AnsInfo;
        l_len  = 8'(2 + IdLen);
        l_ext  = ExtId;
      end
      LAck: begin
        l_type     = AnsAck;
        l_len      = 8'd5;
        l_bytes[2] = buf_free_i[7:0];
        l_bytes[3] = buf_free_i[15:8];
        l_bytes[4] = status;
      end
      LData: begin
        l_type = AnsData;
        l_len  = 8'd6;
        for (int k = 0; k < 4; k++) l_bytes[2+k] = rdata_q[8*k +: 8];
      end
      LFlushed: begin
        l_type = AnsFlushed;
        l_len  = 8'd14;
        for (int k = 0; k < 4; k++) begin
          l_bytes[2+k]  = records_q[8*k +: 8];
          l_bytes[6+k]  = busy_q[8*k +: 8];
          l_bytes[10+k] = idle_q[8*k +: 8];
        end
      end
      LDumpData: begin
        l_type     = AnsDumpData;
        l_len      = 8'd4 + dump_len;
        l_bytes[2] = dcnt_q[7:0];
        l_bytes[3] = dcnt_q[15:8];
        l_ext      = ExtDump;
      end
      LDumpEnd: begin
        l_type = AnsDumpEnd;
        l_len  = 8'd10;
        for (int k = 0; k < 4; k++) begin
          l_bytes[2+k] = dcnt_q[8*k +: 8];
          l_bytes[6+k] = ~dcrc_q[8*k +: 8];
        end
      end
      LResult: begin
        l_type     = AnsResultData;
        l_len      = 8'd4 + res_len;
        l_bytes[2] = 8'(res_pend_q);
        l_bytes[3] = 8'(res_pend_q);
        l_ext      = ExtRes;
      end
      default: begin  // LLinkStatus
        l_type     = AnsLinkStatus;
        l_len      = 8'd11;
        l_bytes[2] = crc_errs_q[7:0];
        l_bytes[3] = crc_errs_q[15:8];
        l_bytes[4] = tmos_q[7:0];
        l_bytes[5] = tmos_q[15:8];
        l_bytes[6] = naks_q[7:0];
        l_bytes[7] = naks_q[15:8];
        l_bytes[8] = dups_q[7:0];
        l_bytes[9] = dups_q[15:8];
        l_bytes[10] = expect_q;
      end
    endcase
  end

  // Queue entry: {code, seq, b4, b3, b2} -> payload session, b2, b3, b4.
  always_comb begin
    unique case (q_out[QW-1 -: 2])
      QAck:    begin q_type = AnsAck;   q_len = 8'd5; end
      QNak:    begin q_type = AnsNak;   q_len = 8'd4; end
      default: begin q_type = AnsError; q_len = 8'd3; end
    endcase
  end

  assign q_pop      = q_valid && !tx_busy_i;
  assign start_long = !q_valid && !tx_busy_i && st_q == Send;
  assign tx_start_o = q_pop || start_long;
  assign tx_type_o  = q_pop ? q_type : l_type;
  assign tx_seq_o   = q_pop ? q_out[QW-3 -: 8] : cmd_seq_q;
  assign tx_len_o   = q_pop ? q_len : l_len;

  always_comb begin
    unique case (ext_q)
      ExtId:   ext_byte = IdPad[8*(pidx_q - 8'd2) +: 8];
      ExtDump: ext_byte = byte_of(entry_q, 5'(pidx_q - 8'd4));
      ExtRes:  ext_byte = byte_of(res_data_i[EntW*res_unit_q +: EntW], 5'(pidx_q - 8'd4));
      default: ext_byte = 8'd0;
    endcase
    if (ext_q == ExtNone || pidx_q < ((ext_q == ExtId) ? 8'd2 : 8'd4)) tx_pay_o = ans_q[pidx_q[3:0]];
    else tx_pay_o = ext_byte;
  end

  always_comb begin
    ans_d  = ans_q;
    ext_d  = ext_q;
    pidx_d = pidx_q + 8'(tx_take_i);
    if (q_pop) begin
      for (int k = 0; k < 16; k++) ans_d[k] = 8'd0;
      ans_d[0] = session_q[7:0];
      ans_d[1] = session_q[15:8];
      // ACK: free, status; NAK: expect, reason; ERROR: code (the values
      // at the start of the answer).
      unique case (q_out[QW-1 -: 2])
        QAck: begin
          ans_d[2] = buf_free_i[7:0];
          ans_d[3] = buf_free_i[15:8];
          ans_d[4] = status;
        end
        QNak: begin
          ans_d[2] = expect_q;
          ans_d[3] = q_out[7:0];
        end
        default: ans_d[2] = q_out[7:0];
      endcase
      ext_d    = ExtNone;
      pidx_d   = 8'd0;
    end else if (start_long) begin
      ans_d  = l_bytes;
      ext_d  = l_ext;
      pidx_d = 8'd0;
    end
  end

  // The command machine moves to SendWait once its frame has started.
  state_e st_n;
  always_comb begin
    st_n = st_d;
    if (start_long) st_n = SendWait;
  end

  // ------------------------------------------------------------- registers
  // Control state and counters reset; the command's operands, the dump
  // entry and the answer bytes are written before use.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q         <= Idle;
      lk_q         <= LAck;
      session_q    <= '0;
      expect_q     <= '0;
      wr_en_q      <= 1'b0;
      crc_errs_q   <= '0;
      tmos_q       <= '0;
      naks_q       <= '0;
      dups_q       <= '0;
      records_q    <= '0;
      busy_q       <= '0;
      idle_q       <= '0;
      res_pend_q   <= 1'b0;
      res_unit_q   <= '0;
      unit_rst_q   <= 1'b0;
      csr_we_q     <= '0;
      dump_start_q <= '0;
      csr_addr_q   <= '0;
      csr_wdata_q  <= '0;
      ext_q        <= ExtNone;
      pidx_q       <= '0;
      dwait_q      <= '0;
    end else begin
      st_q         <= st_n;
      lk_q         <= lk_d;
      session_q    <= session_d;
      expect_q     <= expect_d;
      wr_en_q      <= wr_en_d;
      crc_errs_q   <= crc_errs_d;
      tmos_q       <= tmos_d;
      naks_q       <= naks_d;
      dups_q       <= dups_d;
      records_q    <= records_d;
      busy_q       <= busy_d;
      idle_q       <= idle_d;
      res_pend_q   <= res_pend_d;
      res_unit_q   <= res_unit_d;
      unit_rst_q   <= unit_rst_d;
      csr_we_q     <= csr_we_d;
      dump_start_q <= dump_start_d;
      csr_addr_q   <= csr_addr_d;
      csr_wdata_q  <= csr_wdata_d;
      ext_q        <= ext_d;
      pidx_q       <= pidx_d;
      dwait_q      <= dwait_d;
    end
  end

  always_ff @(posedge clk_i) begin
    cmd_type_q <= cmd_type_d;
    cmd_seq_q  <= cmd_seq_d;
    unit_q     <= unit_d;
    rdata_q    <= rdata_d;
    dcnt_q     <= dcnt_d;
    dcrc_q     <= dcrc_d;
    entry_q    <= entry_d;
    rmax_q     <= rmax_d;
    ans_q      <= ans_d;
  end

  assign buf_we_o       = pay_valid_i && wr_en_q;
  assign buf_rollback_o = (end_valid_i && !buf_commit_o) || crc_err_i || tmo_i;
  assign unit_rst_o     = unit_rst_q;
  assign csr_we_o       = csr_we_q;
  assign csr_addr_o     = csr_addr_q;
  assign csr_wdata_o    = csr_wdata_q;
  assign dump_start_o   = dump_start_q;

endmodule

`default_nettype wire
