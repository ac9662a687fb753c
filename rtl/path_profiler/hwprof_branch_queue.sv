// hwprof_branch_queue: decouples the retire stage from the path profiler
// (paper 000 section 7.3). A hwprof_sync_fifo of hwprof_pkg::branch_rec_t.
//
// Handshakes: enq_* from the retire stage, deq_* to the classifier; a
// transfer happens when valid and ready are both high. enq_ready_o = !full,
// deq_valid_o = !empty, both registered; one record per clock sustained for
// Depth >= 2; latency from enqueue to dequeue is one clock. See
// docs/hwprof_branch_queue.md.
`default_nettype none

module hwprof_branch_queue #(
  /// Number of records held (>= 1; default 4 as in paper 000 Fig. 18).
  parameter int unsigned Depth = 4,
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  // Enqueue side (retire stage).
  input  wire logic                      enq_valid_i,
  output logic                           enq_ready_o,
  input  wire hwprof_pkg::branch_rec_t   enq_data_i,
  // Dequeue side (classifier / path stack).
  output logic                           deq_valid_o,
  input  wire logic                      deq_ready_i,
  output hwprof_pkg::branch_rec_t        deq_data_o,
  // Status: records held.
  output logic [CountW-1:0]              count_o
);

  hwprof_sync_fifo #(
    .Width(hwprof_pkg::BranchRecW),
    .Depth(Depth)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .in_valid_i (enq_valid_i),
    .in_ready_o (enq_ready_o),
    .in_data_i  (enq_data_i),
    .out_valid_o(deq_valid_o),
    .out_ready_i(deq_ready_i),
    .out_data_o (deq_data_o),
    .count_o
  );

endmodule

`default_nettype wire
