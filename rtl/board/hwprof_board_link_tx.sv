/// hwprof_board_link_tx: frame transmitter of the board link. start_i (while
/// idle) registers type, seq and len; the transmitter then hands the UART
/// transmitter SOF, type, seq, len, len payload bytes and the CRC-16 (low
/// byte first) over type, seq, len and payload. Payload bytes are pulled:
/// pay_data_i is the byte at the current payload index (kept by the
/// caller), and pay_take_o pulses in the cycle the UART takes it (the
/// caller advances its index at that edge). busy_o is high from the edge
/// after start_i until the UART has taken the last CRC byte.
/// Model: sim_models/board/link_tx.h (LinkTx).
`default_nettype none

module hwprof_board_link_tx (
  /// Clock.
  input  wire logic        clk_i,
  /// Asynchronous reset, active low.
  input  wire logic        rst_ni,
  /// Start a frame (ignored while busy).
  input  wire logic        start_i,
  /// Its type.
  input  wire logic [7:0]  type_i,
  /// Its sequence number.
  input  wire logic [7:0]  seq_i,
  /// Its payload length.
  input  wire logic [7:0]  len_i,
  /// A frame is being sent.
  output logic             busy_o,
  /// The payload byte at the caller's index.
  input  wire logic [7:0]  pay_data_i,
  /// The UART takes that payload byte now.
  output logic             pay_take_o,
  /// Byte to the UART transmitter.
  output logic             out_valid_o,
  /// The UART transmitter takes it.
  input  wire logic        out_ready_i,
  /// The byte.
  output logic [7:0]       out_data_o
);

  import hwprof_board_pkg::*;

  typedef enum logic [2:0] {Idle, SofS, TypeS, SeqS, LenS, PayS, CrcLo, CrcHi} state_e;

  state_e      state_q, state_d;
  logic [7:0]  type_q, type_d, seq_q, seq_d, len_q, len_d, cnt_q, cnt_d;
  logic [15:0] crc_q, crc_d;
  logic        take;

  always_comb begin
    unique case (state_q)
      SofS:    out_data_o = Sof;
      TypeS:   out_data_o = type_q;
      SeqS:    out_data_o = seq_q;
      LenS:    out_data_o = len_q;
      PayS:    out_data_o = pay_data_i;
      CrcLo:   out_data_o = crc_q[7:0];
      CrcHi:   out_data_o = crc_q[15:8];
      default: out_data_o = 8'h00;
    endcase
  end

  assign out_valid_o = state_q != Idle;
  assign take        = out_valid_o && out_ready_i;
  assign pay_take_o  = take && state_q == PayS;
  assign busy_o      = state_q != Idle;

  always_comb begin
    state_d = state_q;
    type_d  = type_q;
    seq_d   = seq_q;
    len_d   = len_q;
    cnt_d   = cnt_q;
    crc_d   = crc_q;
    if (state_q == Idle) begin
      if (start_i) begin
        state_d = SofS;
        type_d  = type_i;
        seq_d   = seq_i;
        len_d   = len_i;
        cnt_d   = 8'd0;
        crc_d   = 16'hFFFF;
      end
    end else if (take) begin
      if (state_q inside {TypeS, SeqS, LenS, PayS}) crc_d = crc16_byte(crc_q, out_data_o);
      unique case (state_q)
        SofS:  state_d = TypeS;
        TypeS: state_d = SeqS;
        SeqS:  state_d = LenS;
        LenS:  state_d = (len_q == 8'd0) ? CrcLo : PayS;
        PayS: begin
          cnt_d = cnt_q + 1'b1;
          if (cnt_q + 1'b1 == len_q) state_d = CrcLo;
        end
        CrcLo:   state_d = CrcHi;
        default: state_d = Idle;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= Idle;
    else         state_q <= state_d;
  end

  // Written at start before use: no reset.
  always_ff @(posedge clk_i) begin
    type_q <= type_d;
    seq_q  <= seq_d;
    len_q  <= len_d;
    cnt_q  <= cnt_d;
    crc_q  <= crc_d;
  end

endmodule

`default_nettype wire
