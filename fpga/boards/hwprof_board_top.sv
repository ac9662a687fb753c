/// hwprof_board_top: what every board top holds, whatever the board: the
/// power-on reset (hwprof_board_rst) and hwprof_board_core (the link shell
/// and the units chosen with the En* parameters), with the core's test
/// probes left unconnected. A board top (fpga/boards/<board>/) only names the
/// board's pins and clock and sets the defaults of its build
/// (docs/boards.md).
/// Soc = 1: hwprof_board_soc instead of hwprof_board_core, a PicoRV32 SoC
/// as one more unit whose records feed the units (docs/soc.md, "The SoC on a
/// board"; `make fpga SOC=picorv32`).
`default_nettype none

module hwprof_board_top #(
  /// Board id of the INFO block (1 iCEBreaker, 2 ULX3S).
  parameter int unsigned Board = 2,
  /// Board clock in Hz.
  parameter int unsigned ClkHz = 25000000,
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
  /// 1: the SoC (PicoRV32, its RAM, the RVFI ingress) beside the units.
  parameter int unsigned Soc = 0,
  /// The SoC's RAM in 32-bit words, and its core (1: RV32IMC, 0: RV32I).
  parameter int unsigned SocMemWords = 32768,
  parameter int unsigned SocRv32imc = 0
) (
  /// Board clock.
  input  wire logic clk_i,
  /// UART from the host (FPGA RX).
  input  wire logic uart_rx_i,
  /// UART to the host (FPGA TX).
  output logic      uart_tx_o
);

  localparam int unsigned NumUnits = EnPath + EnRap + EnDcr + EnBbv + int'(Soc != 0);

  logic rst_n;
  logic probe_unit_rst;
  logic [NumUnits-1:0] probe_rec_valid, probe_rec_ready, probe_csr_we;
  logic [NumUnits-1:0] probe_dump_start, probe_dump_ready, probe_res_ready;
  hwprof_board_pkg::board_rec_t probe_rec_data;
  logic [7:0]  probe_csr_addr;
  logic [31:0] probe_csr_wdata;

  hwprof_board_rst u_rst (
    .clk_i,
    .rst_no(rst_n)
  );

  if (Soc != 0) begin : g_soc
    hwprof_board_soc #(
      .Board      (Board),
      .ClkHz      (ClkHz),
      .Baud       (Baud),
      .RxBytes    (RxBytes),
      .EnPath     (EnPath),
      .EnRap      (EnRap),
      .EnDcr      (EnDcr),
      .EnBbv      (EnBbv),
      .RapGroups  (RapGroups),
      .RapQueue   (RapQueue),
      .BbvCounters(BbvCounters),
      .BbvEntries (BbvEntries),
      .SocMemWords(SocMemWords),
      .SocRv32imc (SocRv32imc)
    ) u_core (
      .clk_i,
      .rst_ni            (rst_n),
      .uart_rx_i,
      .uart_tx_o,
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
  end else begin : g_core
    hwprof_board_core #(
      .Board      (Board),
      .ClkHz      (ClkHz),
      .Baud       (Baud),
      .RxBytes    (RxBytes),
      .EnPath     (EnPath),
      .EnRap      (EnRap),
      .EnDcr      (EnDcr),
      .EnBbv      (EnBbv),
      .RapGroups  (RapGroups),
      .RapQueue   (RapQueue),
      .BbvCounters(BbvCounters),
      .BbvEntries (BbvEntries)
    ) u_core (
      .clk_i,
      .rst_ni            (rst_n),
      .uart_rx_i,
      .uart_tx_o,
      .ext_rec_valid_i   (1'b0),
      .ext_rec_ready_o   (),
      .ext_rec_data_i    ('0),
      .ext_rst_no        (),
      .ext_csr_we_o      (),
      .ext_csr_addr_o    (),
      .ext_csr_wdata_o   (),
      .ext_csr_rdata_i   ('0),
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
  end

endmodule

`default_nettype wire
