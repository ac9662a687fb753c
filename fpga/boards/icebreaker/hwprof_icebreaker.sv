/// hwprof_icebreaker: board top for the iCEBreaker (iCE40UP5K-SG48, 12 MHz on pin 35, FT2232H channel B UART: FPGA RX pin 6, TX pin 9).
/// The board clock drives everything (no PLL: the units close timing at the
/// board clock); hwprof_board_top holds the power-on reset, the link shell
/// and the units chosen with the En* parameters (`make fpga BOARD=icebreaker
/// UNITS=...`, docs/boards.md). This file names the pins and sets the
/// board's defaults.
`default_nettype none

module hwprof_icebreaker #(
  /// UART baud rate.
  parameter int unsigned Baud = 115200,
  /// Receive buffer bytes.
  parameter int unsigned RxBytes = 512,
  /// Units present.
  parameter int unsigned EnPath = 0,
  parameter int unsigned EnRap  = 0,
  parameter int unsigned EnDcr  = 0,
  parameter int unsigned EnBbv  = 1,
  /// RAP engine size (docs/boards.md).
  parameter int unsigned RapGroups = 31,
  parameter int unsigned RapQueue = 1024,
  /// BBV detector size (docs/boards.md).
  parameter int unsigned BbvCounters = 16,
  parameter int unsigned BbvEntries = 16
) (
  /// Board clock, 12 MHz.
  input  wire logic clk_12mhz,
  /// UART from the host (FPGA RX).
  input  wire logic uart_rx,
  /// UART to the host (FPGA TX).
  output logic      uart_tx
);

  hwprof_board_top #(
    .Board(1),
    .ClkHz(12000000),
    .Baud(Baud),
    .RxBytes(RxBytes),
    .EnPath(EnPath),
    .EnRap(EnRap),
    .EnDcr(EnDcr),
    .EnBbv(EnBbv),
    .RapGroups(RapGroups),
    .RapQueue(RapQueue),
    .BbvCounters(BbvCounters),
    .BbvEntries(BbvEntries)
  ) u_top (
    .clk_i    (clk_12mhz),
    .uart_rx_i(uart_rx),
    .uart_tx_o(uart_tx)
  );

endmodule

`default_nettype wire
