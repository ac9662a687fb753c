/// hwprof_uart_rx: UART receiver, 8 data bits, no parity, 1 stop bit, LSB
/// first. The line passes a two-flop synchronizer; a falling edge starts a
/// byte, the start bit is checked ClksPerBit/2 clocks later (a shorter low is
/// a glitch and ignored), then each data bit and the stop bit are sampled
/// ClksPerBit clocks apart (mid-bit). A byte whose stop bit is 0 (framing
/// error) is dropped. valid_o is a one-cycle pulse the cycle after the stop
/// bit's sample, data_o holds until the next byte. Model:
/// sim_models/board/uart.h (UartRx).
`default_nettype none

module hwprof_uart_rx #(
  /// Clocks per bit (>= 4): clk / baud.
  parameter int unsigned ClksPerBit = 16
) (
  /// Clock.
  input  wire logic       clk_i,
  /// Asynchronous reset, active low.
  input  wire logic       rst_ni,
  /// Serial line (idle high), asynchronous.
  input  wire logic       rx_i,
  /// A byte was received (one-cycle pulse).
  output logic            valid_o,
  /// The byte.
  output logic [7:0]      data_o
);

  localparam int unsigned CntW = $clog2(ClksPerBit + 1);

  typedef enum logic [1:0] {Idle, Start, Data, Stop} state_e;

  state_e          state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [2:0]      bit_q, bit_d;
  logic [7:0]      sh_q, sh_d;
  logic            valid_q, valid_d;
  logic            s1_q, s2_q;

  initial begin
    if (ClksPerBit < 4) $fatal(1, "hwprof_uart_rx: ClksPerBit must be >= 4");
  end

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    sh_d    = sh_q;
    valid_d = 1'b0;
    unique case (state_q)
      Idle: begin
        if (!s2_q) begin
          state_d = Start;
          cnt_d   = CntW'(ClksPerBit / 2 - 1);
        end
      end
      Start: begin
        if (cnt_q == '0) begin
          if (!s2_q) begin
            state_d = Data;
            cnt_d   = CntW'(ClksPerBit - 1);
            bit_d   = 3'd0;
          end else begin
            state_d = Idle;
          end
        end else begin
          cnt_d = cnt_q - 1'b1;
        end
      end
      Data: begin
        if (cnt_q == '0) begin
          sh_d  = {s2_q, sh_q[7:1]};
          cnt_d = CntW'(ClksPerBit - 1);
          bit_d = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = Stop;
        end else begin
          cnt_d = cnt_q - 1'b1;
        end
      end
      Stop: begin
        if (cnt_q == '0) begin
          valid_d = s2_q;
          state_d = Idle;
        end else begin
          cnt_d = cnt_q - 1'b1;
        end
      end
      default: state_d = Idle;
    endcase
  end

  // Control state and the synchronizer reset; the shift register does not
  // need one (data_o is meaningful only with valid_o).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      cnt_q   <= '0;
      bit_q   <= '0;
      valid_q <= 1'b0;
      s1_q    <= 1'b1;
      s2_q    <= 1'b1;
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      valid_q <= valid_d;
      s1_q    <= rx_i;
      s2_q    <= s1_q;
    end
  end

  always_ff @(posedge clk_i) begin
    sh_q <= sh_d;
  end

  assign valid_o = valid_q;
  assign data_o  = sh_q;

endmodule

`default_nettype wire
