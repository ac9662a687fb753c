/// hwprof_branch_queue_fv: formal harness of hwprof_branch_queue (make formal,
/// formal/branch_queue.sby, docs/verification.md). Checked through the ports
/// only (the slang front end does not honour hierarchical references into
/// the design). Inputs are free; the harness keeps a reference occupancy and
/// tracks two arbitrary records A and B (picked by the solver with track_a_i
/// / track_b_i at an enqueue, B after A) and asserts:
///   * ready/valid rules: enq_ready_o = (occupancy != Depth) (so one record
///     per clock is taken whenever the queue is not full), deq_valid_o =
///     (occupancy != 0), count_o = occupancy; a record enqueued into an empty
///     queue is offered on the next clock (latency 1);
///   * no loss, duplication or reordering: a tracked record reaches the head
///     after exactly the records enqueued before it have been dequeued, with
///     all its fields, and leaves with the next dequeue; B never leaves
///     before A;
///   * the offered record holds (valid and data) until it is taken.
/// Immediate assertions with $past-style registers only.
`default_nettype none

module hwprof_branch_queue_fv #(
  parameter int unsigned Depth = 4,
  /// 1: records differ only in their low 4 bits (the solver time grows fast
  /// with the width of the stored words); the Depth 1 task keeps every bit,
  /// so every field is checked end to end there.
  parameter bit Narrow = 0
) (
  input wire logic                    clk_i,
  input wire logic                    rst_ni,
  input wire logic                    enq_valid_i,
  input wire hwprof_pkg::branch_rec_t enq_data_i,
  input wire logic                    deq_ready_i,
  input wire logic                    track_a_i,
  input wire logic                    track_b_i
);
  localparam int unsigned CountW = $clog2(Depth + 1);
  localparam int unsigned W = hwprof_pkg::BranchRecW;

  logic enq_ready, deq_valid;
  hwprof_pkg::branch_rec_t deq_data;
  logic [CountW-1:0] count;

  hwprof_branch_queue #(.Depth(Depth)) dut (
    .clk_i, .rst_ni, .enq_valid_i, .enq_ready_o(enq_ready), .enq_data_i,
    .deq_valid_o(deq_valid), .deq_ready_i, .deq_data_o(deq_data), .count_o(count));

  // Reset in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  if (Narrow) begin : gen_narrow
    always_comb assume (enq_data_i[W-1:4] == '0);
  end

  wire enq = enq_valid_i && enq_ready;
  wire deq = deq_valid && deq_ready_i;

  // Reference occupancy and two tracked records (hwprof_fv_queue_ref).
  logic [CountW:0] occ_q;
  hwprof_fv_queue_ref #(.Width(W), .Depth(Depth)) ref_q (
    .clk_i, .flush_i(!rst_ni), .check_i(rst_ni && !init_q),
    .push_i(enq), .push_data_i(enq_data_i), .pop_i(deq), .track_a_i, .track_b_i,
    .count_i(count), .in_ready_i(enq_ready), .out_valid_i(deq_valid), .out_data_i(deq_data), .occ_o(occ_q));

  // Held until taken; latency 1 into an empty queue.
  logic past_ok_q, past_hold_q, past_enq_empty_q;
  hwprof_pkg::branch_rec_t past_data_q, past_enq_data_q;
  always_ff @(posedge clk_i) begin
    past_ok_q        <= rst_ni && !init_q;
    past_hold_q      <= deq_valid && !deq_ready_i;
    past_data_q      <= deq_data;
    past_enq_empty_q <= enq && occ_q == '0;
    past_enq_data_q  <= enq_data_i;
  end
  always_comb begin
    if (rst_ni && !init_q && past_ok_q) begin
      if (past_hold_q) begin
        assert (deq_valid);
        assert (deq_data == past_data_q);
      end
      if (past_enq_empty_q) begin
        assert (deq_valid);
        assert (deq_data == past_enq_data_q);
      end
    end
  end

endmodule

`default_nettype wire
