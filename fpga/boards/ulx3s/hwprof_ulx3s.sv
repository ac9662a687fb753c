/// hwprof_ulx3s: board top for the ULX3S (LFE5U-85F/25F/12F, 25 MHz on G2, FT231X UART: FPGA TX L4, RX M1).
/// The board clock drives everything (no PLL: the units close timing at the
/// board clock); hwprof_board_top holds the power-on reset, the link shell
/// and the units chosen with the En* parameters (`make fpga BOARD=ulx3s
/// UNITS=...`, docs/boards.md). This file names the pins and sets the
/// board's defaults.
`default_nettype none

module hwprof_ulx3s #(
  /// UART baud rate.
  parameter int unsigned Baud = 115200,
  /// Receive buffer bytes.
  parameter int unsigned RxBytes = 1024,
  /// Units present.
  parameter int unsigned EnPath = 1,
  parameter int unsigned EnRap  = 1,
  parameter int unsigned EnDcr  = 1,
  parameter int unsigned EnBbv  = 1,
  /// RAP engine size (docs/boards.md).
  parameter int unsigned RapGroups = 31,
  parameter int unsigned RapQueue = 1024,
  /// BBV detector size (docs/boards.md).
  parameter int unsigned BbvCounters = 32,
  parameter int unsigned BbvEntries = 32,
  /// 1: a PicoRV32 SoC beside the units (`make fpga SOC=picorv32`), its RAM
  /// in 32-bit words (128 KB: 64 DP16KD).
  parameter int unsigned Soc = 0,
  parameter int unsigned SocMemWords = 32768
) (
  /// Board clock, 25 MHz.
  input  wire logic clk_25mhz,
  /// UART from the host (FPGA RX).
  input  wire logic ftdi_txd,
  /// UART to the host (FPGA TX).
  output logic      ftdi_rxd
);

  hwprof_board_top #(
    .Board(2),
    .ClkHz(25000000),
    .Baud(Baud),
    .RxBytes(RxBytes),
    .EnPath(EnPath),
    .EnRap(EnRap),
    .EnDcr(EnDcr),
    .EnBbv(EnBbv),
    .RapGroups(RapGroups),
    .RapQueue(RapQueue),
    .BbvCounters(BbvCounters),
    .BbvEntries(BbvEntries),
    .Soc(Soc),
    .SocMemWords(SocMemWords)
  ) u_top (
    .clk_i    (clk_25mhz),
    .uart_rx_i(ftdi_txd),
    .uart_tx_o(ftdi_rxd)
  );

endmodule

`default_nettype wire
