/// hwprof_rvfi_ingress: turns the retirements of a RISC-V core, as reported on
/// the RISC-V Formal Interface (RVFI, NRET = Nret = 1 or 2, XLEN = 32), into
/// hwprof branch records (hwprof_pkg::branch_rec_t) for the profiling units,
/// and the data addresses of its loads and stores into val records.
/// docs/soc.md has the full mapping; model: sim_models/ingress/rvfi_ingress.{h,cpp}.
///
/// Per retirement (rvfi_valid_i[k]), decoded combinationally from rvfi_insn_i:
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
///   * With val_en_i (of its cycle), a retirement that does not trap and reads
///     or writes memory (mem_rmask | mem_wmask != 0) makes a val record of
///     rvfi_mem_addr_i (value; weight 1 is implied), counted in vals_o.
///   * rvfi_halt_i sets halted_o (sticky until reset).
///   * rvfi_order_i: a retirement whose order is not its predecessor's plus 1
///     counts in order_gaps_o (the first after reset is not checked). The
///     predecessor of channel 0 is the previous cycle's last retirement; of
///     channel 1, channel 0 when it is valid, else the previous cycle's last.
///
/// Two channels (Nret = 2): channel 0 is the older in program order; channel
/// 1 valid with channel 0 idle is one retirement. The retirements of a clock
/// go through the algorithm above in program order (channel 0 then channel
/// 1): the second record's insns / events count from the first record (also
/// when the first is dropped). Counters add up to Nret per clock.
///
/// Pipeline: s1 registers the decoded retirements (kind, pc + immediate, next
/// pc, the event flag under ev_sel_i and the val flag under val_en_i of that
/// cycle, the order check); s2 compares next pc and target (taken), counts
/// insns / events and writes the FIFOs. Output and overflow: the records of a
/// clock enter a hwprof_fifo_sync of Depth entries (NPush = Nret push ports,
/// the older record on port 0) in the edge that ends s2, one clock after
/// their retirement cycle (out_valid_o two clocks after it at the earliest;
/// status counters one clock after it); the FIFO gives one record per clock.
/// RVFI cannot stall the core, so a record that finds no room is dropped and
/// counted in dropped_o: with one free slot and two records the older enters
/// and the younger is dropped. records_o counts every record made, delivered
/// or dropped. The insns / events of a dropped record are lost with it (the
/// next record counts from the dropped one). Val records take the same path
/// through their own FIFO (ValDepth entries, val_valid_o / val_ready_i /
/// val_data_o; vals_o made, val_dropped_o dropped); the two output ports are
/// independent. Counters saturate at 2^32 - 1.
/// Throughput: Nret retirements per clock; each FIFO sustains one entry per
/// clock out (Depth >= 2); Nret = 2 makes up to two per clock in, so bursts
/// beyond the FIFO's room are dropped and counted.
/// Reset: asynchronous on every counter and on the FIFOs' control state.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rvfi_ingress #(
  /// Records the output FIFO holds (>= 2 for one record per clock).
  parameter int unsigned Depth = 4,
  /// Retirement channels (RVFI NRET): 1 or 2. Channel 0 is the older.
  parameter int unsigned Nret = 1,
  /// Val records the val FIFO holds (>= 1).
  parameter int unsigned ValDepth = 4
) (
  /// Clock (the core's).
  input  wire logic                    clk_i,
  /// Asynchronous reset, active low.
  input  wire logic                    rst_ni,
  // Configuration.
  /// Event selection: 0 loads and stores, 1 loads, 2 stores, 3 event_i.
  input  wire logic [1:0]              ev_sel_i,
  /// Make val records (data addresses of loads and stores).
  input  wire logic                    val_en_i,
  // RVFI, Nret channels (channel k in bits k*W +: W), up to Nret
  // retirements per clock, channel 0 the older in program order.
  /// A retirement is reported on channel k (bit k).
  input  wire logic [Nret-1:0]         rvfi_valid_i,
  /// Its index in program order.
  input  wire logic [Nret*64-1:0]      rvfi_order_i,
  /// The instruction word (a compressed one in bits 15:0).
  input  wire logic [Nret*32-1:0]      rvfi_insn_i,
  /// The instruction trapped.
  input  wire logic [Nret-1:0]         rvfi_trap_i,
  /// The last instruction before the core halts.
  input  wire logic [Nret-1:0]         rvfi_halt_i,
  /// The first instruction of a trap handler.
  input  wire logic [Nret-1:0]         rvfi_intr_i,
  /// Its address.
  input  wire logic [Nret*32-1:0]      rvfi_pc_rdata_i,
  /// The address of the next instruction.
  input  wire logic [Nret*32-1:0]      rvfi_pc_wdata_i,
  /// Bytes read (one bit per byte lane).
  input  wire logic [Nret*4-1:0]       rvfi_mem_rmask_i,
  /// Bytes written (one bit per byte lane).
  input  wire logic [Nret*4-1:0]       rvfi_mem_wmask_i,
  /// The data address of a load or store.
  input  wire logic [Nret*32-1:0]      rvfi_mem_addr_i,
  /// Core event qualifying the retirement of channel k (ev_sel_i = 3).
  input  wire logic [Nret-1:0]         event_i,
  // Branch records.
  /// A record is offered (the FIFO holds one).
  output logic                         out_valid_o,
  /// The consumer takes it at the edge.
  input  wire logic                    out_ready_i,
  /// The oldest record.
  output hwprof_pkg::branch_rec_t      out_data_o,
  // Val records (value = data address, weight 1).
  /// A val record is offered (the val FIFO holds one).
  output logic                         val_valid_o,
  /// The consumer takes it at the edge.
  input  wire logic                    val_ready_i,
  /// The oldest val record's data address.
  output logic [31:0]                  val_data_o,
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
  /// Val records made (delivered or dropped).
  output logic [31:0]                  vals_o,
  /// Val records dropped because the val FIFO was full.
  output logic [31:0]                  val_dropped_o,
  /// A retirement with rvfi_halt was seen.
  output logic                         halted_o
);

  import hwprof_pkg::*;

  `HWPROF_ASSERT_INIT(params_legal, Depth >= 1 && ValDepth >= 1 && Nret >= 1 && Nret <= 2)

  // One retirement channel as stage s1 holds it.
  typedef struct packed {
    logic        ctl;     // a control-transfer instruction
    logic        trap;
    logic        intr;
    logic        halt;
    logic        ev;      // an event under the ev_sel_i of its cycle
    logic        is_c;    // compressed encoding
    logic        val;     // makes a val record (val_en_i of its cycle)
    kind_e       kind;
    logic [31:0] pc;
    logic [31:0] target;  // pc + immediate, or the next pc (jalr forms)
    logic [31:0] next;    // rvfi_pc_wdata
    logic [31:0] addr;    // rvfi_mem_addr
  } ch_t;

  // ------------------------------------------------- decode (per channel)
  ch_t dec [Nret];

  for (genvar k = 0; k < Nret; k++) begin : gen_ch
    logic [31:0] insn, pc, next;
    logic [3:0]  rmask, wmask;
    logic        is_c;        // compressed encoding
    logic [6:0]  opcode;
    logic [4:0]  rd, rs1;
    logic [31:0] imm_b, imm_j, imm_cj, imm_cb;
    logic        rd_link, rs1_link;
    logic        c_j, c_jal, c_jr, c_jalr, c_bz;
    logic        ctl;
    kind_e       kind;
    logic [31:0] target;
    logic        ev;

    assign insn   = rvfi_insn_i[k*32 +: 32];
    assign pc     = rvfi_pc_rdata_i[k*32 +: 32];
    assign next   = rvfi_pc_wdata_i[k*32 +: 32];
    assign rmask  = rvfi_mem_rmask_i[k*4 +: 4];
    assign wmask  = rvfi_mem_wmask_i[k*4 +: 4];
    assign is_c   = insn[1:0] != 2'b11;
    assign opcode = insn[6:0];
    assign rd     = insn[11:7];
    assign rs1    = insn[19:15];
    assign imm_b  = {{20{insn[31]}}, insn[7], insn[30:25], insn[11:8], 1'b0};
    assign imm_j  = {{12{insn[31]}}, insn[19:12], insn[20], insn[30:21], 1'b0};
    // CJ format: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2.
    assign imm_cj = {{21{insn[12]}}, insn[8], insn[10:9], insn[6], insn[7], insn[2], insn[11], insn[5:3], 1'b0};
    // CB format: offset[8|4:3] in bits 12:10, offset[7:6|2:1|5] in bits 6:2.
    assign imm_cb = {{24{insn[12]}}, insn[6:5], insn[2], insn[11:10], insn[4:3], 1'b0};
    // x1 (ra) and x5 (t0) are the link registers of the hints.
    assign rd_link  = (rd == 5'd1) || (rd == 5'd5);
    assign rs1_link = (rs1 == 5'd1) || (rs1 == 5'd5);
    // Compressed control transfers (RV32C): quadrant 01 funct3 101 C.J,
    // 001 C.JAL, 110/111 C.BEQZ/C.BNEZ; quadrant 10 funct4 1000 C.JR, 1001
    // C.JALR (rs1 != 0, rs2 == 0).
    assign c_j    = insn[1:0] == 2'b01 && insn[15:13] == 3'b101;
    assign c_jal  = insn[1:0] == 2'b01 && insn[15:13] == 3'b001;
    assign c_bz   = insn[1:0] == 2'b01 && insn[15:14] == 2'b11;
    assign c_jr   = insn[1:0] == 2'b10 && insn[15:12] == 4'b1000 && insn[11:7] != 5'd0 && insn[6:2] == 5'd0;
    assign c_jalr = insn[1:0] == 2'b10 && insn[15:12] == 4'b1001 && insn[11:7] != 5'd0 && insn[6:2] == 5'd0;

    always_comb begin
      ctl    = 1'b0;
      kind   = KindBr;
      target = next;
      if (!is_c) begin
        unique case (opcode)
          7'b1100011: begin  // BRANCH
            ctl    = 1'b1;
            kind   = KindBr;
            target = pc + imm_b;
          end
          7'b1101111: begin  // JAL
            ctl    = 1'b1;
            kind   = rd_link ? KindCall : KindJmp;
            target = pc + imm_j;
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
        target = pc + imm_cj;
      end else if (c_bz) begin
        ctl    = 1'b1;
        kind   = KindBr;
        target = pc + imm_cb;
      end else if (c_jalr) begin  // jalr x1, 0(rs1)
        ctl    = 1'b1;
        kind   = KindIcall;
      end else if (c_jr) begin  // jalr x0, 0(rs1): rs1 in bits 11:7
        ctl    = 1'b1;
        kind   = (insn[11:7] == 5'd1 || insn[11:7] == 5'd5) ? KindRet : KindIjmp;
      end
    end

    always_comb begin
      unique case (ev_sel_i)
        2'd0:    ev = (rmask | wmask) != 4'd0;
        2'd1:    ev = rmask != 4'd0;
        2'd2:    ev = wmask != 4'd0;
        default: ev = event_i[k];
      endcase
    end

    assign dec[k] = '{ctl: ctl, trap: rvfi_trap_i[k], intr: rvfi_intr_i[k], halt: rvfi_halt_i[k], ev: ev,
                      is_c: is_c, val: val_en_i && !rvfi_trap_i[k] && (rmask | wmask) != 4'd0, kind: kind,
                      pc: pc, target: target, next: next, addr: rvfi_mem_addr_i[k*32 +: 32]};
  end

  // ---------------------------------------------------------- stage s1
  // The decoded retirements are registered before the taken compare, the
  // counts and the FIFOs (s2): the immediate adder and the 32-bit compare
  // are in different clock cycles. Data registers have no reset (only
  // s1_valid_q and the order check).
  logic [Nret-1:0]     s1_valid_q;
  ch_t                 s1_q [Nret];
  logic [Nret-1:0]     s1_gap_q;      // channel k retired and its order does not follow its predecessor's
  logic [Nret-1:0]     gap;
  logic [63:0]         order_next_q, order_next_d;  // the order expected next (s1 side)
  logic                order_seen_q, order_seen_d;

  // The order check is made in s1 (the 64-bit compares), counted in s2:
  // channel 0 must follow the previous cycle's last retirement, channel 1
  // channel 0 (or, with channel 0 idle, the previous cycle's last).
  always_comb begin
    order_next_d = order_next_q;
    order_seen_d = order_seen_q;
    for (int k = 0; k < Nret; k++) begin
      gap[k] = rvfi_valid_i[k] && order_seen_d && rvfi_order_i[k*64 +: 64] != order_next_d;
      if (rvfi_valid_i[k]) begin
        order_next_d = rvfi_order_i[k*64 +: 64] + 64'd1;
        order_seen_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q   <= '0;
      s1_gap_q     <= '0;
      order_next_q <= '0;
      order_seen_q <= 1'b0;
    end else begin
      s1_valid_q   <= rvfi_valid_i;
      s1_gap_q     <= gap;
      order_next_q <= order_next_d;
      order_seen_q <= order_seen_d;
    end
  end

  always_ff @(posedge clk_i) begin
    for (int k = 0; k < Nret; k++) s1_q[k] <= dec[k];
  end

  // ---------------------------------------------- stage s2: counts, records
  // The functional algorithm per retirement, channel 0 then channel 1: the
  // second record's insns / events count from the first record.
  logic [InsnsW-1:0]   insns_q, insns_d;
  logic [EventsW-1:0]  events_q, events_d;
  logic [InsnsW-1:0]   insns_n [Nret];   // channel k's count, itself included
  logic [EventsW-1:0]  events_n [Nret];
  logic [Nret-1:0]     make;             // channel k makes a record
  logic [Nret-1:0]     vmake;            // channel k makes a val record
  branch_rec_t         rec [Nret];

  always_comb begin
    insns_d  = insns_q;
    events_d = events_q;
    for (int k = 0; k < Nret; k++) begin
      insns_n[k]  = InsnsW'(hwprof_prim_pkg::sat_inc(64'(insns_d), InsnsW));
      events_n[k] = EventsW'(hwprof_prim_pkg::sat_add(64'(events_d), 64'(s1_q[k].ev), EventsW));
      make[k]     = s1_valid_q[k] && s1_q[k].ctl && !s1_q[k].trap;
      vmake[k]    = s1_valid_q[k] && s1_q[k].val;
      if (s1_valid_q[k]) begin
        insns_d  = make[k] ? '0 : insns_n[k];
        events_d = make[k] ? '0 : events_n[k];
      end
    end
  end

  for (genvar k = 0; k < Nret; k++) begin : gen_rec
    assign rec[k].kind   = s1_q[k].kind;
    assign rec[k].pc     = s1_q[k].pc;
    assign rec[k].target = s1_q[k].target;
    assign rec[k].taken  = (s1_q[k].kind != KindBr) || (s1_q[k].next == s1_q[k].target);
    assign rec[k].ilen   = s1_q[k].is_c ? 4'd2 : 4'd4;
    assign rec[k].insns  = insns_n[k];
    assign rec[k].events = events_n[k];
  end

  // ----------------------------------------------------------- the FIFOs
  // The records of the cycle enter in program order on the FIFO's push
  // ports (port 0 the older); with room for one only, port 0's enters.
  logic [Nret-1:0]            push_valid, fifo_ready, vpush_valid, vfifo_ready;
  logic [Nret*BranchRecW-1:0] push_data;
  logic [Nret*32-1:0]         vpush_data;
  logic [$clog2(Depth+1)-1:0]    unused_count;   // occupancy: not needed
  logic [$clog2(ValDepth+1)-1:0] unused_vcount;

  if (Nret == 1) begin : gen_push1
    assign push_valid  = make;
    assign push_data   = rec[0];
    assign vpush_valid = vmake;
    assign vpush_data  = s1_q[0].addr;
  end else begin : gen_push2
    assign push_valid  = {make[0] && make[1], make[0] || make[1]};
    assign push_data   = {rec[1], make[0] ? rec[0] : rec[1]};
    assign vpush_valid = {vmake[0] && vmake[1], vmake[0] || vmake[1]};
    assign vpush_data  = {s1_q[1].addr, vmake[0] ? s1_q[0].addr : s1_q[1].addr};
  end

  hwprof_fifo_sync #(
    .Width(BranchRecW),
    .Depth(Depth),
    .NPush(Nret)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (push_valid),
    .in_ready_o (fifo_ready),
    .in_data_i  (push_data),
    .out_valid_o,
    .out_ready_i,
    .out_data_o,
    .count_o    (unused_count)
  );

  hwprof_fifo_sync #(
    .Width(32),
    .Depth(ValDepth),
    .NPush(Nret)
  ) u_val_fifo (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (vpush_valid),
    .in_ready_o (vfifo_ready),
    .in_data_i  (vpush_data),
    .out_valid_o(val_valid_o),
    .out_ready_i(val_ready_i),
    .out_data_o (val_data_o),
    .count_o    (unused_vcount)
  );

  // ---------------------------------------------------------------- status
  logic [31:0]     retired_q, records_q, dropped_q, traps_q, intrs_q, order_gaps_q, vals_q, val_dropped_q;
  logic            halted_q;
  logic [Nret-1:0] drop, vdrop;       // push port k's entry is refused (FIFO full)
  logic [Nret-1:0] trap, intr, halt;  // channel k retires with rvfi_trap / _intr / _halt

  assign drop  = push_valid & ~fifo_ready;
  assign vdrop = vpush_valid & ~vfifo_ready;
  for (genvar k = 0; k < Nret; k++) begin : gen_flags
    assign trap[k] = s1_valid_q[k] && s1_q[k].trap;
    assign intr[k] = s1_valid_q[k] && s1_q[k].intr;
    assign halt[k] = s1_valid_q[k] && s1_q[k].halt;
  end

  // v + (the number of bits set in en), saturating at 2^32 - 1.
  function automatic logic [31:0] add32(logic [31:0] v, logic [1:0] en);
    add32 = 32'(hwprof_prim_pkg::sat_add(64'(v), 64'(en[0]) + 64'(en[1]), 32));
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      insns_q       <= '0;
      events_q      <= '0;
      retired_q     <= '0;
      records_q     <= '0;
      dropped_q     <= '0;
      traps_q       <= '0;
      intrs_q       <= '0;
      order_gaps_q  <= '0;
      vals_q        <= '0;
      val_dropped_q <= '0;
      halted_q      <= 1'b0;
    end else begin
      insns_q       <= insns_d;
      events_q      <= events_d;
      retired_q     <= add32(retired_q, 2'(s1_valid_q));
      records_q     <= add32(records_q, 2'(make));
      dropped_q     <= add32(dropped_q, 2'(drop));
      traps_q       <= add32(traps_q, 2'(trap));
      intrs_q       <= add32(intrs_q, 2'(intr));
      order_gaps_q  <= add32(order_gaps_q, 2'(s1_gap_q));
      vals_q        <= add32(vals_q, 2'(vmake));
      val_dropped_q <= add32(val_dropped_q, 2'(vdrop));
      if (halt != '0) halted_q <= 1'b1;
    end
  end

  assign retired_o     = retired_q;
  assign records_o     = records_q;
  assign dropped_o     = dropped_q;
  assign traps_o       = traps_q;
  assign intrs_o       = intrs_q;
  assign order_gaps_o  = order_gaps_q;
  assign vals_o        = vals_q;
  assign val_dropped_o = val_dropped_q;
  assign halted_o      = halted_q;

  `HWPROF_ASSERT_KNOWN(rvfi_valid_known, rvfi_valid_i)
  for (genvar k = 0; k < Nret; k++) begin : gen_known
    `HWPROF_ASSERT_KNOWN(insn_known, rvfi_valid_i[k] ? rvfi_insn_i[k*32 +: 32] : '0)
  end

endmodule

`default_nettype wire
