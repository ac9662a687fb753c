/// hwprof_ulx3s: board top for the ULX3S (LFE5U-85F/25F/12F, 25 MHz on G2, FT231X UART: FPGA TX L4, RX M1).
/// The board clock drives everything (no PLL: the units close timing at
/// the board clock); hwprof_board_rst gives a power-on reset, synchronized;
/// hwprof_board_core holds the link shell and the units chosen with the
/// En* parameters (`make fpga BOARD=ulx3s UNITS=...`, docs/boards.md).
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
  parameter int unsigned BbvEntries = 32
) (
  /// Board clock, 25 MHz.
  input  wire logic clk_25mhz,
  /// UART from the host (FPGA RX).
  input  wire logic ftdi_txd,
  /// UART to the host (FPGA TX).
  output logic      ftdi_rxd
);

  logic rst_n;
  logic probe_unit_rst;
  logic [EnPath + EnRap + EnDcr + EnBbv - 1:0] probe_rec_valid, probe_rec_ready, probe_csr_we;
  logic [EnPath + EnRap + EnDcr + EnBbv - 1:0] probe_dump_start, probe_dump_ready, probe_res_ready;
  hwprof_board_pkg::board_rec_t probe_rec_data;
  logic [7:0]  probe_csr_addr;
  logic [31:0] probe_csr_wdata;

  hwprof_board_rst u_rst (
    .clk_i (clk_25mhz),
    .rst_no(rst_n)
  );

  hwprof_board_core #(
    .Board    (2),
    .ClkHz    (25000000),
    .Baud     (Baud),
    .RxBytes  (RxBytes),
    .EnPath   (EnPath),
    .EnRap    (EnRap),
    .EnDcr    (EnDcr),
    .EnBbv    (EnBbv),
    .RapGroups(RapGroups),
    .RapQueue (RapQueue),
    .BbvCounters(BbvCounters),
    .BbvEntries(BbvEntries)
  ) u_core (
    .clk_i             (clk_25mhz),
    .rst_ni            (rst_n),
    .uart_rx_i         (ftdi_txd),
    .uart_tx_o         (ftdi_rxd),
    .probe_unit_rst_o  (probe_unit_rst),
    .probe_rec_valid_o (probe_rec_valid),
    .probe_rec_ready_o (probe_rec_ready),
    .probe_rec_data_o  (probe_rec_data),
    .probe_csr_we_o    (probe_csr_we),
    .probe_csr_addr_o  (probe_csr_addr),
    .probe_csr_wdata_o (probe_csr_wdata),
    .probe_dump_start_o(probe_dump_start),
    .probe_dump_ready_o(probe_dump_ready),
    .probe_res_ready_o (probe_res_ready)
  );

endmodule

`default_nettype wire
