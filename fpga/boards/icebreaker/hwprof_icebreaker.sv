/// hwprof_icebreaker: board top for the iCEBreaker (iCE40UP5K-SG48, 12 MHz on pin 35, FT2232H channel B UART: FPGA RX pin 6, TX pin 9).
/// The board clock drives everything (no PLL: the units close timing at
/// the board clock); hwprof_board_rst gives a power-on reset, synchronized;
/// hwprof_board_core holds the link shell and the units chosen with the
/// En* parameters (`make fpga BOARD=icebreaker UNITS=...`, docs/boards.md).
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

  logic rst_n;
  logic probe_unit_rst;
  logic [EnPath + EnRap + EnDcr + EnBbv - 1:0] probe_rec_valid, probe_rec_ready, probe_csr_we;
  logic [EnPath + EnRap + EnDcr + EnBbv - 1:0] probe_dump_start, probe_dump_ready, probe_res_ready;
  hwprof_board_pkg::board_rec_t probe_rec_data;
  logic [7:0]  probe_csr_addr;
  logic [31:0] probe_csr_wdata;

  hwprof_board_rst u_rst (
    .clk_i (clk_12mhz),
    .rst_no(rst_n)
  );

  hwprof_board_core #(
    .Board    (1),
    .ClkHz    (12000000),
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
    .clk_i             (clk_12mhz),
    .rst_ni            (rst_n),
    .uart_rx_i         (uart_rx),
    .uart_tx_o         (uart_tx),
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
