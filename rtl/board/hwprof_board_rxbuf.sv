/// hwprof_board_rxbuf: the board's receive buffer of record bytes, a ring of
/// Bytes bytes in block RAM (hwprof_ram_2p) with a speculative write pointer:
///   * we_i writes wdata_i at the speculative pointer and advances it (the
///     caller writes only while there is room: len <= free_o at the header);
///   * commit_i makes everything written so far readable (committed pointer
///     = speculative pointer); rollback_i drops it (speculative pointer =
///     committed pointer); a write and a commit in one cycle do not occur
///     (the frame's CRC comes after its last payload byte);
///   * re_i reads the byte at the read pointer and advances it (the caller
///     reads only when !empty_o); rdata_o is valid the cycle after;
///   * clear_i empties the buffer (wins over everything else).
/// free_o = Bytes - committed unread bytes. Model: sim_models/board/rxbuf.h (RxBuf).
`default_nettype none

module hwprof_board_rxbuf #(
  /// Buffer size in bytes (power of two, 16..32768).
  parameter int unsigned Bytes = 1024,
  localparam int unsigned AW = $clog2(Bytes)
) (
  /// Clock.
  input  wire logic         clk_i,
  /// Asynchronous reset, active low.
  input  wire logic         rst_ni,
  /// Empty the buffer.
  input  wire logic         clear_i,
  /// Write a byte at the speculative pointer.
  input  wire logic         we_i,
  /// The byte.
  input  wire logic [7:0]   wdata_i,
  /// Commit the speculative bytes.
  input  wire logic         commit_i,
  /// Drop the speculative bytes.
  input  wire logic         rollback_i,
  /// Read the next committed byte.
  input  wire logic         re_i,
  /// The byte read at the previous edge.
  output logic [7:0]        rdata_o,
  /// No committed byte is left to read.
  output logic              empty_o,
  /// Bytes free (committed view).
  output logic [15:0]       free_o
);

  logic [AW:0] wcom_q, wcom_d, wspec_q, wspec_d, rptr_q, rptr_d;
  logic [AW:0] used;

  initial begin
    if (Bytes < 16 || Bytes > 32768 || (1 << AW) != Bytes) begin
      $fatal(1, "hwprof_board_rxbuf: Bytes must be a power of two in 16..32768");
    end
  end

  always_comb begin
    wcom_d  = wcom_q;
    wspec_d = wspec_q;
    rptr_d  = rptr_q;
    if (we_i) wspec_d = wspec_q + 1'b1;
    if (commit_i) wcom_d = wspec_q;
    if (rollback_i) wspec_d = wcom_q;
    if (re_i) rptr_d = rptr_q + 1'b1;
    if (clear_i) begin
      wcom_d  = '0;
      wspec_d = '0;
      rptr_d  = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wcom_q  <= '0;
      wspec_q <= '0;
      rptr_q  <= '0;
    end else begin
      wcom_q  <= wcom_d;
      wspec_q <= wspec_d;
      rptr_q  <= rptr_d;
    end
  end

  hwprof_ram_2p #(
    .Depth(Bytes),
    .Width(8),
    .GranW(8)
  ) u_ram (
    .clk_i,
    .wmask_i(we_i),
    .waddr_i(wspec_q[AW-1:0]),
    .wdata_i,
    .re_i,
    .raddr_i(rptr_q[AW-1:0]),
    .rdata_o
  );

  assign used    = wcom_q - rptr_q;
  assign empty_o = (wcom_q == rptr_q);
  assign free_o  = 16'(Bytes) - 16'(used);

endmodule

`default_nettype wire
