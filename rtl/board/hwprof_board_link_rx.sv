/// hwprof_board_link_rx: frame receiver of the board link (docs/board_protocol.md).
/// Takes the UART's bytes; outside a frame it discards every byte until SOF
/// (0x7E), then reads type, seq, len, len payload bytes and the CRC-16
/// (little-endian) and checks the CRC over type, seq, len and payload.
/// Outputs (all registered, one-cycle pulses; hdr/pl fields hold until the
/// next frame's header byte overwrites them):
///   * hdr_valid_o after the len byte (type_o, seq_o, len_o valid);
///   * pay_valid_o / pay_data_o per payload byte;
///   * end_valid_o after a good CRC (pl_o holds the first 6 payload bytes,
///     byte k at bits 8k+7..8k);
///   * crc_err_o after a wrong CRC; tmo_o when the bytes of a frame stop for
///     TmoClks clocks (64 byte times). Both drop the frame and return to
///     hunting for SOF.
/// Model: sim_models/board/link_rx.h (LinkRx).
`default_nettype none

module hwprof_board_link_rx #(
  /// Inter-byte timeout in clocks (64 byte times = 640 * ClksPerBit).
  parameter int unsigned TmoClks = 640 * 16
) (
  /// Clock.
  input  wire logic        clk_i,
  /// Asynchronous reset, active low.
  input  wire logic        rst_ni,
  /// A byte from the UART (one-cycle pulse).
  input  wire logic        in_valid_i,
  /// The byte.
  input  wire logic [7:0]  in_data_i,
  /// The header (type, seq, len) was received.
  output logic             hdr_valid_o,
  /// Frame type.
  output logic [7:0]       type_o,
  /// Frame sequence number.
  output logic [7:0]       seq_o,
  /// Payload length.
  output logic [7:0]       len_o,
  /// A payload byte.
  output logic             pay_valid_o,
  /// The payload byte.
  output logic [7:0]       pay_data_o,
  /// A frame ended with a good CRC.
  output logic             end_valid_o,
  /// Its first 6 payload bytes.
  output logic [47:0]      pl_o,
  /// A frame ended with a wrong CRC (dropped).
  output logic             crc_err_o,
  /// A frame timed out (dropped).
  output logic             tmo_o
);

  import hwprof_board_pkg::*;

  localparam int unsigned TmoW = $clog2(TmoClks + 1);

  typedef enum logic [2:0] {Hunt, Type, Seq, Len, Pay, CrcLo, CrcHi} state_e;

  state_e          state_q, state_d;
  logic [7:0]      type_q, type_d, seq_q, seq_d, len_q, len_d, cnt_q, cnt_d, crclo_q, crclo_d;
  logic [15:0]     crc_q, crc_d;
  logic [47:0]     pl_q, pl_d;
  logic [TmoW-1:0] tmo_cnt_q, tmo_cnt_d;
  logic            hdr_q, hdr_d, pay_q, pay_d, end_q, end_d, err_q, err_d, tmo_q, tmo_d;
  logic [7:0]      pay_data_q, pay_data_d;

  always_comb begin
    state_d    = state_q;
    type_d     = type_q;
    seq_d      = seq_q;
    len_d      = len_q;
    cnt_d      = cnt_q;
    crclo_d    = crclo_q;
    crc_d      = crc_q;
    pl_d       = pl_q;
    tmo_cnt_d  = tmo_cnt_q;
    hdr_d      = 1'b0;
    pay_d      = 1'b0;
    end_d      = 1'b0;
    err_d      = 1'b0;
    tmo_d      = 1'b0;
    pay_data_d = pay_data_q;
    if (in_valid_i) begin
      tmo_cnt_d = '0;
      unique case (state_q)
        Hunt: begin
          if (in_data_i == Sof) begin
            state_d = Type;
            crc_d   = 16'hFFFF;
          end
        end
        Type: begin
          type_d  = in_data_i;
          crc_d   = crc16_byte(crc_q, in_data_i);
          state_d = Seq;
        end
        Seq: begin
          seq_d   = in_data_i;
          crc_d   = crc16_byte(crc_q, in_data_i);
          state_d = Len;
        end
        Len: begin
          len_d   = in_data_i;
          crc_d   = crc16_byte(crc_q, in_data_i);
          cnt_d   = 8'd0;
          hdr_d   = 1'b1;
          state_d = (in_data_i == 8'd0) ? CrcLo : Pay;
        end
        Pay: begin
          crc_d      = crc16_byte(crc_q, in_data_i);
          pay_d      = 1'b1;
          pay_data_d = in_data_i;
          for (int k = 0; k < 6; k++) begin
            if (cnt_q == 8'(k)) pl_d[8*k +: 8] = in_data_i;
          end
          cnt_d = cnt_q + 1'b1;
          if (cnt_q + 1'b1 == len_q) state_d = CrcLo;
        end
        CrcLo: begin
          crclo_d = in_data_i;
          state_d = CrcHi;
        end
        CrcHi: begin
          if ({in_data_i, crclo_q} == crc_q) end_d = 1'b1;
          else err_d = 1'b1;
          state_d = Hunt;
        end
        default: state_d = Hunt;
      endcase
    end else if (state_q != Hunt) begin
      if (tmo_cnt_q == TmoW'(TmoClks - 1)) begin
        tmo_d     = 1'b1;
        tmo_cnt_d = '0;
        state_d   = Hunt;
      end else begin
        tmo_cnt_d = tmo_cnt_q + 1'b1;
      end
    end
  end

  // Control state resets; the captured fields and the CRC need none (they are
  // written before they are used in every frame).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= Hunt;
      tmo_cnt_q <= '0;
      hdr_q     <= 1'b0;
      pay_q     <= 1'b0;
      end_q     <= 1'b0;
      err_q     <= 1'b0;
      tmo_q     <= 1'b0;
    end else begin
      state_q   <= state_d;
      tmo_cnt_q <= tmo_cnt_d;
      hdr_q     <= hdr_d;
      pay_q     <= pay_d;
      end_q     <= end_d;
      err_q     <= err_d;
      tmo_q     <= tmo_d;
    end
  end

  always_ff @(posedge clk_i) begin
    type_q     <= type_d;
    seq_q      <= seq_d;
    len_q      <= len_d;
    cnt_q      <= cnt_d;
    crclo_q    <= crclo_d;
    crc_q      <= crc_d;
    pl_q       <= pl_d;
    pay_data_q <= pay_data_d;
  end

  assign hdr_valid_o = hdr_q;
  assign type_o      = type_q;
  assign seq_o       = seq_q;
  assign len_o       = len_q;
  assign pay_valid_o = pay_q;
  assign pay_data_o  = pay_data_q;
  assign end_valid_o = end_q;
  assign pl_o        = pl_q;
  assign crc_err_o   = err_q;
  assign tmo_o       = tmo_q;

endmodule

`default_nettype wire
