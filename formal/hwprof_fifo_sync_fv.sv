/// hwprof_fifo_sync_fv: formal harness of hwprof_fifo_sync (make formal,
/// docs/verification.md). Inputs are free; the harness keeps a reference
/// occupancy and tracks two arbitrary entries A and B (chosen by the solver
/// through track_a_i / track_b_i at a push, B after A), and asserts:
///   * full and empty exact: in_ready_o = (occupancy != Depth), out_valid_o =
///     (occupancy != 0), count_o = occupancy;
///   * no loss, duplication or reordering: a tracked entry reaches the head
///     after exactly the entries pushed before it have been popped, with its
///     data, and leaves with the next pop; B never leaves before A;
///   * the output holds while not taken.
/// Immediate assertions with $past only (the slang front end rejects SVA
/// sequences). Checked bounded (fifo_sync.sby: depth 14 from reset, more
/// than the 4 + 4 + 3 cycles that reach every pointer rotation of a full
/// 4-entry queue): k-induction needs invariants on the storage, and
/// hierarchical references into the design are not supported by the
/// front end.
`default_nettype none

module hwprof_fifo_sync_fv #(
  parameter int unsigned Width = 4,
  parameter int unsigned Depth = 4,
  parameter int unsigned RamRead = 0
) (
  input wire logic             clk_i,
  input wire logic             rst_ni,
  input wire logic             clear_i,
  input wire logic             in_valid_i,
  input wire logic [Width-1:0] in_data_i,
  input wire logic             out_ready_i,
  input wire logic             track_a_i,
  input wire logic             track_b_i
);
  localparam int unsigned CountW = $clog2(Depth + 1);

  logic in_ready, out_valid;
  logic [Width-1:0] out_data;
  logic [CountW-1:0] count;

  hwprof_fifo_sync #(.Width(Width), .Depth(Depth), .RamRead(RamRead)) dut (
    .clk_i, .rst_ni, .clear_i, .in_valid_i, .in_ready_o(in_ready), .in_data_i,
    .out_valid_o(out_valid), .out_ready_i, .out_data_o(out_data), .count_o(count));

  // Reset in the first cycle, none later (a reset behaves like a clear,
  // which stays free).
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  wire push = in_valid_i && in_ready;
  wire pop  = out_valid && out_ready_i;

  // Reference occupancy and two tracked entries (hwprof_fv_queue_ref).
  logic [CountW:0] occ;
  hwprof_fv_queue_ref #(.Width(Width), .Depth(Depth)) ref_q (
    .clk_i, .flush_i(!rst_ni || clear_i), .check_i(rst_ni && !init_q),
    .push_i(push), .push_data_i(in_data_i), .pop_i(pop), .track_a_i, .track_b_i,
    .count_i(count), .in_ready_i(in_ready), .out_valid_i(out_valid), .out_data_i(out_data), .occ_o(occ));

  // Output held while not taken (and not cleared).
  always_ff @(posedge clk_i) begin
    if (!init_q && rst_ni && $past(rst_ni) && !$past(init_q)
        && $past(out_valid) && !$past(out_ready_i) && !$past(clear_i)) begin
      assert (out_valid);
      assert (out_data == $past(out_data));
    end
  end

endmodule

`default_nettype wire
