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

  logic [CountW-1:0] count_q, count_d;
  logic [CountW:0]   sum;    // count + insns, one carry bit
  logic [CountW+1:0] diff;   // sum - interval, two's complement (sign bit on top)
  logic              reach;  // sum >= interval
  logic [CountW:0]   after;  // the count after this step, before saturation

  // One subtraction gives both the boundary test (its sign) and the count
  // after a boundary, so sum feeds a single carry chain (not a compare and a
  // subtract in series): the critical path is two chains and a mux.
  assign sum = {1'b0, count_q} + (CountW + 1)'(insns_i);
  assign diff = {1'b0, sum} - (CountW + 2)'(interval_i);
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
