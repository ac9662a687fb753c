/// hwprof_uart_tx: UART transmitter, 8 data bits, no parity, 1 stop bit, LSB
/// first. ready_o is high while idle; a byte taken at an edge (valid_i &
/// ready_o) goes out from that edge on: start bit, 8 data bits, stop bit,
/// ClksPerBit clocks each, then the transmitter is ready again (10 *
/// ClksPerBit clocks per byte). tx_o is a register output (idle high).
/// Model: sim_models/board/uart.h (UartTx).
`default_nettype none

module hwprof_uart_tx #(
  /// Clocks per bit (>= 4): clk / baud.
  parameter int unsigned ClksPerBit = 16
) (
  /// Clock.
  input  wire logic       clk_i,
  /// Asynchronous reset, active low.
  input  wire logic       rst_ni,
  /// A byte is offered.
  input  wire logic       valid_i,
  /// The transmitter is idle and takes it.
  output logic            ready_o,
  /// The byte.
  input  wire logic [7:0] data_i,
  /// Serial line (idle high).
  output logic            tx_o
);

  localparam int unsigned CntW = $clog2(ClksPerBit + 1);

  logic            busy_q, busy_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [3:0]      n_q, n_d;
  logic [9:0]      sh_q, sh_d;

  always_comb begin
    busy_d = busy_q;
    cnt_d  = cnt_q;
    n_d    = n_q;
    sh_d   = sh_q;
    if (!busy_q) begin
      if (valid_i) begin
        busy_d = 1'b1;
        sh_d   = {1'b1, data_i, 1'b0};
        cnt_d  = CntW'(ClksPerBit - 1);
        n_d    = 4'd0;
      end
    end else if (cnt_q == '0) begin
      cnt_d = CntW'(ClksPerBit - 1);
      sh_d  = {1'b1, sh_q[9:1]};
      n_d   = n_q + 1'b1;
      if (n_q == 4'd9) busy_d = 1'b0;
    end else begin
      cnt_d = cnt_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cnt_q  <= '0;
      n_q    <= '0;
      sh_q   <= '1;
    end else begin
      busy_q <= busy_d;
      cnt_q  <= cnt_d;
      n_q    <= n_d;
      sh_q   <= sh_d;
    end
  end

  assign ready_o = !busy_q;
  assign tx_o    = busy_q ? sh_q[0] : 1'b1;

endmodule

`default_nettype wire
