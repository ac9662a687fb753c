/// hwprof_board_rec_decoder: decodes the RECORDS byte stream of the receive
/// buffer (docs/board_protocol.md "Record encoding") into records.
/// It reads one byte every other cycle at most: a read is issued (rd_o) when
/// the buffer has a byte, no read is in flight and no decoded record waits
/// for out_ready_i; the byte arrives the next cycle (rd_data_i) and is
/// consumed then. A record is offered (out_valid_o, registered) after its
/// last byte and held until taken. Field rules:
///   * tag: kind = bits 2:0 (7 is an error), a val tag must be exactly 6;
///   * varints: LEB128, at most 5 bytes (a 5th byte with bit 7 set is an
///     error), value width checked against the field (branch: zigzag pc
///     delta and zigzag target delta 32 bits, insns 16, events 8; val: value
///     32, weight 16);
///   * pc = prev_next + unzigzag(d1), target = pc + unzigzag(d2) (mod 2^32);
///     prev_next = taken ? target : pc + ilen after each branch record (0
///     after clear_i).
/// An error sets err_o (sticky until clear_i) and stops decoding. clear_i
/// (OPEN) drops a partial record, an offered record and the read in flight.
/// Model: sim_models/board/rec_decoder.h (RecDecoder).
`default_nettype none

module hwprof_board_rec_decoder (
  /// Clock.
  input  wire logic                           clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                           rst_ni,
  /// Drop all state (OPEN).
  input  wire logic                           clear_i,
  /// The buffer has a committed byte.
  input  wire logic                           avail_i,
  /// Read one byte (the buffer's re_i).
  output logic                                rd_o,
  /// The byte read at the previous edge.
  input  wire logic [7:0]                     rd_data_i,
  /// A record is offered.
  output logic                                out_valid_o,
  /// It is taken.
  input  wire logic                           out_ready_i,
  /// The record.
  output hwprof_board_pkg::board_rec_t        out_data_o,
  /// A partial record is held (bytes consumed, record not complete).
  output logic                                busy_o,
  /// A record did not decode (sticky until clear_i).
  output logic                                err_o
);

  import hwprof_pkg::*;
  import hwprof_board_pkg::*;

  logic        rdp_q, rdp_d;
  logic        ov_q, ov_d;
  logic        err_q, err_d;
  logic [2:0]  fld_q, fld_d;
  logic [2:0]  nb_q, nb_d;
  logic [34:0] acc_q, acc_d;
  logic [7:0]  tag_q, tag_d;
  logic [31:0] prev_q, prev_d;
  board_rec_t  rec_q, rec_d;

  logic [34:0] acc_new;
  logic [31:0] unzig;
  logic        last_byte;

  assign rd_o      = avail_i && !rdp_q && !ov_q && !err_q && !clear_i;
  assign acc_new   = acc_q | (35'(rd_data_i[6:0]) << (7 * nb_q));
  assign unzig     = acc_new[32:1] ^ {32{acc_new[0]}};
  assign last_byte = !rd_data_i[7];

  always_comb begin
    rdp_d  = rd_o;
    ov_d   = ov_q && !out_ready_i;
    err_d  = err_q;
    fld_d  = fld_q;
    nb_d   = nb_q;
    acc_d  = acc_q;
    tag_d  = tag_q;
    prev_d = prev_q;
    rec_d  = rec_q;
    if (rdp_q) begin
      if (fld_q == 3'd0) begin
        tag_d = rd_data_i;
        fld_d = 3'd1;
        acc_d = '0;
        nb_d  = '0;
        if (rd_data_i[2:0] == 3'd7 || (rd_data_i[2:0] == 3'd6 && rd_data_i != 8'd6)) err_d = 1'b1;
      end else if (!last_byte) begin
        acc_d = acc_new;
        nb_d  = nb_q + 1'b1;
        if (nb_q == 3'd4) err_d = 1'b1;
      end else begin
        acc_d = '0;
        nb_d  = '0;
        fld_d = fld_q + 1'b1;
        if (tag_q[2:0] == 3'd6) begin
          // val: value (32 bits), weight (16 bits)
          rec_d.is_val = 1'b1;
          if (fld_q == 3'd1) begin
            if (acc_new[34:32] != '0) err_d = 1'b1;
            rec_d.value = acc_new[31:0];
          end else begin
            if (acc_new[34:16] != '0) err_d = 1'b1;
            rec_d.weight = acc_new[15:0];
            fld_d        = 3'd0;
            ov_d         = 1'b1;
          end
        end else begin
          rec_d.is_val   = 1'b0;
          rec_d.br.kind  = kind_e'(tag_q[2:0]);
          rec_d.br.taken = tag_q[3];
          rec_d.br.ilen  = tag_q[7:4];
          unique case (fld_q)
            3'd1: begin
              if (acc_new[34:32] != '0) err_d = 1'b1;
              rec_d.br.pc = prev_q + unzig;
            end
            3'd2: begin
              if (acc_new[34:32] != '0) err_d = 1'b1;
              rec_d.br.target = rec_q.br.pc + unzig;
            end
            3'd3: begin
              if (acc_new[34:16] != '0) err_d = 1'b1;
              rec_d.br.insns = acc_new[15:0];
            end
            default: begin
              if (acc_new[34:8] != '0) err_d = 1'b1;
              rec_d.br.events = acc_new[7:0];
              fld_d           = 3'd0;
              ov_d            = 1'b1;
              prev_d          = rec_q.br.taken ? rec_q.br.target : rec_q.br.pc + 32'(rec_q.br.ilen);
            end
          endcase
        end
      end
    end
    if (err_d) ov_d = 1'b0;
    if (clear_i) begin
      rdp_d  = 1'b0;
      ov_d   = 1'b0;
      err_d  = 1'b0;
      fld_d  = '0;
      nb_d   = '0;
      acc_d  = '0;
      prev_d = '0;
    end
  end

  // Control state resets; the record fields need none (written before they
  // are offered).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdp_q  <= 1'b0;
      ov_q   <= 1'b0;
      err_q  <= 1'b0;
      fld_q  <= '0;
      nb_q   <= '0;
      acc_q  <= '0;
      tag_q  <= '0;
      prev_q <= '0;
    end else begin
      rdp_q  <= rdp_d;
      ov_q   <= ov_d;
      err_q  <= err_d;
      fld_q  <= fld_d;
      nb_q   <= nb_d;
      acc_q  <= acc_d;
      tag_q  <= tag_d;
      prev_q <= prev_d;
    end
  end

  always_ff @(posedge clk_i) begin
    rec_q <= rec_d;
  end

  assign out_valid_o = ov_q;
  assign out_data_o  = rec_q;
  assign busy_o      = rdp_q || fld_q != 3'd0;
  assign err_o       = err_q;

endmodule

`default_nettype wire
