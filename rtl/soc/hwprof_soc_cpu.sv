/// hwprof_soc_cpu: PicoRV32 (from the PyPI package pythondata-cpu-picorv32,
/// compiled with RISCV_FORMAL for its RVFI port), its memory, the RVFI
/// ingress and the merge of the ingress' two ports into one record stream
/// (docs/soc.md). Shared by the simulated SoC (sim/soc/hwprof_soc_top.sv)
/// and the board build (hwprof_board_soc through hwprof_soc_unit).
///
///   picorv32 --rvfi--> hwprof_rvfi_ingress --branch records--+
///                                          --val records-----+--> merge --> rec_*_o (board_rec_t)
///
/// Records: branch records from the ingress; with rap_val_i the ingress'
/// val port gives a `val` record (value = rvfi_mem_addr, weight 1) of every
/// retired load and store that does not trap. The merge offers a branch
/// record before a val record (a record stays offered until it is taken:
/// rec_valid_o never falls and rec_data_o never changes before rec_ready_i).
/// Backpressure: RVFI cannot stall the core, but this module stalls its
/// memory: while a record waits (rec_valid_o && !rec_ready_i), or a val
/// record waits behind a branch record, or the program stores to the UART
/// while uart_ready_i is low, the memory answers nothing, so the core
/// retires at most the instruction it is executing and neither ingress FIFO
/// (IngressDepth, IngressValDepth) overflows (assertion val_none_dropped).
///
/// Memory map (that of qemu's `virt` machine, so one ELF runs on both):
///   0x8000_0000 .. +4*MemWords  RAM (program, data, stack), one port: the
///                               core's, or load_* while the core is held
///                               in reset (load_we_i wins);
///   0x1000_0000                 UART transmit register (byte store: one
///                               character on uart_valid_o / uart_data_o);
///                               reads anywhere in 0x1000_0000..0x1000_0fff
///                               return 0x6060_6060 (16550 LSR: transmitter
///                               empty);
///   0x0010_0000                 exit register (qemu's sifive_test): a store
///                               of 0x5555 exits with code 0, of
///                               (code << 16) | 0x3333 with `code`.
/// After an exit store (or a core trap) the memory stops answering, so the
/// core stalls and retires nothing more; exit_valid_o stays high.
/// Memory timing: one wait state (mem_ready one clock after mem_valid); the
/// RAM's read is a registered read with enable (block RAM: DP16KD on ECP5),
/// the I/O read value a register beside it.
/// The core is held in reset while core_run_i is low; the ingress resets
/// with rst_ni only.
`default_nettype none

`include "hwprof_assert.svh"

module hwprof_soc_cpu #(
  /// RAM size in 32-bit words (power of two).
  parameter int unsigned MemWords = 32768,
  /// 1: PicoRV32 with the M and C extensions (ENABLE_MUL, ENABLE_DIV,
  /// COMPRESSED_ISA: RV32IMC); 0: RV32I.
  parameter int unsigned Rv32imc = 0,
  /// Records the ingress FIFO holds.
  parameter int unsigned IngressDepth = 8,
  /// Val records the ingress' val FIFO holds.
  parameter int unsigned IngressValDepth = 4,
  localparam int unsigned MemAw = $clog2(MemWords)
) (
  /// Clock.
  input  wire logic                  clk_i,
  /// Asynchronous reset of everything, active low.
  input  wire logic                  rst_ni,
  /// Releases the core from reset (it starts at 0x8000_0000).
  input  wire logic                  core_run_i,
  /// Ingress event selection (hwprof_rvfi_ingress ev_sel_i).
  input  wire logic [1:0]            ev_sel_i,
  /// 1: val records of data addresses on the record stream.
  input  wire logic                  rap_val_i,
  // Program loading (core held in reset).
  /// Write one RAM word.
  input  wire logic                  load_we_i,
  /// Its word index.
  input  wire logic [MemAw-1:0]      load_addr_i,
  /// Its value.
  input  wire logic [31:0]           load_wdata_i,
  // Console and exit.
  /// A character was written to the UART (one cycle).
  output logic                       uart_valid_o,
  /// The character.
  output logic [7:0]                 uart_data_o,
  /// The console takes a character (else a UART store waits).
  input  wire logic                  uart_ready_i,
  /// The program wrote the exit register (sticky).
  output logic                       exit_valid_o,
  /// Its exit code.
  output logic [15:0]                exit_code_o,
  /// The core trapped (PicoRV32 trap output; sticky in the core).
  output logic                       core_trap_o,
  /// The memory has stopped answering (exit or trap).
  output logic                       stopped_o,
  // The record stream (branch records first, then val records).
  /// A record is offered.
  output logic                       rec_valid_o,
  /// It is taken.
  input  wire logic                  rec_ready_i,
  /// The record.
  output hwprof_board_pkg::board_rec_t rec_data_o,
  // RVFI probe (the ingress' input).
  /// rvfi_valid.
  output logic                       rvfi_valid_o,
  /// rvfi_order.
  output logic [63:0]                rvfi_order_o,
  /// rvfi_insn.
  output logic [31:0]                rvfi_insn_o,
  /// rvfi_trap.
  output logic                       rvfi_trap_o,
  /// rvfi_halt.
  output logic                       rvfi_halt_o,
  /// rvfi_intr.
  output logic                       rvfi_intr_o,
  /// rvfi_pc_rdata.
  output logic [31:0]                rvfi_pc_rdata_o,
  /// rvfi_pc_wdata.
  output logic [31:0]                rvfi_pc_wdata_o,
  /// rvfi_mem_rmask.
  output logic [3:0]                 rvfi_mem_rmask_o,
  /// rvfi_mem_wmask.
  output logic [3:0]                 rvfi_mem_wmask_o,
  /// rvfi_mem_addr.
  output logic [31:0]                rvfi_mem_addr_o,
  // Ingress ports (probes of the merge's inputs).
  /// The ingress offers a branch record.
  output logic                       br_valid_o,
  /// The merge takes it.
  output logic                       br_ready_o,
  /// The branch record.
  output hwprof_pkg::branch_rec_t    br_data_o,
  /// The ingress offers a val record.
  output logic                       val_valid_o,
  /// The merge takes it.
  output logic                       val_ready_o,
  /// Its data address.
  output logic [31:0]                val_data_o,
  // Ingress status.
  /// Retirements seen.
  output logic [31:0]                ing_retired_o,
  /// Records made.
  output logic [31:0]                ing_records_o,
  /// Records dropped (FIFO full).
  output logic [31:0]                ing_dropped_o,
  /// Trapping retirements.
  output logic [31:0]                ing_traps_o,
  /// Interrupt entries.
  output logic [31:0]                ing_intrs_o,
  /// Order gaps.
  output logic [31:0]                ing_order_gaps_o,
  /// rvfi_halt seen.
  output logic                       ing_halted_o,
  /// Val records made.
  output logic [31:0]                ing_vals_o,
  /// Val records dropped (val FIFO full).
  output logic [31:0]                ing_val_dropped_o,
  /// Cycles the memory held the core (a record waited, or the console).
  output logic [31:0]                hold_cycles_o
);

  // ------------------------------------------------------------------ core
  logic        mem_valid, mem_instr, mem_ready_q;
  logic [31:0] mem_addr, mem_wdata, mem_rdata;
  logic [3:0]  mem_wstrb;
  logic        trap;
  logic        core_resetn;

  // RVFI signals this SoC does not use.
  logic [1:0]  unused_mode, unused_ixl;
  logic [4:0]  unused_rs1_addr, unused_rs2_addr, unused_rd_addr;
  logic [31:0] unused_rs1_rdata, unused_rs2_rdata, unused_rd_wdata;
  logic [31:0] unused_mem_rdata, unused_mem_wdata;
  logic [63:0] unused_csr [8];
  logic        unused_la_read, unused_la_write;
  logic [31:0] unused_la_addr, unused_la_wdata, unused_pcpi_rs1, unused_pcpi_rs2, unused_eoi;
  logic [3:0]  unused_la_wstrb;
  logic        unused_pcpi_valid, unused_trace_valid, unused_mem_instr;
  logic [31:0] unused_pcpi_insn;
  logic [35:0] unused_trace_data;

  assign core_resetn = rst_ni && core_run_i;
  assign unused_mem_instr = mem_instr;

  picorv32 #(
    .PROGADDR_RESET(32'h8000_0000),
    .COMPRESSED_ISA(Rv32imc[0]),
    .ENABLE_MUL    (Rv32imc[0]),
    .ENABLE_DIV    (Rv32imc[0]),
    .BARREL_SHIFTER(1'b1),
    .ENABLE_IRQ    (1'b0)
  ) u_core (
    .clk           (clk_i),
    .resetn        (core_resetn),
    .trap          (trap),
    .mem_valid     (mem_valid),
    .mem_instr     (mem_instr),
    .mem_ready     (mem_ready_q),
    .mem_addr      (mem_addr),
    .mem_wdata     (mem_wdata),
    .mem_wstrb     (mem_wstrb),
    .mem_rdata     (mem_rdata),
    .mem_la_read   (unused_la_read),
    .mem_la_write  (unused_la_write),
    .mem_la_addr   (unused_la_addr),
    .mem_la_wdata  (unused_la_wdata),
    .mem_la_wstrb  (unused_la_wstrb),
    .pcpi_valid    (unused_pcpi_valid),
    .pcpi_insn     (unused_pcpi_insn),
    .pcpi_rs1      (unused_pcpi_rs1),
    .pcpi_rs2      (unused_pcpi_rs2),
    .pcpi_wr       (1'b0),
    .pcpi_rd       (32'd0),
    .pcpi_wait     (1'b0),
    .pcpi_ready    (1'b0),
    .irq           (32'd0),
    .eoi           (unused_eoi),
    .rvfi_valid    (rvfi_valid_o),
    .rvfi_order    (rvfi_order_o),
    .rvfi_insn     (rvfi_insn_o),
    .rvfi_trap     (rvfi_trap_o),
    .rvfi_halt     (rvfi_halt_o),
    .rvfi_intr     (rvfi_intr_o),
    .rvfi_mode     (unused_mode),
    .rvfi_ixl      (unused_ixl),
    .rvfi_rs1_addr (unused_rs1_addr),
    .rvfi_rs2_addr (unused_rs2_addr),
    .rvfi_rs1_rdata(unused_rs1_rdata),
    .rvfi_rs2_rdata(unused_rs2_rdata),
    .rvfi_rd_addr  (unused_rd_addr),
    .rvfi_rd_wdata (unused_rd_wdata),
    .rvfi_pc_rdata (rvfi_pc_rdata_o),
    .rvfi_pc_wdata (rvfi_pc_wdata_o),
    .rvfi_mem_addr (rvfi_mem_addr_o),
    .rvfi_mem_rmask(rvfi_mem_rmask_o),
    .rvfi_mem_wmask(rvfi_mem_wmask_o),
    .rvfi_mem_rdata(unused_mem_rdata),
    .rvfi_mem_wdata(unused_mem_wdata),
    .rvfi_csr_mcycle_rmask  (unused_csr[0]),
    .rvfi_csr_mcycle_wmask  (unused_csr[1]),
    .rvfi_csr_mcycle_rdata  (unused_csr[2]),
    .rvfi_csr_mcycle_wdata  (unused_csr[3]),
    .rvfi_csr_minstret_rmask(unused_csr[4]),
    .rvfi_csr_minstret_wmask(unused_csr[5]),
    .rvfi_csr_minstret_rdata(unused_csr[6]),
    .rvfi_csr_minstret_wdata(unused_csr[7]),
    .trace_valid   (unused_trace_valid),
    .trace_data    (unused_trace_data)
  );

  assign core_trap_o = trap;

  // ---------------------------------------------------------------- memory
  logic [31:0]      ram_q [MemWords];  // no reset: storage (block RAM)
  logic [31:0]      ram_rdata_q, io_rdata_q;
  logic             sel_ram, sel_uart, sel_exit, uart_store, stopped_q, sel_ram_q;
  logic             hold_q;  // a record waits: the memory answers nothing
  logic             answer;  // the memory answers the core's request at this edge
  logic [MemAw-1:0] ram_addr;
  logic [3:0]       ram_be;
  logic [31:0]      ram_wdata;

  assign sel_ram    = mem_addr[31:28] == 4'h8;
  assign sel_uart   = mem_addr[31:12] == 20'h10000;
  assign sel_exit   = mem_addr[31:2] == 30'(32'h0010_0000 >> 2);
  assign uart_store = sel_uart && mem_wstrb[0] && mem_addr[11:0] == 12'd0;
  assign answer     = mem_valid && !mem_ready_q && !stopped_q && !hold_q && !(uart_store && !uart_ready_i);
  assign stopped_o  = stopped_q;

  // One RAM port: the loader's while it writes (the core is in reset), else
  // the core's; read with enable (the answer), byte-wise write.
  assign ram_addr  = load_we_i ? load_addr_i : mem_addr[MemAw+1:2];
  assign ram_wdata = load_we_i ? load_wdata_i : mem_wdata;
  assign ram_be    = load_we_i ? 4'hf : ((answer && sel_ram) ? mem_wstrb : 4'h0);

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 4; b++)
      if (ram_be[b]) ram_q[ram_addr][8*b +: 8] <= ram_wdata[8*b +: 8];
    if (answer) ram_rdata_q <= ram_q[ram_addr];
  end

  assign mem_rdata = sel_ram_q ? ram_rdata_q : io_rdata_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_ready_q  <= 1'b0;
      sel_ram_q    <= 1'b0;
      io_rdata_q   <= '0;
      stopped_q    <= 1'b0;
      uart_valid_o <= 1'b0;
      uart_data_o  <= '0;
      exit_valid_o <= 1'b0;
      exit_code_o  <= '0;
    end else begin
      mem_ready_q  <= 1'b0;
      uart_valid_o <= 1'b0;
      if (trap) stopped_q <= 1'b1;
      if (answer) begin
        mem_ready_q <= 1'b1;
        sel_ram_q   <= sel_ram;
        io_rdata_q  <= sel_uart ? 32'h6060_6060 : 32'd0;
        if (uart_store) begin
          uart_valid_o <= 1'b1;
          uart_data_o  <= mem_wdata[7:0];
        end
        if (sel_exit && mem_wstrb != 4'd0 && (mem_wdata[15:0] == 16'h5555 || mem_wdata[15:0] == 16'h3333)) begin
          exit_valid_o <= 1'b1;
          exit_code_o  <= mem_wdata[15:0] == 16'h5555 ? 16'd0 : mem_wdata[31:16];
          stopped_q    <= 1'b1;
        end
      end
    end
  end

  // --------------------------------------------------------------- ingress
  hwprof_rvfi_ingress #(
    .Depth   (IngressDepth),
    .Nret    (1),
    .ValDepth(IngressValDepth)
  ) u_ingress (
    .clk_i,
    .rst_ni,
    .ev_sel_i,
    .val_en_i        (rap_val_i),
    .rvfi_valid_i    (rvfi_valid_o && core_resetn),
    .rvfi_order_i    (rvfi_order_o),
    .rvfi_insn_i     (rvfi_insn_o),
    .rvfi_trap_i     (rvfi_trap_o),
    .rvfi_halt_i     (rvfi_halt_o),
    .rvfi_intr_i     (rvfi_intr_o),
    .rvfi_pc_rdata_i (rvfi_pc_rdata_o),
    .rvfi_pc_wdata_i (rvfi_pc_wdata_o),
    .rvfi_mem_rmask_i(rvfi_mem_rmask_o),
    .rvfi_mem_wmask_i(rvfi_mem_wmask_o),
    .rvfi_mem_addr_i (rvfi_mem_addr_o),
    .event_i         (1'b0),
    .out_valid_o     (br_valid_o),
    .out_ready_i     (br_ready_o),
    .out_data_o      (br_data_o),
    .val_valid_o,
    .val_ready_i     (val_ready_o),
    .val_data_o,
    .retired_o       (ing_retired_o),
    .records_o       (ing_records_o),
    .dropped_o       (ing_dropped_o),
    .traps_o         (ing_traps_o),
    .intrs_o         (ing_intrs_o),
    .order_gaps_o    (ing_order_gaps_o),
    .vals_o          (ing_vals_o),
    .val_dropped_o   (ing_val_dropped_o),
    .halted_o        (ing_halted_o)
  );

  // The memory hold below keeps the val FIFO from overflowing.
  `HWPROF_ASSERT(val_none_dropped, ing_val_dropped_o == '0)

  // ------------------------------------------------------------------ merge
  // A branch record first; a val record when no branch record waits.
  logic m_is_val;
  assign m_is_val    = !br_valid_o;
  assign rec_valid_o = br_valid_o || val_valid_o;
  assign br_ready_o  = rec_ready_i && !m_is_val;
  assign val_ready_o = rec_ready_i && m_is_val;
  always_comb begin
    rec_data_o        = '0;
    rec_data_o.is_val = m_is_val;
    rec_data_o.br     = br_data_o;
    rec_data_o.value  = val_data_o;
    rec_data_o.weight = 16'd1;
  end

  // Hold the memory while a record waits for a unit, or a val record waits
  // behind a branch record (then the val FIFO may fill: it is drained only
  // when no branch record is offered).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_q        <= 1'b0;
      hold_cycles_o <= '0;
    end else begin
      hold_q <= (rec_valid_o && !rec_ready_i) || (val_valid_o && br_valid_o);
      if ((hold_q || (uart_store && !uart_ready_i)) && mem_valid && !mem_ready_q && !stopped_q &&
          hold_cycles_o != '1)
        hold_cycles_o <= hold_cycles_o + 32'd1;
    end
  end

endmodule

`default_nettype wire
