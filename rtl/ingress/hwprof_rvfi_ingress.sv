/// hwprof_rvfi_ingress: turns the retirements of a RISC-V core, as reported on
/// the RISC-V Formal Interface (RVFI, NRET = 1, XLEN = 32), into hwprof branch
/// records (hwprof_pkg::branch_rec_t) for the profiling units. docs/soc.md has
/// the full mapping; model: sim_models/ingress/rvfi_ingress.{h,cpp}.
///
/// Per retirement (rvfi_valid_i), decoded combinationally from rvfi_insn_i:
///   * BRANCH (beq..bgeu) and C.BEQZ/C.BNEZ -> br; target = pc + immediate,
///     taken = (rvfi_pc_wdata_i == target).
///   * JAL / C.J / C.JAL -> call when rd is x1 or x5 (C.JAL links x1), else
///     jmp; target = pc + immediate; taken.
///   * JALR / C.JR / C.JALR -> by the return-address-stack hints of the
///     unprivileged spec (Table "return-address stack prediction hints"):
///     rd in {x1,x5} -> icall (push, or pop-then-push); rd not a link and rs1
///     in {x1,x5} -> ret (pop); neither -> ijmp. target = rvfi_pc_wdata_i.
///   * ilen = 2 for a compressed encoding (insn[1:0] != 2'b11), else 4.
///   * insns = instructions retired since the previous record, this one
///     included, saturating at 2^InsnsW - 1; events = retirements since the
///     previous record (this one included) that match ev_sel_i, saturating at
///     2^EventsW - 1: 0 loads or stores (mem_rmask | mem_wmask != 0), 1 loads,
///     2 stores, 3 the core's event_i qualifying the retirement.
///   * A trapping retirement (rvfi_trap_i) never makes a record, even when it
///     is a branch (its next pc is the trap handler's); it is counted in
///     insns / events and in traps_o. rvfi_intr_i (first instruction of a
///     handler) is decoded as usual and counted in intrs_o: the discontinuity
///     into the handler is not a record (documented in docs/soc.md).
///   * rvfi_halt_i sets halted_o (sticky until reset).
///   * rvfi_order_i: a retirement whose order is not the previous one plus 1
///     counts in order_gaps_o (the first after reset is not checked).
///
/// Pipeline: s1 registers the decoded retirement (kind, pc + immediate, next
/// pc, the event flag under ev_sel_i of that cycle); s2 compares next pc and
/// target (taken), counts insns / events and writes the FIFO. Output and
/// overflow: a record enters a hwprof_fifo_sync of Depth entries in the edge
/// that ends s2, one clock after its retirement cycle (out_valid_o two clocks
/// after it at the earliest; status counters one clock after it). RVFI cannot stall the core, so a record arriving while the FIFO
/// is full (in_ready, registered: count != Depth) is dropped and counted in
/// dropped_o; records_o counts every record made, delivered or dropped. The
/// insns / events of a dropped record are lost with it (the next record
/// counts from the dropped one). Counters saturate at 2^32 - 1.
/// Throughput: one retirement per clock; the FIFO sustains one record per
/// clock (Depth >= 2).
/// Reset: asynchronous on every counter and on the FIFO's control state.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rvfi_ingress #(
  /// Records the output FIFO holds (>= 2 for one record per clock).
  parameter int unsigned Depth = 4
) (
  /// Clock (the core's).
  input  wire logic                    clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                    rst_ni,
  // Configuration.
  /// Event selection: 0 loads and stores, 1 loads, 2 stores, 3 event_i.
  input  wire logic [1:0]              ev_sel_i,
  // RVFI, one retirement per clock at most (NRET = 1).
  /// A retirement is reported.
  input  wire logic                    rvfi_valid_i,
  /// Its index in program order.
  input  wire logic [63:0]             rvfi_order_i,
  /// The instruction word (a compressed one in bits 15:0).
  input  wire logic [31:0]             rvfi_insn_i,
  /// The instruction trapped.
  input  wire logic                    rvfi_trap_i,
  /// The last instruction before the core halts.
  input  wire logic                    rvfi_halt_i,
  /// The first instruction of a trap handler.
  input  wire logic                    rvfi_intr_i,
  /// Its address.
  input  wire logic [31:0]             rvfi_pc_rdata_i,
  /// The address of the next instruction.
  input  wire logic [31:0]             rvfi_pc_wdata_i,
  /// Bytes read (one bit per byte lane).
  input  wire logic [3:0]              rvfi_mem_rmask_i,
  /// Bytes written (one bit per byte lane).
  input  wire logic [3:0]              rvfi_mem_wmask_i,
  /// Core event qualifying this retirement (ev_sel_i = 3).
  input  wire logic                    event_i,
  // Branch records.
  /// A record is offered (the FIFO holds one).
  output logic                         out_valid_o,
  /// The consumer takes it at the edge.
  input  wire logic                    out_ready_i,
  /// The oldest record.
  output hwprof_pkg::branch_rec_t      out_data_o,
  // Status (saturating counters).
  /// Retirements seen.
  output logic [31:0]                  retired_o,
  /// Records made (delivered or dropped).
  output logic [31:0]                  records_o,
  /// Records dropped because the FIFO was full.
  output logic [31:0]                  dropped_o,
  /// Trapping retirements.
  output logic [31:0]                  traps_o,
  /// Retirements with rvfi_intr.
  output logic [31:0]                  intrs_o,
  /// Retirements whose order did not follow the previous one.
  output logic [31:0]                  order_gaps_o,
  /// A retirement with rvfi_halt was seen.
  output logic                         halted_o
);

  import hwprof_pkg::*;

  `HWPROF_ASSERT_INIT(params_legal, Depth >= 1)

  // ---------------------------------------------------------------- decode
  logic        is_c;        // compressed encoding
  logic [6:0]  opcode;
  logic [4:0]  rd, rs1;
  logic [31:0] imm_b, imm_j, imm_cj, imm_cb;
  logic        rd_link, rs1_link;
  logic        c_j, c_jal, c_jr, c_jalr, c_bz;
  logic        ctl;         // a control-transfer instruction
  kind_e       kind;
  logic [31:0] target;
  logic        taken;

  assign is_c   = rvfi_insn_i[1:0] != 2'b11;
  assign opcode = rvfi_insn_i[6:0];
  assign rd     = rvfi_insn_i[11:7];
  assign rs1    = rvfi_insn_i[19:15];
  assign imm_b  = {{20{rvfi_insn_i[31]}}, rvfi_insn_i[7], rvfi_insn_i[30:25], rvfi_insn_i[11:8], 1'b0};
  assign imm_j  = {{12{rvfi_insn_i[31]}}, rvfi_insn_i[19:12], rvfi_insn_i[20], rvfi_insn_i[30:21], 1'b0};
  // CJ format: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2.
  assign imm_cj = {{21{rvfi_insn_i[12]}}, rvfi_insn_i[8], rvfi_insn_i[10:9], rvfi_insn_i[6], rvfi_insn_i[7],
                   rvfi_insn_i[2], rvfi_insn_i[11], rvfi_insn_i[5:3], 1'b0};
  // CB format: offset[8|4:3] in bits 12:10, offset[7:6|2:1|5] in bits 6:2.
  assign imm_cb = {{24{rvfi_insn_i[12]}}, rvfi_insn_i[6:5], rvfi_insn_i[2], rvfi_insn_i[11:10],
                   rvfi_insn_i[4:3], 1'b0};
  // x1 (ra) and x5 (t0) are the link registers of the hints.
  assign rd_link  = (rd == 5'd1) || (rd == 5'd5);
  assign rs1_link = (rs1 == 5'd1) || (rs1 == 5'd5);
  // Compressed control transfers (RV32C): quadrant 01 funct3 101 C.J,
  // 001 C.JAL, 110/111 C.BEQZ/C.BNEZ; quadrant 10 funct4 1000 C.JR, 1001
  // C.JALR (rs1 != 0, rs2 == 0).
  assign c_j    = rvfi_insn_i[1:0] == 2'b01 && rvfi_insn_i[15:13] == 3'b101;
  assign c_jal  = rvfi_insn_i[1:0] == 2'b01 && rvfi_insn_i[15:13] == 3'b001;
  assign c_bz   = rvfi_insn_i[1:0] == 2'b01 && rvfi_insn_i[15:14] == 2'b11;
  assign c_jr   = rvfi_insn_i[1:0] == 2'b10 && rvfi_insn_i[15:12] == 4'b1000 && rvfi_insn_i[11:7] != 5'd0 &&
                  rvfi_insn_i[6:2] == 5'd0;
  assign c_jalr = rvfi_insn_i[1:0] == 2'b10 && rvfi_insn_i[15:12] == 4'b1001 && rvfi_insn_i[11:7] != 5'd0 &&
                  rvfi_insn_i[6:2] == 5'd0;

  always_comb begin
    ctl    = 1'b0;
    kind   = KindBr;
    target = rvfi_pc_wdata_i;
    if (!is_c) begin
      unique case (opcode)
        7'b1100011: begin  // BRANCH
          ctl    = 1'b1;
          kind   = KindBr;
          target = rvfi_pc_rdata_i + imm_b;
        end
        7'b1101111: begin  // JAL
          ctl    = 1'b1;
          kind   = rd_link ? KindCall : KindJmp;
          target = rvfi_pc_rdata_i + imm_j;
        end
        7'b1100111: begin  // JALR
          ctl    = 1'b1;
          kind   = rd_link ? KindIcall : (rs1_link ? KindRet : KindIjmp);
        end
        default: ;
      endcase
    end else if (c_j || c_jal) begin
      ctl    = 1'b1;
      kind   = c_jal ? KindCall : KindJmp;
      target = rvfi_pc_rdata_i + imm_cj;
    end else if (c_bz) begin
      ctl    = 1'b1;
      kind   = KindBr;
      target = rvfi_pc_rdata_i + imm_cb;
    end else if (c_jalr) begin  // jalr x1, 0(rs1)
      ctl    = 1'b1;
      kind   = KindIcall;
    end else if (c_jr) begin  // jalr x0, 0(rs1): rs1 in bits 11:7
      ctl    = 1'b1;
      kind   = (rvfi_insn_i[11:7] == 5'd1 || rvfi_insn_i[11:7] == 5'd5) ? KindRet : KindIjmp;
    end
  end

  // ---------------------------------------------------------- stage s1
  // The decoded retirement is registered before the taken compare, the
  // counts and the FIFO (s2): the immediate adder and the 32-bit compare are
  // in different clock cycles. Data registers have no reset (only s1_valid_q).
  logic                ev;
  logic                s1_valid_q, s1_ctl_q, s1_trap_q, s1_intr_q, s1_halt_q, s1_ev_q, s1_is_c_q;
  kind_e               s1_kind_q;
  logic [31:0]         s1_pc_q, s1_target_q, s1_next_q;
  logic                s1_gap_q;      // this retirement's order does not follow the previous one
  logic [63:0]         order_next_q;  // the order expected next (s1 side)
  logic                order_seen_q;

  always_comb begin
    unique case (ev_sel_i)
      2'd0:    ev = (rvfi_mem_rmask_i | rvfi_mem_wmask_i) != 4'd0;
      2'd1:    ev = rvfi_mem_rmask_i != 4'd0;
      2'd2:    ev = rvfi_mem_wmask_i != 4'd0;
      default: ev = event_i;
    endcase
  end

  // The order check is made in s1 (the 64-bit compare), counted in s2.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q   <= 1'b0;
      s1_gap_q     <= 1'b0;
      order_next_q <= '0;
      order_seen_q <= 1'b0;
    end else begin
      s1_valid_q <= rvfi_valid_i;
      s1_gap_q   <= rvfi_valid_i && order_seen_q && rvfi_order_i != order_next_q;
      if (rvfi_valid_i) begin
        order_next_q <= rvfi_order_i + 64'd1;
        order_seen_q <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    s1_ctl_q    <= ctl;
    s1_trap_q   <= rvfi_trap_i;
    s1_intr_q   <= rvfi_intr_i;
    s1_halt_q   <= rvfi_halt_i;
    s1_ev_q     <= ev;
    s1_is_c_q   <= is_c;
    s1_kind_q   <= kind;
    s1_pc_q     <= rvfi_pc_rdata_i;
    s1_target_q <= target;
    s1_next_q   <= rvfi_pc_wdata_i;
  end

  // ---------------------------------------------- stage s2: counts, record
  logic [InsnsW-1:0]   insns_q, insns_d, insns_n;
  logic [EventsW-1:0]  events_q, events_d, events_n;
  logic                make;     // this retirement makes a record
  branch_rec_t         rec;

  assign taken    = (s1_kind_q != KindBr) || (s1_next_q == s1_target_q);
  assign insns_n  = InsnsW'(hwprof_prim_pkg::sat_inc(64'(insns_q), InsnsW));
  assign events_n = EventsW'(hwprof_prim_pkg::sat_add(64'(events_q), 64'(s1_ev_q), EventsW));
  assign make     = s1_valid_q && s1_ctl_q && !s1_trap_q;

  always_comb begin
    insns_d  = insns_q;
    events_d = events_q;
    if (s1_valid_q) begin
      insns_d  = make ? '0 : insns_n;
      events_d = make ? '0 : events_n;
    end
  end

  assign rec.kind   = s1_kind_q;
  assign rec.pc     = s1_pc_q;
  assign rec.target = s1_target_q;
  assign rec.taken  = taken;
  assign rec.ilen   = s1_is_c_q ? 4'd2 : 4'd4;
  assign rec.insns  = insns_n;
  assign rec.events = events_n;

  // ------------------------------------------------------------ the FIFO
  logic                       fifo_ready;
  logic [$clog2(Depth+1)-1:0] unused_count;  // occupancy: not needed

  hwprof_fifo_sync #(
    .Width(BranchRecW),
    .Depth(Depth)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (make),
    .in_ready_o (fifo_ready),
    .in_data_i  (rec),
    .out_valid_o,
    .out_ready_i,
    .out_data_o,
    .count_o    (unused_count)
  );

  // ---------------------------------------------------------------- status
  logic [31:0] retired_q, records_q, dropped_q, traps_q, intrs_q, order_gaps_q;
  logic        halted_q;

  function automatic logic [31:0] inc32(logic [31:0] v, logic en);
    inc32 = 32'(hwprof_prim_pkg::sat_add(64'(v), 64'(en), 32));
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      insns_q      <= '0;
      events_q     <= '0;
      retired_q    <= '0;
      records_q    <= '0;
      dropped_q    <= '0;
      traps_q      <= '0;
      intrs_q      <= '0;
      order_gaps_q <= '0;
      halted_q     <= 1'b0;
    end else begin
      insns_q      <= insns_d;
      events_q     <= events_d;
      retired_q    <= inc32(retired_q, s1_valid_q);
      records_q    <= inc32(records_q, make);
      dropped_q    <= inc32(dropped_q, make && !fifo_ready);
      traps_q      <= inc32(traps_q, s1_valid_q && s1_trap_q);
      intrs_q      <= inc32(intrs_q, s1_valid_q && s1_intr_q);
      order_gaps_q <= inc32(order_gaps_q, s1_valid_q && s1_gap_q);
      if (s1_valid_q && s1_halt_q) halted_q <= 1'b1;
    end
  end

  assign retired_o    = retired_q;
  assign records_o    = records_q;
  assign dropped_o    = dropped_q;
  assign traps_o      = traps_q;
  assign intrs_o      = intrs_q;
  assign order_gaps_o = order_gaps_q;
  assign halted_o     = halted_q;

  `HWPROF_ASSERT_KNOWN(rvfi_valid_known, rvfi_valid_i)
  `HWPROF_ASSERT_KNOWN(insn_known, rvfi_valid_i ? rvfi_insn_i : '0)

endmodule

`default_nettype wire
