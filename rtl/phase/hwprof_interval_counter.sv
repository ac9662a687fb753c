// hwprof_interval_counter: the interval boundary rule shared by every phase unit
// (hwprof-spec.md section 5, docs/phase.md "Intervals"; model:
// sim_models/phase/interval.h, IntervalCounter).
//
// count_q holds the instructions retired since the last boundary. A step
// with insns_i instructions ends an interval when count_q + insns_i >=
// interval_i; then count_q := count_q + insns_i - interval_i, so the next
// boundary is the previous one plus the interval and boundaries never drift.
// At most one interval ends per step. count_q saturates at 2^CountW - 1.
//
// Cycle behaviour: end_o is combinational (step_i and the boundary test);
// count_q updates at the edge. restart_i has priority over step_i: it clears
// the count and no interval ends (end_o is low). interval_i must be >= 1
// (the owning unit rejects 0 at its register); it is used as it is in the
// cycle of each step, so a new value applies from the next record on.
//
// Implementation: diff = count + insns - interval through one carry-save
// layer and one adder gives both the boundary test (its sign) and the count
// after a boundary; sum = count + insns in parallel. Both adders are split
// at about half the width with the upper half computed for either carry (carry select),
// so the longest carry chain is about half the width.
`default_nettype none

module hwprof_interval_counter #(
  /// Width of the interval register.
  parameter int unsigned IntervalW = 32,
  /// Width of a record's instruction count.
  parameter int unsigned InsnsW = hwprof_pkg::InsnsW,
  /// Width of the count register (> IntervalW, >= InsnsW).
  parameter int unsigned CountW = 40
) (
  /// Clock.
  input  wire logic                 clk_i,
  /// Asynchronous active-low reset: count 0.
  input  wire logic                 rst_ni,
  /// IntervalInsns (>= 1).
  input  wire logic [IntervalW-1:0] interval_i,
  /// Clear the count (no interval ends in this cycle).
  input  wire logic                 restart_i,
  /// A record retires in this cycle ...
  input  wire logic                 step_i,
  /// ... with this many instructions.
  input  wire logic [InsnsW-1:0]    insns_i,
  /// This step ends an interval (combinational).
  output logic                      end_o
);

  initial begin
    if (CountW <= IntervalW || CountW < InsnsW) $fatal(1, "hwprof_interval_counter: CountW must exceed IntervalW and InsnsW");
  end

  // Adder splits: diff at the middle; sum at the middle or above insns_i.
  localparam int unsigned DSplit = (CountW + 2) / 2;
  localparam int unsigned DHiW = CountW + 2 - DSplit;
  localparam int unsigned SSplit = (DSplit > InsnsW) ? DSplit : InsnsW;

  logic [CountW-1:0] count_q, count_d;
  logic [CountW:0]   sum;    // count + insns, one carry bit
  logic [CountW+1:0] x, y, z;  // count, insns, ~interval at diff's width
  logic [CountW+1:0] a, b;   // the three operands of diff reduced to two
  logic [CountW+1:0] diff;   // count + insns - interval, two's complement
  logic              reach;  // count + insns >= interval
  logic [CountW:0]   after;  // the count after this step, before saturation
  logic [DSplit:0]   d_lo;   // diff's lower half and its carry
  logic [DHiW-1:0]   d_hi0;  // diff's upper half, carry in 0
  logic [DHiW:0]     d_hi1_x;  // diff's upper half, carry in 1 (bits DHiW:1)
  logic              unused_d_hi1_lsb;  // the forced carry-in bit

  // diff = count + insns + ~interval + 1 through one carry-save layer (a
  // LUT per bit) and one adder, in parallel with sum: the critical path is
  // a LUT, half a chain, the carry select and the mux, not two chains in
  // series.
  assign x = (CountW + 2)'(count_q);
  assign y = (CountW + 2)'(insns_i);
  assign z = ~((CountW + 2)'(interval_i));
  assign a = x ^ y ^ z;
  assign b = {(x[CountW:0] & y[CountW:0]) | (x[CountW:0] & z[CountW:0]) | (y[CountW:0] & z[CountW:0]), 1'b1};
  // Carry select: the upper half for either carry out of the lower half.
  assign d_lo = {1'b0, a[DSplit-1:0]} + {1'b0, b[DSplit-1:0]};
  assign d_hi0 = a[CountW+1:DSplit] + b[CountW+1:DSplit];
  assign d_hi1_x = {a[CountW+1:DSplit], 1'b1} + {b[CountW+1:DSplit], 1'b1};
  assign diff = {d_lo[DSplit] ? d_hi1_x[DHiW:1] : d_hi0, d_lo[DSplit-1:0]};
  assign unused_d_hi1_lsb = d_hi1_x[0];

  if (SSplit < CountW) begin : g_sum_split
    // count + insns: insns_i fits the lower part, the upper part is count's
    // or count's plus one.
    logic [SSplit:0]        s_lo;
    logic [CountW-SSplit:0] s_hi1;
    assign s_lo = {1'b0, count_q[SSplit-1:0]} + (SSplit + 1)'(insns_i);
    assign s_hi1 = {1'b0, count_q[CountW-1:SSplit]} + (CountW - SSplit + 1)'(1);
    assign sum = {s_lo[SSplit] ? s_hi1 : {1'b0, count_q[CountW-1:SSplit]}, s_lo[SSplit-1:0]};
  end else begin : g_sum
    assign sum = {1'b0, count_q} + (CountW + 1)'(insns_i);
  end
  assign reach = !diff[CountW+1];
  assign end_o = step_i && !restart_i && reach;
  assign after = reach ? diff[CountW:0] : sum;

  always_comb begin
    count_d = count_q;
    if (restart_i) count_d = '0;
    else if (step_i) count_d = after[CountW] ? '1 : after[CountW-1:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else count_q <= count_d;
  end

endmodule

`default_nettype wire
