// hwprof_rap_merge_buffer: the RAP engine's merging event buffer (docs/rap_engine.md,
// "Merging event buffer"; the functional definition is RapEventBuffer in
// sim_models/rap/rap_event_buffer.h). Holds up to depth_i (0..MaxBuf)
// (value, weight) entries in arrival order (entry 0 the oldest).
//   * Normal mode (flush_i low), an event offered on in_*:
//       - if an entry holds the value and its weight plus the event's weight
//         fits in PairWtW bits, the youngest such entry takes the weight
//         (in_ready_o high, nothing emitted);
//       - else, with fewer than depth_i entries, the event is appended
//         (in_ready_o high);
//       - else (full, or depth_i = 0) a pair is emitted on out_*: the oldest
//         entry (then the event is appended) or, with depth_i = 0, the event
//         itself; in_ready_o = out_ready_i.
//   * Flush mode (flush_i high): no event is taken; the oldest entry is
//     offered on out_* and removed when out_ready_i is high.
//   * clear_i empties the buffer (depth_i is taken from the caller, who
//     changes it only together with a clear).
// Tie-break: among several entries with the value (possible only after a
// weight overflow), the youngest that still fits takes the weight.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rap_merge_buffer #(
  /// Largest depth (entries).
  parameter int unsigned MaxBuf = 8,
  /// Value width.
  parameter int unsigned ValW = 32,
  /// Raw event weight width.
  parameter int unsigned WtW = 16,
  /// Pair weight width (> WtW).
  parameter int unsigned PairWtW = 32,
  /// Width of the depth input.
  localparam int unsigned DepthW = $clog2(MaxBuf + 1)
) (
  /// Clock.
  input  wire logic               clk_i,
  /// Asynchronous reset, active low.
  input  wire logic               rst_ni,
  /// Synchronous clear (empties the buffer).
  input  wire logic               clear_i,
  /// Buffer depth in use (0 = every event passes through as a pair).
  input  wire logic [DepthW-1:0]  depth_i,
  /// Flush mode: emit the oldest entry, take no event.
  input  wire logic               flush_i,
  /// An event is offered.
  input  wire logic               in_valid_i,
  /// The event is taken at the edge.
  output logic                    in_ready_o,
  /// The event's value.
  input  wire logic [ValW-1:0]    in_value_i,
  /// The event's weight.
  input  wire logic [WtW-1:0]     in_weight_i,
  /// A pair is emitted (taken at the edge when out_ready_i is high).
  output logic                    out_valid_o,
  /// The receiver takes the pair.
  input  wire logic               out_ready_i,
  /// The pair's value.
  output logic [ValW-1:0]         out_value_o,
  /// The pair's weight.
  output logic [PairWtW-1:0]      out_weight_o,
  /// The buffer holds no entry.
  output logic                    empty_o
);

  localparam int unsigned IdxW = (MaxBuf > 1) ? $clog2(MaxBuf) : 1;

  initial begin
    if (MaxBuf < 1) $fatal(1, "hwprof_rap_merge_buffer: MaxBuf must be >= 1");
    if (PairWtW <= WtW) $fatal(1, "hwprof_rap_merge_buffer: PairWtW must exceed WtW");
  end

  logic [ValW-1:0]    val_q [MaxBuf];
  logic [PairWtW-1:0] wt_q [MaxBuf];
  logic [DepthW-1:0]  count_q;

  // Youngest entry that can take the event.
  logic              hit;
  logic [IdxW-1:0]   hit_idx;
  logic [PairWtW:0]  sum [MaxBuf];
  always_comb begin
    hit = 1'b0;
    hit_idx = '0;
    for (int unsigned i = 0; i < MaxBuf; i++) begin
      sum[i] = {1'b0, wt_q[i]} + (PairWtW + 1)'(in_weight_i);
      if (DepthW'(i) < count_q && val_q[i] == in_value_i && !sum[i][PairWtW]) begin
        hit = 1'b1;
        hit_idx = IdxW'(i);
      end
    end
  end

  logic full, pass_through, emit_old, emit_new, take, pop;
  assign full     = (count_q == depth_i);
  assign empty_o  = (count_q == '0);
  // Normal mode at depth 0: the event itself is the pair.
  assign pass_through = !flush_i && depth_i == '0;
  assign emit_new = pass_through && in_valid_i && !hit;
  assign emit_old = flush_i ? !empty_o : (in_valid_i && !hit && full && depth_i != '0);
  assign out_valid_o  = emit_new || emit_old;
  // The pair is selected by the mode alone (the event itself at depth 0 in
  // normal mode, else the oldest entry), not by the hit search: the same
  // pair whenever out_valid_o is high, and defined early in the cycle (the
  // engine's RAM TCAM reads its next key from it).
  assign out_value_o  = pass_through ? in_value_i : val_q[0];
  assign out_weight_o = pass_through ? PairWtW'(in_weight_i) : wt_q[0];
  assign in_ready_o   = !flush_i && (hit || !full || out_ready_i);
  assign take = in_valid_i && in_ready_o;
  assign pop  = emit_old && out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else if (clear_i) begin
      count_q <= '0;
    end else if (take && !hit && depth_i != '0 && !pop) begin
      count_q <= count_q + DepthW'(1);
    end else if (pop && !take) begin
      count_q <= count_q - DepthW'(1);
    end
  end

  // Entries: shift down on a pop, then append at the (new) end, or add.
  // Written per entry with its own select signals (entry i takes its own
  // sum, entry i + 1 on a pop, or the event at the append position), so
  // each bit is one small multiplexer: indexed writes (`wt_q[hit_idx] <=
  // sum[hit_idx]`, `val_q[count_q] <= ...`) synthesized to a decoder and a
  // wide multiplexer in front of every entry (about 4,000 LUT4s at 8 entries
  // on ECP5).
  logic [MaxBuf-1:0] add_e, app_e, shift_e;
  always_comb begin
    for (int unsigned i = 0; i < MaxBuf; i++) begin
      add_e[i]   = take && hit && hit_idx == IdxW'(i);
      app_e[i]   = take && !hit && depth_i != '0 &&
                   (pop ? count_q == DepthW'(i + 1) : count_q == DepthW'(i));
      shift_e[i] = pop && i + 1 < MaxBuf;
    end
  end

  for (genvar i = 0; i < MaxBuf; i++) begin : gen_entry
    logic [ValW-1:0]    next_val;
    logic [PairWtW-1:0] next_wt;
    if (i + 1 < MaxBuf) begin : gen_shift
      assign next_val = app_e[i] ? in_value_i : val_q[i+1];
      assign next_wt  = add_e[i] ? sum[i][PairWtW-1:0] : (app_e[i] ? PairWtW'(in_weight_i) : wt_q[i+1]);
    end else begin : gen_last
      assign next_val = in_value_i;
      assign next_wt  = add_e[i] ? sum[i][PairWtW-1:0] : PairWtW'(in_weight_i);
    end
    always_ff @(posedge clk_i) begin
      if (!clear_i) begin
        if (app_e[i] || shift_e[i]) val_q[i] <= next_val;
        if (add_e[i] || app_e[i] || shift_e[i]) wt_q[i] <= next_wt;
      end
    end
  end

  `HWPROF_ASSERT(count_le_depth, count_q <= depth_i)

endmodule

`default_nettype wire
