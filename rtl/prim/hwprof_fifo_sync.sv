/// hwprof_fifo_sync: synchronous first-in first-out queue with valid/ready on
/// both sides and a synchronous clear. Replaced the former
/// hwprof_sync_fifo (clear_i tied to 0, RamRead = 0) and
/// hwprof_rap_event_queue (RamRead = 1) with identical cycle behaviour
/// (model: sim_models/common/sync_fifo.h, hwprof::model::SyncFifo):
///   * in_ready_o  = (count_o != Depth): registered, never depends on
///     out_ready_i, so a full queue does not accept an entry in the cycle it
///     is drained.
///   * out_valid_o = (count_o != 0), out_data_o = the oldest entry.
///   * A push (in_valid_i & in_ready_o) and a pop (out_valid_o & out_ready_i)
///     in the same cycle both happen; the count is unchanged.
///   * An entry pushed at edge t is visible on the output after edge t at the
///     earliest (no fall-through); Depth >= 2 sustains one entry per clock.
///   * clear_i empties the queue at the edge; it wins over a push and a pop
///     of the same cycle (the pushed entry is dropped).
/// The storage array has no reset (it maps to RAM); pointers and count do.
/// RamRead = 0 reads mem_q[rptr_q] (distributed RAM / flip-flops, for small
/// depths). RamRead = 1 reads mem_q[raddr_q], raddr_q being a copy of the
/// next read pointer in a register without reset, which synthesis folds into
/// a block RAM's read-address register (iCE40 EBR, ECP5 DP16KD); it equals
/// rptr_q after every edge (also an edge in reset, where the next pointer is
/// 0). A push into the entry being read is forwarded by synthesis
/// (transparent read), so the cycle behaviour is the same as RamRead = 0.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_fifo_sync #(
  /// Width of one entry in bits (>= 1).
  parameter int unsigned Width = 8,
  /// Number of entries (>= 1).
  parameter int unsigned Depth = 4,
  /// 1: read through a reset-free address register (block RAM); 0: read at
  /// the read pointer.
  parameter int unsigned RamRead = 0,
  /// Width of the occupancy output.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic              clk_i,
  /// Asynchronous reset, active low (empties the queue).
  input  wire logic              rst_ni,
  /// Synchronous clear (empties the queue; wins over a push).
  input  wire logic              clear_i,
  /// Write side: an entry is offered.
  input  wire logic              in_valid_i,
  /// Write side: the queue has room (registered).
  output logic                   in_ready_o,
  /// Write side: the entry.
  input  wire logic [Width-1:0]  in_data_i,
  /// Read side: the queue holds an entry.
  output logic                   out_valid_o,
  /// Read side: the oldest entry is taken at the edge.
  input  wire logic              out_ready_i,
  /// Read side: the oldest entry (meaningful with out_valid_o).
  output logic [Width-1:0]       out_data_o,
  /// Occupancy (registered).
  output logic [CountW-1:0]      count_o
);

  `HWPROF_ASSERT_INIT(params_legal, Width >= 1 && Depth >= 1 && RamRead <= 1)

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0]  mem_q [Depth];  // no reset: storage, maps to RAM
  logic [PtrW-1:0]   wptr_q, wptr_d, rptr_q, rptr_d;
  logic [CountW-1:0] count_q, count_d;
  logic              push, pop;

  assign in_ready_o  = (count_q != CountW'(Depth));
  assign out_valid_o = (count_q != '0);
  assign count_o     = count_q;
  assign push        = in_valid_i & in_ready_o;
  assign pop         = out_valid_o & out_ready_i;

  always_comb begin
    if (clear_i) begin
      wptr_d  = '0;
      rptr_d  = '0;
      count_d = '0;
    end else begin
      wptr_d  = push ? PtrW'(hwprof_prim_pkg::wrap_inc(64'(wptr_q), Depth)) : wptr_q;
      rptr_d  = pop ? PtrW'(hwprof_prim_pkg::wrap_inc(64'(rptr_q), Depth)) : rptr_q;
      count_d = count_q;
      if (push && !pop) count_d = count_q + CountW'(1);
      else if (pop && !push) count_d = count_q - CountW'(1);
    end
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
    if (push && !clear_i) mem_q[wptr_q] <= in_data_i;
  end

  if (RamRead != 0) begin : gen_ram_read
    logic [PtrW-1:0] raddr_q;  // no reset: the block RAM's address register
    always_ff @(posedge clk_i) raddr_q <= rptr_d;
    assign out_data_o = mem_q[raddr_q];
    `HWPROF_ASSERT(raddr_follows_rptr, !out_valid_o || raddr_q == rptr_q)
  end else begin : gen_ptr_read
    assign out_data_o = mem_q[rptr_q];
  end

  // Output handshake: once valid, stays valid with stable data until taken
  // or cleared.
  `HWPROF_ASSERT(out_valid_held, out_valid_o && !out_ready_i && !clear_i |=> out_valid_o)
  `HWPROF_ASSERT(out_data_held, out_valid_o && !out_ready_i && !clear_i |=> $stable(out_data_o))
  `HWPROF_ASSERT(count_in_range, count_q <= CountW'(Depth))
  `HWPROF_ASSERT_KNOWN(out_valid_known, out_valid_o)
  `HWPROF_ASSERT_KNOWN(out_data_known, out_valid_o ? out_data_o : '0)

endmodule

`default_nettype wire
