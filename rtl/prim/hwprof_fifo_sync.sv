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
///   * NPush = 2: two write ports, for a producer that makes up to two entries
///     per clock (hwprof_rvfi_ingress with two retirement channels). Port k
///     carries the (k+1)-th entry of the cycle in order: in_valid_i[1] only
///     with in_valid_i[0] (assertion in_valid_compact). in_ready_o[k] = room
///     for k+1 entries (count_o <= Depth - k - 1, registered), so with one
///     free slot entry 0 enters and entry 1 is refused; entry 0 is written at
///     the write pointer, entry 1 after it. Ports are vectors of NPush; with
///     NPush = 1 they are one bit / Width bits wide as before.
/// The storage array has no reset (it maps to RAM); pointers and count do.
/// With NPush = 2 the array has two write ports (flip-flops, not RAM):
/// meant for small depths, and only with RamRead = 0.
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
  /// Entries that can be pushed per clock (1 or 2; 2 only with RamRead = 0).
  parameter int unsigned NPush = 1,
  /// Width of the occupancy output.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic              clk_i,
  /// Asynchronous reset, active low (empties the queue).
  input  wire logic              rst_ni,
  /// Synchronous clear (empties the queue; wins over a push).
  input  wire logic              clear_i,
  /// Write side: bit k: a (k+1)-th entry is offered (bit 1 only with bit 0).
  input  wire logic [NPush-1:0]       in_valid_i,
  /// Write side: bit k: the queue has room for k+1 entries (registered).
  output logic [NPush-1:0]            in_ready_o,
  /// Write side: entry k in bits k*Width +: Width (entry 0 the older).
  input  wire logic [NPush*Width-1:0] in_data_i,
  /// Read side: the queue holds an entry.
  output logic                   out_valid_o,
  /// Read side: the oldest entry is taken at the edge.
  input  wire logic              out_ready_i,
  /// Read side: the oldest entry (meaningful with out_valid_o).
  output logic [Width-1:0]       out_data_o,
  /// Occupancy (registered).
  output logic [CountW-1:0]      count_o
);

  `HWPROF_ASSERT_INIT(params_legal, Width >= 1 && Depth >= 1 && RamRead <= 1 && NPush >= 1 && NPush <= 2 &&
                                    (NPush == 1 || RamRead == 0))

  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0]  mem_q [Depth];  // no reset: storage, maps to RAM (NPush = 1)
  logic [PtrW-1:0]   wptr_q, wptr_d, rptr_q, rptr_d;
  logic [PtrW-1:0]   wptr_n [NPush];  // the slot of entry k: wptr_q + k (wrapped)
  logic [CountW-1:0] count_q, count_d;
  logic [NPush-1:0]  push;            // entry k enters
  logic [1:0]        n_push;          // entries entering
  logic              pop;

  assign out_valid_o = (count_q != '0);
  assign count_o     = count_q;
  assign pop         = out_valid_o & out_ready_i;
  for (genvar k = 0; k < NPush; k++) begin : gen_push
    // Room for k+1 entries: count <= Depth - k - 1 (never for k >= Depth).
    if (k == 0) begin : gen_first
      assign in_ready_o[k] = (count_q != CountW'(Depth));
      assign wptr_n[k]     = wptr_q;
    end else begin : gen_next
      assign in_ready_o[k] = (32'(count_q) + 32'(k) < 32'(Depth));
      assign wptr_n[k]     = PtrW'(hwprof_prim_pkg::wrap_inc(64'(wptr_q), Depth));  // k = 1 (NPush <= 2)
    end
    assign push[k] = in_valid_i[k] & in_ready_o[k];
  end

  always_comb begin
    n_push = '0;
    for (int k = 0; k < NPush; k++) n_push = n_push + 2'(push[k]);
  end

  always_comb begin
    if (clear_i) begin
      wptr_d  = '0;
      rptr_d  = '0;
      count_d = '0;
    end else begin
      wptr_d = wptr_q;
      for (int k = 0; k < NPush; k++) begin
        if (push[k]) wptr_d = PtrW'(hwprof_prim_pkg::wrap_inc(64'(wptr_n[k]), Depth));
      end
      rptr_d  = pop ? PtrW'(hwprof_prim_pkg::wrap_inc(64'(rptr_q), Depth)) : rptr_q;
      if (NPush == 1) begin  // as an up/down counter: no adder in front of in_ready
        count_d = count_q;
        if (push[0] && !pop) count_d = count_q + CountW'(1);
        else if (pop && !push[0]) count_d = count_q - CountW'(1);
      end else begin
        count_d = count_q + CountW'(n_push) - CountW'(pop);
      end
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
    for (int k = 0; k < NPush; k++) begin
      if (push[k] && !clear_i) mem_q[wptr_n[k]] <= in_data_i[k*Width +: Width];
    end
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
  if (NPush == 2) begin : gen_compact
    `HWPROF_ASSERT(in_valid_compact, !in_valid_i[1] || in_valid_i[0])
  end
  `HWPROF_ASSERT_KNOWN(out_valid_known, out_valid_o)
  `HWPROF_ASSERT_KNOWN(out_data_known, out_valid_o ? out_data_o : '0)

endmodule

`default_nettype wire
