// hwprof_path_stack: the path stack of paper 000 section 3 (second register stage of
// the path profiler front end). Takes one classified record per clock, runs
// the whole algorithm of docs/path_stack.md ("The algorithm") for it in one
// clock, and registers at most one emitted path descriptor.
//
// Algorithm for a record taken (go), in this order (identical in
// PathStackAlgo::process, sim_models/path_profiler/path_stack_algo.cpp):
//   1. Loop extension: extend = ext_try & (TOS.ext < max_ext), where TOS.ext
//      of an empty stack counts as 0; extend turns the operations into
//      update only, and the update also increments ext.
//   2. Missing top of stack: (upd | updc) on an empty stack first creates
//      {start = pc, incomplete = 1, rest 0} (counted in the occupancy).
//   3. update: dirs[length] = taken, length += 1, events and insns added
//      (saturating at 16 and 24 bits). If then length == MaxLen and the
//      record does not pop, the entry is emitted with split = 1 and replaced
//      by {start = next, rest 0}. update-count: events and insns only.
//   4. pop: a non-empty stack emits its top (split = 0) and removes it; an
//      empty stack emits nothing and counts in stat_empty_pops_o.
//   5. push: {start = next, rest 0} on top; on a stack already holding Depth
//      entries the bottom entry is discarded and counted in stat_overflows_o.
//   At most one descriptor per record (3 splits only when 4 does not pop).
//   Emitted descriptor flags: split (from 3); frame_end = emitted by 4 and
//   the record does not push; depth = occupancy at emission, the emitted
//   entry included, after any creation in 2.
//
// Cycle behaviour (identical in PathStack, path_stack.h):
//   * in_ready_o = !out_valid_q | out_ready_i; go = in_valid_i & in_ready_o.
//     A record is taken whenever the output register is empty or drained in
//     the same cycle, whether or not it emits.
//   * On go the stack, the occupancy and the output register are written at
//     the edge: out_valid_q <= "this record emitted" (0 if it emits nothing).
//     Without go: out_valid_q <= out_valid_q & !out_ready_i.
//   * Statistics (32 bits, saturating at 2^32-1), at the edge:
//     records += go; emitted, incomplete, splits += go & emission of that
//     kind; overflows += go & push on a full stack (occupancy after steps
//     2 and 4 == Depth); empty_pops += go & pop on an empty stack (after
//     step 2); stall_cycles += in_valid_i & !in_ready_o.
//   * Storage (docs/path_stack.md, "Storage"; mirrored and checked in
//     PathStack): entry 0 (the top) in flip-flops; entries 1..count-1 in a
//     RAM of Slots = 2^max(1, clog2(Depth-1)) words (hwprof_ram_2p, block RAM)
//     used as a circular stack, wp_q = the slot of entry 1. A word leaves out
//     dirs[MaxLen-1] and the length's bits above $clog2(MaxLen), which are 0
//     on every entry below the top (length < MaxLen): 111 of the 113 bits
//     for MaxLen 32, 7 SB_RAM40_4K on iCE40. A push alone on a stack that is
//     non-empty after step 2 spills the top after step 3 (or the fresh entry
//     that replaced a split one) to slot wp+1 and moves wp there; on a full
//     stack this abandons the bottom entry's slot (overflow discard = a
//     pointer move). A pop alone with count >= 2 refills the top from entry
//     1 and moves wp down. Pop + push, an update alone and records without
//     operations rewrite only the top. The RAM is read every edge at the next
//     wp (read-ahead, latency 1), so entry 1 is always in the RAM's read
//     register, except after an edge that spilled (the read collided with the
//     write): then it is in the bypass register spill_q (fwd_q = 1 for that
//     one cycle). So no record pattern stalls: a pop right after a spill, pop
//     runs of any length and push runs of any length all take one clock per
//     record, and the ports behave exactly as with the former 16-entry shift
//     register. Entries at index >= occupancy are stale and never reach an
//     output; every entry inside the occupancy was written after the last
//     reset.
//   * Timing: the occupancy has a thermometer copy (therm_q) whose flags
//     (empty, >= 2, full) come straight from flip-flops and whose next value
//     is one shift from the operations.
//   * Reset: occupancy, wp, fwd, output valid and counters only; the top,
//     the RAM, its read register, the bypass register and the output data
//     register have no reset (they are qualified by occupancy, fwd_q and
//     out_valid_o).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_path_stack #(
  /// Number of stack entries (>= 1).
  parameter int unsigned Depth = 16,
  /// Maximum branches per path (1..32); a path reaching it is split.
  parameter int unsigned MaxLen = 32,
  /// Width of the length field.
  localparam int unsigned LenW = $clog2(MaxLen + 1),
  /// Width of the occupancy and depth fields.
  localparam int unsigned CountW = $clog2(Depth + 1),
  /// Width of the statistics counters.
  localparam int unsigned StatW = 32
) (
  /// Clock.
  input  wire logic                                  clk_i,
  /// Asynchronous active-low reset: empties the stack and the output
  /// register, clears the counters.
  input  wire logic                                  rst_ni,
  // Input: classified records (from hwprof_path_classifier).
  /// A record is offered.
  input  wire logic                                  in_valid_i,
  /// The record is taken this cycle (!out_valid_o | out_ready_i).
  output logic                                       in_ready_o,
  /// The record.
  input  wire hwprof_pkg::path_rec_t                 in_data_i,
  // Output: path descriptors (registered; fields meaningful while valid).
  /// A descriptor is held.
  output logic                                       out_valid_o,
  /// The consumer takes the descriptor this cycle.
  input  wire logic                                  out_ready_i,
  /// Path start address.
  output logic [hwprof_pkg::AddrW-1:0]               out_start_o,
  /// Branches on the path (1..MaxLen, or 0 for a path emitted before its
  /// first update).
  output logic [LenW-1:0]                            out_length_o,
  /// Directions; bit i = direction of the i-th branch, bits >= length 0.
  output logic [MaxLen-1:0]                          out_dirs_o,
  /// Events on the path (saturating).
  output logic [hwprof_pkg::DescEventsW-1:0]         out_events_o,
  /// Instructions on the path (saturating).
  output logic [hwprof_pkg::DescInsnsW-1:0]          out_insns_o,
  /// Loop extensions taken.
  output logic [hwprof_pkg::ExtW-1:0]                out_ext_o,
  /// The path began at a missing top of stack.
  output logic                                       out_incomplete_o,
  /// Emitted because it reached MaxLen.
  output logic                                       out_split_o,
  /// Emitted by a pop of a record that does not push.
  output logic                                       out_frame_end_o,
  /// Occupancy at emission, the emitted entry included (1 = bottom).
  output logic [CountW-1:0]                          out_depth_o,
  // Probe.
  /// Stack occupancy (registered).
  output logic [CountW-1:0]                          count_o,
  // Statistics (registered, saturating).
  /// Records taken.
  output logic [StatW-1:0]                           stat_records_o,
  /// Descriptors emitted.
  output logic [StatW-1:0]                           stat_emitted_o,
  /// Descriptors emitted with incomplete.
  output logic [StatW-1:0]                           stat_incomplete_o,
  /// Descriptors emitted with split.
  output logic [StatW-1:0]                           stat_splits_o,
  /// Bottom entries discarded by a push on a full stack.
  output logic [StatW-1:0]                          stat_overflows_o,
  /// Pops that found the stack empty.
  output logic [StatW-1:0]                           stat_empty_pops_o,
  /// Cycles with in_valid_i & !in_ready_o.
  output logic [StatW-1:0]                           stat_stall_cycles_o
);

  import hwprof_pkg::*;
  import hwprof_prim_pkg::sat_add;

  initial begin
    if (Depth < 1) $fatal(1, "hwprof_path_stack: Depth must be >= 1");
    if (MaxLen < 1 || MaxLen > 32) $fatal(1, "hwprof_path_stack: MaxLen must be 1..32");
  end

  /// One stack entry: a path descriptor under construction.
  typedef struct packed {
    logic [AddrW-1:0]       start;
    logic [LenW-1:0]        length;
    logic [MaxLen-1:0]      dirs;
    logic [DescEventsW-1:0] events;
    logic [DescInsnsW-1:0]  insns;
    logic [ExtW-1:0]        ext;
    logic                   incomplete;
  } entry_t;

  // ---------------------------------------------------------------------
  // State.

  entry_t            ent_q [1];      // the top; no reset: qualified by count_q
  logic [CountW-1:0] count_q, count_d;
  // Thermometer copy of the occupancy (bit i = count_q > i): the flags the
  // algorithm needs come straight from flip-flops, and its next value is one
  // shift away from the record's operations (no adder, no compare).
  logic [Depth-1:0]  therm_q, therm_d, therm1;
  logic [Depth:0]    therm_x;        // therm_q with a 0 above (Depth 1)
  logic              empty_q;        // count_q == 0
  logic              multi_q;        // count_q >= 2
  logic              full_q;         // count_q == Depth
  logic [ExtW-1:0]   tos_ext_q;      // empty_q ? 0 : ent_q[0].ext
  logic              out_valid_q;
  entry_t            out_ent_q;      // no reset: qualified by out_valid_q
  logic              out_split_q, out_frame_end_q;
  logic [CountW-1:0] out_depth_q;

  // ---------------------------------------------------------------------
  // The algorithm for the record at the input (used when go).
  //
  // Timing structure (no effect on behaviour): the update of step 3 is
  // computed twice in parallel, once from entry 0 (top_upd) and once from
  // the entry step 2 would create (new_upd), straight from the flops; the
  // control signals (extend, create, split, ...) only select among the
  // results at the end. empty_q and full_q are registered copies of the
  // occupancy compares, and tos_ext_q a registered copy of step 1's TOS.ext.

  path_rec_t         rec;
  logic              go;
  logic              extend;
  logic              op_upd, op_updc, op_pop, op_push;
  logic              touch;          // upd or updc
  logic              create;         // step 2
  logic [CountW-1:0] count1;         // occupancy after step 2
  entry_t            fresh;          // {start = next, rest 0}
  entry_t            top_upd;        // step 3 applied to entry 0
  entry_t            new_upd;        // step 3 applied to the created entry
  entry_t            tos_upd;        // the top after step 3 (entry 0 if untouched)
  logic              top_last;       // entry 0 holds MaxLen - 1 branches
  logic              full;           // the update reaches MaxLen
  logic              split;          // step 3 emits
  logic              pop_hit;        // step 4 emits
  logic              emit;
  entry_t            emit_ent;       // the emitted entry
  logic              emit_inc;       // emit_ent.incomplete, early
  logic              overflow;
  logic              empty_pop;

  assign rec        = in_data_i;
  assign in_ready_o = !out_valid_q | out_ready_i;
  assign go         = in_valid_i & in_ready_o;

  // Step 1.
  assign extend  = rec.ext_try & (tos_ext_q < rec.max_ext);
  assign op_upd  = rec.ops.upd | extend;
  assign op_updc = rec.ops.updc & !extend;
  assign op_pop  = rec.ops.pop & !extend;
  assign op_push = rec.ops.push & !extend;
  assign touch   = op_upd | op_updc;

  // Step 2.
  assign create = touch & empty_q;
  assign count1 = count_q | CountW'(create);  // create only when count_q == 0
  assign therm1 = therm_q | Depth'(create);

  assign therm_x = {1'b0, therm_q};
  assign empty_q = !therm_x[0];
  assign multi_q = therm_x[1];
  assign full_q  = therm_x[Depth-1];

  always_comb begin
    fresh       = '0;
    fresh.start = rec.next;
  end

  // Step 3 on entry 0: events and insns are added for update and
  // update-count alike; length, dirs and ext change for update only.
  always_comb begin
    top_upd            = ent_q[0];
    top_upd.events     = DescEventsW'(sat_add(64'(ent_q[0].events), 64'(rec.events), DescEventsW));
    top_upd.insns      = DescInsnsW'(sat_add(64'(ent_q[0].insns), 64'(rec.insns), DescInsnsW));
    top_upd.length     = op_upd ? ent_q[0].length + LenW'(1) : ent_q[0].length;
    for (int unsigned j = 0; j < MaxLen; j++) begin
      top_upd.dirs[j] = ent_q[0].dirs[j] |
                        (op_upd & rec.taken & (ent_q[0].length == LenW'(j)));
    end
    top_upd.ext        = ent_q[0].ext + ExtW'(extend);
  end

  // Step 3 on the entry created by step 2 ({start = pc, incomplete = 1}):
  // the sums start from 0, so they are the record's counts (no saturation).
  always_comb begin
    new_upd            = '0;
    new_upd.start      = rec.pc;
    new_upd.incomplete = 1'b1;
    new_upd.events     = DescEventsW'(rec.events);
    new_upd.insns      = DescInsnsW'(rec.insns);
    new_upd.length     = LenW'(op_upd);
    new_upd.dirs[0]    = op_upd & rec.taken;
    new_upd.ext        = ExtW'(extend);
  end

  // The top after step 3 (before a split replaces it): the created entry,
  // or entry 0 with its counts added only when the record touches it (the
  // other fields of top_upd equal entry 0's unless the record updates, so
  // only the two counts need the touch select).
  always_comb begin
    tos_upd        = top_upd;
    tos_upd.events = touch ? top_upd.events : ent_q[0].events;
    tos_upd.insns  = touch ? top_upd.insns : ent_q[0].insns;
    if (create) tos_upd = new_upd;
  end

  // length + 1 == MaxLen, compared before the increment (no wrap: length <
  // MaxLen < 2^LenW); a created entry starts at length 0.
  assign top_last = (ent_q[0].length == LenW'(MaxLen - 1));
  assign full     = op_upd & (create ? (MaxLen == 1) : top_last);
  assign split    = full & !op_pop;

  // Step 4: the stack after step 2 is non-empty when it was or when step 2
  // created an entry.
  assign pop_hit   = op_pop & (create | !empty_q);
  assign empty_pop = op_pop & !create & empty_q;
  assign emit      = split | pop_hit;
  // Step 3 emits the updated entry; step 4 emits the updated entry when the
  // record touched it, else the old top (count_q != 0).
  assign emit_ent  = tos_upd;
  // Its incomplete flag without waiting for touch: a created entry is
  // incomplete, any other emitted entry keeps entry 0's flag.
  assign emit_inc  = create | ent_q[0].incomplete;

  // Step 5: a push that finds Depth entries after steps 2 and 4 (a pop
  // always leaves fewer than Depth; after a creation the occupancy is 1).
  assign overflow = op_push & !op_pop & (create ? (Depth == 1) : full_q);

  always_comb begin
    unique case ({op_push, op_pop})
      2'b10:   count_d = (count1 == CountW'(Depth)) ? count1 : count1 + CountW'(1);
      2'b01:   count_d = (count1 == '0) ? count1 : count1 - CountW'(1);
      2'b11:   count_d = (count1 == '0) ? CountW'(1) : count1;
      default: count_d = count1;
    endcase
    unique case ({op_push, op_pop})
      2'b10:   therm_d = (therm1 << 1) | Depth'(1);  // saturates at Depth
      2'b01:   therm_d = therm1 >> 1;
      2'b11:   therm_d = therm1 | Depth'(1);
      default: therm_d = therm1;
    endcase
  end

  // ---------------------------------------------------------------------
  // Stack storage: entry 0 (the top) in flip-flops, entries 1..count-1 in a
  // RAM used as a circular stack (wp_q = slot of entry 1), plus a bypass
  // register holding the word spilled at the last edge.

  // Entry 0: push, or an update alone that splits -> fresh; pop alone ->
  // entry 1 (bypass register or RAM read register); update alone -> tos_upd.
  entry_t ent0_d;
  entry_t below;        // entry 1, for a fill
  entry_t spill_data;   // the top after step 3, for a spill
  logic   ent0_we;
  logic   spill, fill;  // RAM write / top refilled from entry 1
  assign ent0_we    = go & (op_push | op_pop | touch);
  assign ent0_d     = (op_push | split) ? fresh : (op_pop ? below : tos_upd);
  assign spill_data = split ? fresh : tos_upd;
  // A push alone on a stack that is non-empty after step 2 moves the top
  // down; a pop alone with count >= 2 (no creation then) brings entry 1 up.
  assign spill = go & op_push & !op_pop & (create | !empty_q);
  assign fill  = go & op_pop & !op_push & multi_q;

  always_ff @(posedge clk_i) begin
    if (ent0_we) ent_q[0] <= ent0_d;
  end

  if (Depth > 1) begin : gen_ram
    localparam int unsigned SlotW = (Depth - 1 > 2) ? $clog2(Depth - 1) : 1;
    localparam int unsigned Slots = 1 << SlotW;
    // Stored entry: every entry below the top has length < MaxLen (a path
    // reaching MaxLen is emitted at once), so dirs[MaxLen-1] is 0 and the
    // length fits $clog2(MaxLen) bits: 111 bits for MaxLen 32, 7 EBRs on
    // iCE40 (16 bits each) instead of 8.
    localparam int unsigned RamLenW  = (MaxLen > 1) ? $clog2(MaxLen) : 1;
    localparam int unsigned RamDirsW = (MaxLen > 1) ? MaxLen - 1 : 1;

    typedef struct packed {
      logic [AddrW-1:0]       start;
      logic [RamLenW-1:0]     length;
      logic [RamDirsW-1:0]    dirs;
      logic [DescEventsW-1:0] events;
      logic [DescInsnsW-1:0]  insns;
      logic [ExtW-1:0]        ext;
      logic                   incomplete;
    } word_t;

    logic [SlotW-1:0] wp_q, wp_d;
    logic             fwd_q;     // the last edge spilled: entry 1 is spill_q
    word_t            spill_w;   // spill_data as stored
    word_t            spill_q;   // no reset: qualified by fwd_q
    word_t            rdata;     // RAM read register: the word at wp_q
    word_t            below_w;

    always_comb begin
      wp_d = wp_q;
      if (spill) wp_d = wp_q + SlotW'(1);
      if (fill)  wp_d = wp_q - SlotW'(1);
    end

    assign spill_w.start      = spill_data.start;
    assign spill_w.length     = RamLenW'(spill_data.length);
    assign spill_w.dirs       = RamDirsW'(spill_data.dirs);
    assign spill_w.events     = spill_data.events;
    assign spill_w.insns      = spill_data.insns;
    assign spill_w.ext        = spill_data.ext;
    assign spill_w.incomplete = spill_data.incomplete;

    // Read-ahead: every edge loads the read register with the word at the
    // next wp. On a spill the read collides with the write (undefined), and
    // fwd_q selects the bypass register for the one cycle that follows.
    hwprof_ram_2p #(
      .Depth(Slots),
      .Width($bits(word_t)),
      .GranW($bits(word_t))
    ) u_ram (
      .clk_i,
      .wmask_i(spill),
      .waddr_i(wp_d),
      .wdata_i(spill_w),
      .re_i   (1'b1),
      .raddr_i(wp_d),
      .rdata_o(rdata)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wp_q  <= '0;
        fwd_q <= 1'b0;
      end else begin
        wp_q  <= wp_d;
        fwd_q <= spill;
      end
    end

    always_ff @(posedge clk_i) begin
      if (spill) spill_q <= spill_w;
    end

    assign below_w = fwd_q ? spill_q : rdata;
    always_comb begin
      below            = '0;
      below.start      = below_w.start;
      below.length     = LenW'(below_w.length);
      below.dirs       = MaxLen'(below_w.dirs);
      below.events     = below_w.events;
      below.insns      = below_w.insns;
      below.ext        = below_w.ext;
      below.incomplete = below_w.incomplete;
    end

    // The bits left out are 0 on every spilled entry.
    logic [LenW-1:0]   spill_len;
    logic [MaxLen-1:0] spill_dirs;
    assign spill_len  = spill_data.length;
    assign spill_dirs = spill_data.dirs;
    `HWPROF_ASSERT(spilled_length_fits, spill |-> 32'(spill_len) < MaxLen)
    `HWPROF_ASSERT(spilled_top_dir_zero, spill |-> !spill_dirs[MaxLen-1])
  end else begin : gen_no_ram
    // Depth 1: a push on the full stack discards the top itself; a pop
    // leaves the stack empty (entry 0 then stale).
    assign below = ent_q[0];
    logic unused_storage;
    assign unused_storage = ^{spill, fill, spill_data};
  end

  // ---------------------------------------------------------------------
  // Occupancy, output register, statistics.

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q     <= '0;
      therm_q     <= '0;
      tos_ext_q   <= '0;
      out_valid_q <= 1'b0;
    end else if (go) begin
      count_q     <= count_d;
      therm_q     <= therm_d;
      tos_ext_q   <= !therm_d[0] ? '0 : (ent0_we ? ent0_d.ext : ent_q[0].ext);
      out_valid_q <= emit;
    end else if (out_ready_i) begin
      out_valid_q <= 1'b0;
    end
  end

  // Output data: no reset (out_valid_q qualifies it).
  always_ff @(posedge clk_i) begin
    if (go && emit) begin
      out_ent_q       <= emit_ent;
      out_split_q     <= split;
      out_frame_end_q <= pop_hit & !op_push;
      out_depth_q     <= count1;
    end
  end

  // Statistics: 32-bit counters that stop at all ones.
  localparam int unsigned NumStats = 7;
  logic [NumStats-1:0] st_inc;

  assign st_inc = {go,                                // 6 records
                   go & emit,                         // 5 emitted
                   go & emit & emit_inc,              // 4 incomplete
                   go & split,                        // 3 splits
                   go & overflow,                     // 2 overflows
                   go & empty_pop,                    // 1 empty pops
                   in_valid_i & !in_ready_o};         // 0 stall cycles

  hwprof_stat_bank #(.N(NumStats), .W(StatW)) u_stats (
    .clk_i, .rst_ni, .clear_i(1'b0), .inc_i(st_inc), .add_i('1),
    .cnt_o({stat_records_o, stat_emitted_o, stat_incomplete_o, stat_splits_o,
             stat_overflows_o, stat_empty_pops_o, stat_stall_cycles_o})
  );

  // ---------------------------------------------------------------------
  // Outputs.

  assign out_valid_o         = out_valid_q;
  assign {out_start_o, out_length_o, out_dirs_o, out_events_o, out_insns_o, out_ext_o,
          out_incomplete_o} = out_ent_q;
  assign out_split_o         = out_split_q;
  assign out_frame_end_o     = out_frame_end_q;
  assign out_depth_o         = out_depth_q;
  assign count_o             = count_q;

  // The class itself is not needed here: the classifier has already turned
  // it into operations.
  path_class_e unused_cls;
  assign unused_cls = rec.cls;

  // ---------------------------------------------------------------------
  // Assertions.

  // Output handshake: once valid, stays valid with stable data until taken.
  `HWPROF_ASSERT(out_valid_held, out_valid_o && !out_ready_i |=> out_valid_o)
  `HWPROF_ASSERT(out_data_held, out_valid_o && !out_ready_i |=>
                 $stable({out_ent_q, out_split_q, out_frame_end_q, out_depth_q}))
  `HWPROF_ASSERT(count_in_range, count_q <= CountW'(Depth))
  logic [Depth-1:0] therm_ref;
  always_comb begin
    for (int unsigned i = 0; i < Depth; i++) therm_ref[i] = (32'(count_q) > i);
  end
  `HWPROF_ASSERT(therm_matches_count, therm_q == therm_ref)
  logic [ExtW-1:0] top_ext;
  assign top_ext = ent_q[0].ext;
  `HWPROF_ASSERT(tos_ext_matches, tos_ext_q == (empty_q ? '0 : top_ext))
  // Invariant: every entry on the stack is shorter than MaxLen (checked on
  // the top, where entries are written).
  logic [LenW-1:0] top_length;
  assign top_length = ent_q[0].length;
  `HWPROF_ASSERT(top_shorter_than_max_len, count_q != '0 |-> top_length < LenW'(MaxLen))
  // An emitted descriptor has an emitting depth inside the stack.
  `HWPROF_ASSERT(depth_in_range, out_valid_o |-> out_depth_q != '0 && out_depth_q <= CountW'(Depth))

`ifdef FORMAL
  // ---------------------------------------------------------------------
  // Formal properties (make formal: formal/path_stack.sby with the harness
  // formal/hwprof_path_stack_fv.sv, which resets the design in its first
  // cycle; docs/verification.md). Immediate assertions only (the synthesis
  // front end rejects SVA sequences); no effect on simulation or synthesis.
  //
  // Always (proved by k-induction, task prove):
  //   * occupancy: count_q <= Depth and equals a reference occupancy that
  //     applies steps 2, 4 and 5 one after the other (a pop of an empty
  //     stack keeps 0: it never underflows; a push on a full stack keeps
  //     Depth: the bottom is dropped), and the thermometer, empty/full flags
  //     and tos_ext_q agree with it;
  //   * MaxLen: an entry on the stack is shorter than MaxLen; an emitted
  //     descriptor has at most MaxLen branches, exactly MaxLen when split;
  //   * counting: an overflow is counted exactly when a push finds Depth
  //     entries, an empty pop exactly when a pop finds none;
  //   * the output register holds (valid and data) until taken; the
  //     emitting depth is in 1..Depth.
  // With HWPROF_FV_STACK_DATA (bounded, task bmc: the RAM words are not
  // visible to an induction):
  //   * storage: entry 1 (RAM read register or bypass) equals the entry of a
  //     reference shift-register stack, after any spill/fill pattern;
  //   * no lost branch: branches taken (updates) = branches on the stack +
  //     branches emitted + branches discarded with an overflowed bottom.
  logic f_past_q = 1'b0;
  always_ff @(posedge clk_i) f_past_q <= 1'b1;

  logic [CountW-1:0] f_count_q, f_count_d;
  always_comb begin
    f_count_d = count_q;
    if (create) f_count_d = CountW'(1);
    if (op_pop && f_count_d != '0) f_count_d = f_count_d - CountW'(1);
    if (op_push && f_count_d != CountW'(Depth)) f_count_d = f_count_d + CountW'(1);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_count_q <= '0;
    else if (go) f_count_q <= f_count_d;
  end

  logic f_out_hold_q;
  logic [$bits(entry_t)+2+CountW-1:0] f_out_q;
  always_ff @(posedge clk_i) begin
    f_out_hold_q <= rst_ni && out_valid_o && !out_ready_i;
    f_out_q      <= {out_ent_q, out_split_q, out_frame_end_q, out_depth_q};
  end

  always_comb begin
    if (rst_ni) begin
      assert (count_q <= CountW'(Depth));
      assert (count_q == f_count_q);
      if (go) assert (count_d == f_count_d);
      for (int unsigned i = 0; i < Depth; i++) assert (therm_q[i] == (32'(count_q) > i));
      assert (empty_q == (count_q == '0));
      assert (full_q == (count_q == CountW'(Depth)));
      assert (tos_ext_q == (empty_q ? '0 : ent_q[0].ext));
      if (count_q != '0) assert (32'(ent_q[0].length) < MaxLen);
      if (out_valid_q) begin
        assert (32'(out_ent_q.length) <= MaxLen);
        if (out_split_q) assert (32'(out_ent_q.length) == MaxLen);
        assert (out_depth_q != '0 && out_depth_q <= CountW'(Depth));
      end
      assert (st_inc[2] == (go && op_push && !op_pop && count1 == CountW'(Depth)));
      assert (st_inc[1] == (go && op_pop && count1 == '0));
      if (f_past_q && f_out_hold_q) begin
        assert (out_valid_q);
        assert ({out_ent_q, out_split_q, out_frame_end_q, out_depth_q} == f_out_q);
      end
    end
  end

  // Reachability (task cover): overflow, a split, an empty pop, a full stack
  // drained by pops.
  always_comb begin
    if (rst_ni) begin
      cover (go && overflow);
      cover (go && split);
      cover (go && empty_pop);
      cover (go && fill && count_q == CountW'(Depth));
    end
  end

`ifdef HWPROF_FV_STACK_DATA
  if (Depth > 1) begin : gen_fv_data
    entry_t     f_stk_q [Depth];  // reference stack entries 1..Depth-1
    logic [7:0] f_in_q, f_out_len_q, f_on_stack;
    always_ff @(posedge clk_i) begin
      if (spill) begin
        for (int i = Depth - 1; i >= 2; i--) f_stk_q[i] <= f_stk_q[i-1];
        f_stk_q[1] <= spill_data;
      end else if (fill) begin
        for (int i = 1; i < Depth - 1; i++) f_stk_q[i] <= f_stk_q[i+1];
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        f_in_q      <= '0;
        f_out_len_q <= '0;
      end else if (go) begin
        f_in_q      <= f_in_q + 8'(op_upd);
        f_out_len_q <= f_out_len_q + (emit ? 8'(emit_ent.length) : 8'd0)
                       + (overflow ? 8'(f_stk_q[Depth-1].length) : 8'd0);
      end
    end
    always_comb begin
      f_on_stack = (count_q != '0) ? 8'(ent_q[0].length) : 8'd0;
      for (int unsigned i = 1; i < Depth; i++) begin
        if (32'(count_q) > i) f_on_stack = f_on_stack + 8'(f_stk_q[i].length);
      end
    end
    always_comb begin
      if (rst_ni) begin
        if (multi_q) assert (below == f_stk_q[1]);
        assert (f_in_q == f_out_len_q + f_on_stack);
      end
    end
  end
`endif
`endif

endmodule

`default_nettype wire
