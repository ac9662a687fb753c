/// hwprof_soc_unit: the SoC of a board build as a unit behind the board
/// shell (docs/soc.md, "The SoC on a board"): hwprof_soc_cpu (PicoRV32, its
/// RAM, the RVFI ingress, the merge) with a register port
/// (hwprof_soc_reg_pkg, from data/regs/soc.json) that loads the program into
/// the RAM, releases the core, gives its console output and its counters.
/// The record stream (rec_*) goes to the shell's fan-out (hwprof_board_core
/// ExtUnit). Console: the program's UART characters enter a FIFO of
/// ConsoleDepth characters that the host reads through CONSOLE; when it is
/// full the program's next UART store waits (hwprof_soc_cpu uart_ready_i),
/// so no character is lost. Register writes take effect at the edge; reads
/// are combinational of csr_addr_i.
`default_nettype none

`include "hwprof_assert.svh"

module hwprof_soc_unit #(
  /// RAM size in 32-bit words (power of two).
  parameter int unsigned MemWords = 32768,
  /// 1: RV32IMC core; 0: RV32I.
  parameter int unsigned Rv32imc = 0,
  /// Records the ingress FIFO holds.
  parameter int unsigned IngressDepth = 8,
  /// Val records the ingress' val FIFO holds.
  parameter int unsigned IngressValDepth = 4,
  /// Console characters held for the host (>= 2).
  parameter int unsigned ConsoleDepth = 16
) (
  /// Clock.
  input  wire logic                  clk_i,
  /// Asynchronous reset, active low (the board reset or OPEN).
  input  wire logic                  rst_ni,
  /// Register write strobe.
  input  wire logic                  csr_we_i,
  /// Register address (word; upper bits ignored).
  input  wire logic [7:0]            csr_addr_i,
  /// Register write data.
  input  wire logic [31:0]           csr_wdata_i,
  /// Register read data (of csr_addr_i).
  output logic [31:0]                csr_rdata_o,
  /// A record is offered to the units.
  output logic                       rec_valid_o,
  /// Every unit has taken it.
  input  wire logic                  rec_ready_i,
  /// The record.
  output hwprof_board_pkg::board_rec_t rec_data_o
);

  import hwprof_soc_reg_pkg::*;

  localparam int unsigned MemAw = $clog2(MemWords);

  `HWPROF_ASSERT_INIT(params_legal, MemWords >= 2 && (1 << MemAw) == MemWords && ConsoleDepth >= 2 &&
                                    ConsoleDepth <= 255 && Rv32imc <= 1)

  logic [SocAddrW-1:0] addr;
  logic                run_q, rap_val_q, err_q;
  logic [1:0]          ev_sel_q;
  logic [MemAw-1:0]    load_addr_q;
  logic [31:0]         cycles_q;
  logic [3:0]          quiet_q;
  logic                load_we, con_pop;
  // hwprof_soc_cpu
  logic                uart_valid, uart_ready, exit_valid, core_trap, stopped;
  logic [7:0]          uart_data;
  logic [15:0]         exit_code;
  logic [31:0]         retired, records, dropped, vals, val_dropped, hold_cycles;
  // console FIFO
  logic                con_valid;
  logic [7:0]          con_char;

  // Probes of hwprof_soc_cpu the board does not use (the simulated SoC's
  // harness does).
  logic unused_rvfi_valid;
  logic [63:0] unused_rvfi_order;
  logic [31:0] unused_rvfi_insn;
  logic unused_rvfi_trap;
  logic unused_rvfi_halt;
  logic unused_rvfi_intr;
  logic [31:0] unused_rvfi_pc_rdata;
  logic [31:0] unused_rvfi_pc_wdata;
  logic [3:0] unused_rvfi_mem_rmask;
  logic [3:0] unused_rvfi_mem_wmask;
  logic [31:0] unused_rvfi_mem_addr;
  logic unused_br_valid;
  logic unused_br_ready;
  logic unused_val_valid;
  logic unused_val_ready;
  logic [31:0] unused_val_data;
  logic [31:0] unused_ing_traps;
  logic [31:0] unused_ing_intrs;
  logic [31:0] unused_ing_order_gaps;
  logic unused_ing_halted;
  hwprof_pkg::branch_rec_t unused_br_data;
  logic [$clog2(ConsoleDepth+1)-1:0] unused_con_count;
  logic [7:SocAddrW] unused_addr;
  assign unused_addr = csr_addr_i[7:SocAddrW];

  assign addr    = csr_addr_i[SocAddrW-1:0];
  assign load_we = csr_we_i && addr == SocAddrLoadData && !run_q;
  assign con_pop = csr_we_i && addr == SocAddrConsole;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q       <= 1'b0;
      ev_sel_q    <= '0;
      rap_val_q   <= 1'b0;
      err_q       <= 1'b0;
      load_addr_q <= '0;
      cycles_q    <= '0;
      quiet_q     <= '0;
    end else begin
      if (csr_we_i) begin
        unique case (addr)
          SocAddrCtrl: begin
            run_q     <= csr_wdata_i[SocCtrlRunBit];
            ev_sel_q  <= csr_wdata_i[SocCtrlEvSelLsb +: SocCtrlEvSelW];
            rap_val_q <= csr_wdata_i[SocCtrlRapValBit];
            err_q     <= 1'b0;
          end
          SocAddrLoadAddr: load_addr_q <= csr_wdata_i[MemAw-1:0];
          SocAddrLoadData: begin
            if (run_q) err_q <= 1'b1;
            else       load_addr_q <= load_addr_q + 1'b1;
          end
          default: ;
        endcase
      end
      if (run_q && !stopped && cycles_q != '1) cycles_q <= cycles_q + 32'd1;
      if (!stopped)          quiet_q <= '0;
      else if (quiet_q != '1) quiet_q <= quiet_q + 4'd1;
    end
  end

  hwprof_soc_cpu #(
    .MemWords       (MemWords),
    .Rv32imc        (Rv32imc),
    .IngressDepth   (IngressDepth),
    .IngressValDepth(IngressValDepth)
  ) u_cpu (
    .clk_i,
    .rst_ni,
    .core_run_i       (run_q),
    .ev_sel_i         (ev_sel_q),
    .rap_val_i        (rap_val_q),
    .load_we_i        (load_we),
    .load_addr_i      (load_addr_q),
    .load_wdata_i     (csr_wdata_i),
    .uart_valid_o     (uart_valid),
    .uart_data_o      (uart_data),
    .uart_ready_i     (uart_ready),
    .exit_valid_o     (exit_valid),
    .exit_code_o      (exit_code),
    .core_trap_o      (core_trap),
    .stopped_o        (stopped),
    .rec_valid_o,
    .rec_ready_i,
    .rec_data_o,
    .rvfi_valid_o     (unused_rvfi_valid),
    .rvfi_order_o     (unused_rvfi_order),
    .rvfi_insn_o      (unused_rvfi_insn),
    .rvfi_trap_o      (unused_rvfi_trap),
    .rvfi_halt_o      (unused_rvfi_halt),
    .rvfi_intr_o      (unused_rvfi_intr),
    .rvfi_pc_rdata_o  (unused_rvfi_pc_rdata),
    .rvfi_pc_wdata_o  (unused_rvfi_pc_wdata),
    .rvfi_mem_rmask_o (unused_rvfi_mem_rmask),
    .rvfi_mem_wmask_o (unused_rvfi_mem_wmask),
    .rvfi_mem_addr_o  (unused_rvfi_mem_addr),
    .br_valid_o       (unused_br_valid),
    .br_ready_o       (unused_br_ready),
    .br_data_o        (unused_br_data),
    .val_valid_o      (unused_val_valid),
    .val_ready_o      (unused_val_ready),
    .val_data_o       (unused_val_data),
    .ing_retired_o    (retired),
    .ing_records_o    (records),
    .ing_dropped_o    (dropped),
    .ing_traps_o      (unused_ing_traps),
    .ing_intrs_o      (unused_ing_intrs),
    .ing_order_gaps_o (unused_ing_order_gaps),
    .ing_halted_o     (unused_ing_halted),
    .ing_vals_o       (vals),
    .ing_val_dropped_o(val_dropped),
    .hold_cycles_o    (hold_cycles)
  );

  // The console. A UART store is answered only with room in the FIFO, and
  // its character arrives one clock later, before the next store can be
  // answered: the push is never refused.
  logic con_in_ready;
  hwprof_fifo_sync #(
    .Width(8),
    .Depth(ConsoleDepth)
  ) u_console (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (uart_valid),
    .in_ready_o (con_in_ready),
    .in_data_i  (uart_data),
    .out_valid_o(con_valid),
    .out_ready_i(con_pop),
    .out_data_o (con_char),
    .count_o    (unused_con_count)
  );
  assign uart_ready = con_in_ready;
  `HWPROF_ASSERT(console_never_full_on_push, uart_valid |-> con_in_ready)

  always_comb begin
    csr_rdata_o = '0;
    unique case (addr)
      SocAddrCtrl: begin
        csr_rdata_o[SocCtrlRunBit]                   = run_q;
        csr_rdata_o[SocCtrlEvSelLsb +: SocCtrlEvSelW] = ev_sel_q;
        csr_rdata_o[SocCtrlRapValBit]                = rap_val_q;
      end
      SocAddrStatus: begin
        csr_rdata_o[SocStatusRunningBit] = run_q && !stopped;
        csr_rdata_o[SocStatusExitedBit]  = exit_valid;
        csr_rdata_o[SocStatusTrapBit]    = core_trap;
        csr_rdata_o[SocStatusDrainedBit] = stopped && quiet_q == '1 && !rec_valid_o;
        csr_rdata_o[SocStatusConsoleBit] = con_valid;
        csr_rdata_o[SocStatusErrBit]     = err_q;
        csr_rdata_o[SocStatusExitCodeLsb +: SocStatusExitCodeW] = exit_code;
      end
      SocAddrLoadAddr: csr_rdata_o[MemAw-1:0] = load_addr_q;
      SocAddrConsole: begin
        csr_rdata_o[SocConsoleCharLsb +: SocConsoleCharW] = con_char;
        csr_rdata_o[SocConsoleValidBit]                   = con_valid;
      end
      SocAddrCycles:     csr_rdata_o = cycles_q;
      SocAddrRetired:    csr_rdata_o = retired;
      SocAddrRecords:    csr_rdata_o = records;
      SocAddrDropped:    csr_rdata_o = dropped;
      SocAddrVals:       csr_rdata_o = vals;
      SocAddrValDropped: csr_rdata_o = val_dropped;
      SocAddrHoldCycles: csr_rdata_o = hold_cycles;
      SocAddrParams: begin
        csr_rdata_o[SocParamsMemWordsLgLsb +: SocParamsMemWordsLgW]     = 8'(MemAw);
        csr_rdata_o[SocParamsRv32imcBit]                               = Rv32imc[0];
        csr_rdata_o[SocParamsConsoleDepthLsb +: SocParamsConsoleDepthW] = 8'(ConsoleDepth);
      end
      default: ;
    endcase
  end

endmodule

`default_nettype wire
