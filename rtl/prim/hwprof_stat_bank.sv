/// hwprof_stat_bank: a bank of N saturating counters of W bits.
///
/// Cycle behaviour (model: the counter vector of stat_lockstep in
/// tb/prim/prim_test.cpp, built on hwprof::model::sat_add):
///   * At an edge, counter k adds add_i[k] when inc_i[k], saturating at
///     2^W - 1 (it stays there until cleared).
///   * clear_i zeroes every counter at the edge; it wins over an increment
///     of the same edge.
///   * cnt_o is the registered counter state (latency: an increment at edge t
///     is visible after edge t). Asynchronous active-low reset to zero.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_stat_bank #(
  /// Number of counters (>= 1).
  parameter int unsigned N = 4,
  /// Bits per counter (1..64).
  parameter int unsigned W = 32,
  /// Bits of the per-counter add amount (1..64); tie add_i to 1 to count events.
  parameter int unsigned AddW = 1
) (
  /// Clock.
  input  wire logic                      clk_i,
  /// Asynchronous reset, active low: every counter to zero.
  input  wire logic                      rst_ni,
  /// Synchronous clear of every counter (wins over an increment).
  input  wire logic                      clear_i,
  /// Per-counter increment enable.
  input  wire logic [N-1:0]              inc_i,
  /// Per-counter amount added when inc_i[k].
  input  wire logic [N-1:0][AddW-1:0]    add_i,
  /// Counter values (registered).
  output logic      [N-1:0][W-1:0]       cnt_o
);

  `HWPROF_ASSERT_INIT(params_legal, N >= 1 && W >= 1 && W <= 64 && AddW >= 1 && AddW <= 64)

  logic [N-1:0][W-1:0] cnt_q, cnt_d;

  always_comb begin
    for (int unsigned k = 0; k < N; k++) begin
      cnt_d[k] = cnt_q[k];
      if (clear_i) cnt_d[k] = '0;
      else if (inc_i[k]) cnt_d[k] = W'(hwprof_prim_pkg::sat_add(64'(cnt_q[k]), 64'(add_i[k]), W));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else cnt_q <= cnt_d;
  end

  assign cnt_o = cnt_q;

  // A counter never goes down except by clear.
  for (genvar k = 0; k < N; k++) begin : gen_chk
    `HWPROF_ASSERT(count_monotonic, clear_i || cnt_d[k] >= cnt_q[k])
  end
  `HWPROF_ASSERT_KNOWN(cnt_known, cnt_q)

endmodule

`default_nettype wire
