// hwprof_rap_event_queue: the RAP engine's event queue (docs/rap_engine.md, "Event
// queue"; paper 001 Fig. 6): a synchronous FIFO of raw events that absorbs
// the engine's split and merge stalls. Same cycle behaviour as
// rtl/common/hwprof_sync_fifo.sv plus a synchronous clear:
//   * in_ready_o = (count != Depth), registered; out_valid_o = (count != 0),
//     out_data_o = the oldest entry;
//   * a push and a pop in the same cycle both happen;
//   * a pushed entry is visible on the output one cycle later at the earliest;
//   * clear_i empties the queue at the edge (a push of the same cycle is
//     dropped; clear wins).
// The storage array has no reset and maps to block RAM: it is read at
// raddr_q, a copy of the read pointer kept in a register without reset, which
// synthesis folds into the RAM's read-address register (the pointer itself
// has an asynchronous reset, which a block RAM address register does not
// have; reading at rptr_q mapped 1024 x 48 to 49k flip-flops on iCE40). A
// push into the entry being read is forwarded by synthesis (transparent read),
// so the cycle behaviour above is unchanged.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_rap_event_queue #(
  /// Width of one entry in bits.
  parameter int unsigned Width = 48,
  /// Number of entries (>= 2).
  parameter int unsigned Depth = 1024,
  /// Width of the occupancy.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Asynchronous reset, active low.
  input  wire logic             rst_ni,
  /// Synchronous clear (empties the queue).
  input  wire logic             clear_i,
  /// Write side: an entry is offered.
  input  wire logic             in_valid_i,
  /// Write side: the queue has room (registered).
  output logic                  in_ready_o,
  /// Write side: the entry.
  input  wire logic [Width-1:0] in_data_i,
  /// Read side: the queue holds an entry.
  output logic                  out_valid_o,
  /// Read side: the oldest entry is taken at the edge.
  input  wire logic             out_ready_i,
  /// Read side: the oldest entry.
  output logic [Width-1:0]      out_data_o
);

  localparam int unsigned PtrW = $clog2(Depth);

  initial begin
    if (Depth < 2) $fatal(1, "hwprof_rap_event_queue: Depth must be >= 2");
  end

  logic [Width-1:0]  mem_q [Depth];
  logic [PtrW-1:0]   wptr_q, rptr_q, rptr_d;
  // Read address: the read pointer after each edge, in a register without
  // reset, so synthesis folds it into a block RAM's read-address register
  // (iCE40 EBR, ECP5 DP16KD). It equals rptr_q after every clock edge (also
  // an edge in reset: rptr_d is 0 there); between an asynchronous reset and
  // the next edge it may differ, but the queue is empty then.
  logic [PtrW-1:0]   raddr_q;
  logic [CountW-1:0] count_q;
  logic              push, pop;

  assign in_ready_o  = (count_q != CountW'(Depth));
  assign out_valid_o = (count_q != '0);
  assign out_data_o  = mem_q[raddr_q];
  assign push        = in_valid_i & in_ready_o;
  assign pop         = out_valid_o & out_ready_i;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p);
    if (p == PtrW'(Depth - 1)) return '0;
    return p + PtrW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else if (clear_i) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) wptr_q <= ptr_inc(wptr_q);
      rptr_q <= rptr_d;
      if (push && !pop) count_q <= count_q + CountW'(1);
      else if (pop && !push) count_q <= count_q - CountW'(1);
    end
  end

  always_comb begin
    rptr_d = rptr_q;
    if (clear_i) rptr_d = '0;
    else if (pop) rptr_d = ptr_inc(rptr_q);
  end

  always_ff @(posedge clk_i) begin
    if (push && !clear_i) mem_q[wptr_q] <= in_data_i;
    raddr_q <= rptr_d;
  end

  `HWPROF_ASSERT(count_in_range, count_q <= CountW'(Depth))
  `HWPROF_ASSERT(raddr_follows_rptr, !out_valid_o || raddr_q == rptr_q)

endmodule

`default_nettype wire
