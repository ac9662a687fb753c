/// hwprof_soc_top: a small simulation SoC around PicoRV32 (from the PyPI
/// package pythondata-cpu-picorv32, compiled with RISCV_FORMAL for its RVFI
/// port) with the RVFI ingress and every hwprof unit beside its retire stage
/// (docs/soc.md): the path profiler, the RAP engine, the DCR tracker and the
/// BBV phase detector (hwprof_board_units, fed through hwprof_board_fanout as
/// the board shell feeds them).
///
///   picorv32 --rvfi--> hwprof_rvfi_ingress --branch records---------------+
///                                          --val records (rap_val_i)------+--> merge -> hwprof_board_fanout
///                                                                             -> hwprof_board_units (path, RAP, DCR, BBV)
///
/// The core, its memory (map of qemu's `virt` machine), the ingress, the
/// merge of its two ports and the memory hold that keeps the ingress FIFOs
/// from overflowing are rtl/soc/hwprof_soc_cpu.sv, shared with the board
/// build (hwprof_board_soc); this top adds the fan-out and the units and
/// exposes the probes the harness compares every cycle. With rap_val_i the
/// RAP engine takes the val records (its value profile) and no branch
/// records; without, no val records are made and it takes the code profile
/// of the branch records (as the board units do). The console is never
/// full here (uart_ready_i = 1).
/// The core is held in reset while core_run_i is low; the ingress and the
/// units reset with rst_ni only, so their registers can be programmed
/// before the core runs and read after it stopped. Unit ports: those of
/// hwprof_board_units (unit 0 path, 1 RAP, 2 DCR, 3 BBV).
`default_nettype none

`include "hwprof_assert.svh"

module hwprof_soc_top #(
  /// RAM size in 32-bit words.
  parameter int unsigned MemWords = 32768,
  /// 1: PicoRV32 with the M and C extensions (ENABLE_MUL, ENABLE_DIV,
  /// COMPRESSED_ISA: RV32IMC); 0: RV32I.
  parameter int unsigned Rv32imc = 0,
  /// Records the ingress FIFO holds.
  parameter int unsigned IngressDepth = 8,
  /// Val records the ingress' val FIFO holds.
  parameter int unsigned IngressValDepth = 4,
  /// Path profiler: branch queue depth.
  parameter int unsigned QueueDepth = 4,
  /// Path profiler: path stack entries.
  parameter int unsigned Depth = 16,
  /// Path profiler: branches per path.
  parameter int unsigned MaxLen = 32,
  /// Path profiler: HPT sets.
  parameter int unsigned Sets = 128,
  /// Path profiler: HPT ways.
  parameter int unsigned Ways = 4,
  /// Units (path, RAP, DCR, BBV).
  localparam int unsigned NUnits = 4,
  /// Bits of a dump / result entry slot (hwprof_board_units: 27 bytes).
  localparam int unsigned EntW = 27 * 8,
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
  /// 1: val records of data addresses to the RAP engine (its value
  /// profile); 0: the RAP engine takes the branch records' code profile.
  input  wire logic                  rap_val_i,
  // Program loading (core held in reset).
  /// Write one RAM word.
  input  wire logic                  load_we_i,
  /// Its word index.
  input  wire logic [MemAw-1:0]      load_addr_i,
  /// Its value.
  input  wire logic [31:0]           load_wdata_i,
  // Console and exit.
  /// A character was written to the UART.
  output logic                       uart_valid_o,
  /// The character.
  output logic [7:0]                 uart_data_o,
  /// The program wrote the exit register (sticky).
  output logic                       exit_valid_o,
  /// Its exit code.
  output logic [15:0]                exit_code_o,
  /// The core trapped (PicoRV32 trap output; sticky in the core).
  output logic                       core_trap_o,
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
  // Record probe (ingress -> fan-out).
  /// The ingress offers a record.
  output logic                       rec_valid_o,
  /// Every unit has taken it.
  output logic                       rec_ready_o,
  /// The record.
  output hwprof_pkg::branch_rec_t    rec_data_o,
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
  // Val record probe (ingress val port -> merge).
  /// The ingress offers a val record.
  output logic                       val_valid_o,
  /// The merge takes it.
  output logic                       val_ready_o,
  /// Its data address.
  output logic [31:0]                val_data_o,
  /// A val record entered the merge (taken by the RAP engine).
  output logic                       val_taken_o,
  /// Cycles the memory held the core because a record waited.
  output logic [31:0]                hold_cycles_o,
  // The units (hwprof_board_units ports; unit 0 path, 1 RAP, 2 DCR, 3 BBV).
  /// Per unit register write strobe.
  input  wire logic [NUnits-1:0]     csr_we_i,
  /// Register address.
  input  wire logic [7:0]            csr_addr_i,
  /// Register write data.
  input  wire logic [31:0]           csr_wdata_i,
  /// Per unit register read data.
  output logic [NUnits*32-1:0]       csr_rdata_o,
  /// Per unit: start a dump.
  input  wire logic [NUnits-1:0]     dump_start_i,
  /// Per unit: a dump entry is offered.
  output logic [NUnits-1:0]          dump_valid_o,
  /// Per unit: taken.
  input  wire logic [NUnits-1:0]     dump_ready_i,
  /// Per unit: the dump is running.
  output logic [NUnits-1:0]          dump_busy_o,
  /// Per unit dump entry.
  output logic [NUnits*EntW-1:0]     dump_data_o,
  /// Per unit: a result is offered.
  output logic [NUnits-1:0]          res_valid_o,
  /// Per unit: taken.
  input  wire logic [NUnits-1:0]     res_ready_i,
  /// Per unit result entry.
  output logic [NUnits*EntW-1:0]     res_data_o
);

  // ------------------------------------------------- core, memory, ingress
  hwprof_board_pkg::board_rec_t mrec;
  logic m_valid, m_ready;
  logic unused_stopped;

  hwprof_soc_cpu #(
    .MemWords       (MemWords),
    .Rv32imc        (Rv32imc),
    .IngressDepth   (IngressDepth),
    .IngressValDepth(IngressValDepth)
  ) u_cpu (
    .clk_i,
    .rst_ni,
    .core_run_i,
    .ev_sel_i,
    .rap_val_i,
    .load_we_i,
    .load_addr_i,
    .load_wdata_i,
    .uart_valid_o,
    .uart_data_o,
    .uart_ready_i     (1'b1),
    .exit_valid_o,
    .exit_code_o,
    .core_trap_o,
    .stopped_o        (unused_stopped),
    .rec_valid_o      (m_valid),
    .rec_ready_i      (m_ready),
    .rec_data_o       (mrec),
    .rvfi_valid_o,
    .rvfi_order_o,
    .rvfi_insn_o,
    .rvfi_trap_o,
    .rvfi_halt_o,
    .rvfi_intr_o,
    .rvfi_pc_rdata_o,
    .rvfi_pc_wdata_o,
    .rvfi_mem_rmask_o,
    .rvfi_mem_wmask_o,
    .rvfi_mem_addr_o,
    .br_valid_o       (rec_valid_o),
    .br_ready_o       (rec_ready_o),
    .br_data_o        (rec_data_o),
    .val_valid_o,
    .val_ready_o,
    .val_data_o,
    .ing_retired_o,
    .ing_records_o,
    .ing_dropped_o,
    .ing_traps_o,
    .ing_intrs_o,
    .ing_order_gaps_o,
    .ing_halted_o,
    .ing_vals_o,
    .ing_val_dropped_o,
    .hold_cycles_o
  );

  assign val_taken_o = val_ready_o && val_valid_o;

  // ---------------------------------------------------------------- fan-out
  // Units 0 path, 1 RAP, 2 DCR, 3 BBV. With rap_val_i the RAP engine's
  // branch records are masked (taken at once, never offered).
  localparam int unsigned IRap = 1;
  logic [NUnits-1:0] f_valid, f_ready, u_valid, u_ready;
  logic              rap_masked;

  hwprof_board_fanout #(
    .NUnits     (NUnits),
    .TakesBranch(4'b1111),
    .TakesVal   (4'b0010)
  ) u_fanout (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (m_valid),
    .in_ready_o  (m_ready),
    .in_is_val_i (mrec.is_val),
    .unit_valid_o(f_valid),
    .unit_ready_i(f_ready)
  );

  assign rap_masked = rap_val_i && !mrec.is_val;
  always_comb begin
    u_valid = f_valid;
    f_ready = u_ready;
    if (rap_masked) begin
      u_valid[IRap] = 1'b0;
      f_ready[IRap] = 1'b1;
    end
  end

  // ------------------------------------------------------------------ units
  hwprof_board_units #(
    .EnPath    (1),
    .EnRap     (1),
    .EnDcr     (1),
    .EnBbv     (1),
    .PathQueue (QueueDepth),
    .PathDepth (Depth),
    .PathMaxLen(MaxLen),
    .PathSets  (Sets),
    .PathWays  (Ways)
  ) u_units (
    .clk_i,
    .rst_ni,
    .rec_valid_i (u_valid),
    .rec_ready_o (u_ready),
    .rec_data_i  (mrec),
    .csr_we_i,
    .csr_addr_i,
    .csr_wdata_i,
    .csr_rdata_o,
    .dump_start_i,
    .dump_valid_o,
    .dump_ready_i,
    .dump_busy_o,
    .dump_data_o,
    .res_valid_o,
    .res_ready_i,
    .res_data_o
  );

endmodule

`default_nettype wire
