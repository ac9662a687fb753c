// hwprof_sync_fifo: synchronous first-in first-out queue with valid/ready on both
// sides.
//
// Cycle behaviour (identical in sim_models/common/hwprof_sync_fifo.h):
//   * in_ready_o  = (count_o != Depth): registered, never depends on out_ready_i,
//     so a full queue does not accept a record in the cycle it is drained.
//   * out_valid_o = (count_o != 0), out_data_o = oldest entry: registered.
//   * A push (in_valid_i & in_ready_o) and a pop (out_valid_o & out_ready_i)
//     in the same cycle both happen; the count is unchanged.
//   * A record pushed in cycle t is visible on the output in cycle t+1 at the
//     earliest (no fall-through), so a queue of depth >= 2 sustains one
//     record per clock.
// The storage array has no reset (it maps to RAM); pointers and count do.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_sync_fifo #(
  /// Width of one entry in bits (>= 1).
  parameter int unsigned Width = 8,
  /// Number of entries (>= 1).
  parameter int unsigned Depth = 4,
  /// Width of the occupancy output.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Write side.
  input  wire logic              in_valid_i,
  output logic                   in_ready_o,
  input  wire logic [Width-1:0]  in_data_i,
  // Read side.
  output logic                   out_valid_o,
  input  wire logic              out_ready_i,
  output logic [Width-1:0]       out_data_o,
  // Status.
  output logic [CountW-1:0]      count_o
);

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  initial begin
    if (Width < 1) $fatal(1, "hwprof_sync_fifo: Width must be >= 1");
    if (Depth < 1) $fatal(1, "hwprof_sync_fifo: Depth must be >= 1");
  end

  logic [Width-1:0]  mem_q [Depth];  // no reset: storage, may map to RAM
  logic [PtrW-1:0]   wptr_q, wptr_d, rptr_q, rptr_d;
  logic [CountW-1:0] count_q, count_d;

  logic push, pop;
  assign in_ready_o  = (count_q != CountW'(Depth));
  assign out_valid_o = (count_q != '0);
  assign out_data_o  = mem_q[rptr_q];
  assign count_o     = count_q;
  assign push        = in_valid_i & in_ready_o;
  assign pop         = out_valid_o & out_ready_i;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p);
    if (p == PtrW'(Depth - 1)) return '0;
    return p + PtrW'(1);
  endfunction

  always_comb begin
    wptr_d  = push ? ptr_inc(wptr_q) : wptr_q;
    rptr_d  = pop ? ptr_inc(rptr_q) : rptr_q;
    count_d = count_q + CountW'(push) - CountW'(pop);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      wptr_q  <= wptr_d;
      rptr_q  <= rptr_d;
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= in_data_i;
  end

  // Output handshake: once valid, stays valid with stable data until taken.
  `HWPROF_ASSERT(OutValidHeld, out_valid_o && !out_ready_i |=> out_valid_o)
  `HWPROF_ASSERT(OutDataHeld, out_valid_o && !out_ready_i |=> $stable(out_data_o))
  `HWPROF_ASSERT(CountInRange, count_q <= CountW'(Depth))

endmodule

`default_nettype wire
