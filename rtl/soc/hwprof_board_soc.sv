/// hwprof_board_soc: a board build with a RISC-V core (docs/soc.md, "The SoC
/// on a board"): hwprof_board_core (the link shell, the units chosen with
/// En*, the ID block) with one extra unit, hwprof_soc_unit (PicoRV32, its
/// RAM, the RVFI ingress), whose records share the shell's fan-out with the
/// host's RECORDS stream. The SoC is the last unit of the ID block: kind 6,
/// parameters MemWords, Rv32imc, IngressDepth, IngressValDepth,
/// ConsoleDepth. OPEN resets it with the units (the core held in reset; the
/// RAM keeps its contents). Ports: those of hwprof_board_core without ext_*.
`default_nettype none

module hwprof_board_soc #(
  /// Board id of the ID block: 1 iCEBreaker, 2 ULX3S, 3 virtual board.
  parameter int unsigned Board = 2,
  /// Clock frequency in Hz.
  parameter int unsigned ClkHz = 25000000,
  /// UART baud rate.
  parameter int unsigned Baud = 115200,
  /// Receive buffer bytes (power of two).
  parameter int unsigned RxBytes = 1024,
  /// Units present beside the SoC.
  parameter int unsigned EnPath = 1,
  parameter int unsigned EnRap  = 1,
  parameter int unsigned EnDcr  = 1,
  parameter int unsigned EnBbv  = 1,
  /// Unit sizes the board tops set (hwprof_board_core for the rest).
  parameter int unsigned RapGroups = 31,
  parameter int unsigned RapQueue = 1024,
  parameter int unsigned BbvCounters = 32,
  parameter int unsigned BbvEntries = 32,
  /// The SoC (hwprof_soc_unit).
  parameter int unsigned SocMemWords = 32768,
  parameter int unsigned SocRv32imc = 0,
  parameter int unsigned SocIngressDepth = 8,
  parameter int unsigned SocIngressValDepth = 4,
  parameter int unsigned SocConsoleDepth = 16,
  localparam int unsigned NUnits = int'(EnPath != 0) + int'(EnRap != 0) + int'(EnDcr != 0) + int'(EnBbv != 0) + 1
) (
  /// Clock.
  input  wire logic                          clk_i,
  /// Asynchronous reset, active low (synchronized by the board top).
  input  wire logic                          rst_ni,
  /// UART line from the host.
  input  wire logic                          uart_rx_i,
  /// UART line to the host.
  output logic                               uart_tx_o,
  /// Probes (hwprof_board_core; the SoC is the last unit).
  output logic                               probe_unit_rst_o,
  output logic [NUnits-1:0]                  probe_rec_valid_o,
  output logic [NUnits-1:0]                  probe_rec_ready_o,
  output hwprof_board_pkg::board_rec_t       probe_rec_data_o,
  output logic [NUnits-1:0]                  probe_csr_we_o,
  output logic [7:0]                         probe_csr_addr_o,
  output logic [31:0]                        probe_csr_wdata_o,
  output logic [NUnits-1:0]                  probe_dump_start_o,
  output logic [NUnits-1:0]                  probe_dump_ready_o,
  output logic [NUnits-1:0]                  probe_res_ready_o
);

  /// The SoC's parameters in the ID block (first at bits 31..0).
  function automatic logic [255:0] soc_params();
    logic [255:0] p;
    p = '0;
    p[31:0]    = 32'(SocMemWords);
    p[63:32]   = 32'(SocRv32imc);
    p[95:64]   = 32'(SocIngressDepth);
    p[127:96]  = 32'(SocIngressValDepth);
    p[159:128] = 32'(SocConsoleDepth);
    return p;
  endfunction

  localparam logic [255:0] SocParams = soc_params();

  logic                         soc_rst_n, soc_csr_we, soc_valid, soc_ready;
  logic [7:0]                   soc_csr_addr;
  logic [31:0]                  soc_csr_wdata, soc_csr_rdata;
  hwprof_board_pkg::board_rec_t soc_data;

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
    .BbvEntries (BbvEntries),
    .ExtUnit    (1),
    .ExtKind    (int'(hwprof_board_pkg::KindSoc)),
    .ExtNParams (5),
    .ExtParams  (SocParams)
  ) u_core (
    .clk_i,
    .rst_ni,
    .uart_rx_i,
    .uart_tx_o,
    .ext_rec_valid_i   (soc_valid),
    .ext_rec_ready_o   (soc_ready),
    .ext_rec_data_i    (soc_data),
    .ext_rst_no        (soc_rst_n),
    .ext_csr_we_o      (soc_csr_we),
    .ext_csr_addr_o    (soc_csr_addr),
    .ext_csr_wdata_o   (soc_csr_wdata),
    .ext_csr_rdata_i   (soc_csr_rdata),
    .probe_unit_rst_o,
    .probe_rec_valid_o,
    .probe_rec_ready_o,
    .probe_rec_data_o,
    .probe_csr_we_o,
    .probe_csr_addr_o,
    .probe_csr_wdata_o,
    .probe_dump_start_o,
    .probe_dump_ready_o,
    .probe_res_ready_o
  );

  hwprof_soc_unit #(
    .MemWords       (SocMemWords),
    .Rv32imc        (SocRv32imc),
    .IngressDepth   (SocIngressDepth),
    .IngressValDepth(SocIngressValDepth),
    .ConsoleDepth   (SocConsoleDepth)
  ) u_soc (
    .clk_i,
    .rst_ni     (soc_rst_n),
    .csr_we_i   (soc_csr_we),
    .csr_addr_i (soc_csr_addr),
    .csr_wdata_i(soc_csr_wdata),
    .csr_rdata_o(soc_csr_rdata),
    .rec_valid_o(soc_valid),
    .rec_ready_i(soc_ready),
    .rec_data_o (soc_data)
  );

endmodule

`default_nettype wire
