/// hwprof_board_rst: power-on reset and reset synchronizer of a board top.
/// A 4-bit counter with initial value 0 (FPGA flip-flops start from their
/// init value after configuration) holds the reset for 15 clocks; the
/// asynchronous active-low reset it produces is released synchronously
/// through two flops (asserted asynchronously, deasserted on a clock edge).
`default_nettype none

module hwprof_board_rst (
  /// Board clock.
  input  wire logic clk_i,
  /// Active-low reset for the design.
  output logic      rst_no
);

  logic [3:0] por_q = 4'd0;
  logic       por_n;
  logic [1:0] sync_q = 2'b00;

  always_ff @(posedge clk_i) begin
    if (por_q != 4'hF) por_q <= por_q + 4'd1;
  end

  assign por_n = por_q == 4'hF;

  always_ff @(posedge clk_i or negedge por_n) begin
    if (!por_n) sync_q <= 2'b00;
    else        sync_q <= {sync_q[0], 1'b1};
  end

  assign rst_no = sync_q[1];

endmodule

`default_nettype wire
