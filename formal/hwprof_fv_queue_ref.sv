/// hwprof_fv_queue_ref: the reference a formal harness keeps beside any
/// first-in first-out queue (make formal, docs/verification.md); used by
/// hwprof_fifo_sync_fv and hwprof_branch_queue_fv. It counts the queue's
/// occupancy from the accepted pushes and pops, tracks two arbitrary entries
/// A and B (picked by the solver through track_a_i / track_b_i at a push, B
/// after A), and asserts while check_i is high:
///   * full and empty exact: in_ready_i = (occupancy != Depth), out_valid_i =
///     (occupancy != 0), count_i = occupancy;
///   * no loss, duplication or reordering: a tracked entry reaches the head
///     after exactly the entries pushed before it have been popped, with its
///     data, and leaves with the next pop; B never leaves before A.
/// Covers: the queue full, and B popped (both tracked entries went through).
/// Immediate assertions only (the slang front end rejects SVA sequences).
`default_nettype none

module hwprof_fv_queue_ref #(
  /// Width of an entry.
  parameter int unsigned Width = 4,
  /// Entries of the queue.
  parameter int unsigned Depth = 4,
  /// Width of the queue's count output.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic              clk_i,
  /// Empties the reference and forgets the tracked entries (reset, clear).
  input  wire logic              flush_i,
  /// Assertions and covers apply in this cycle.
  input  wire logic              check_i,
  /// An entry is accepted in this cycle ...
  input  wire logic              push_i,
  /// ... with this data.
  input  wire logic [Width-1:0]  push_data_i,
  /// The head entry leaves in this cycle.
  input  wire logic              pop_i,
  /// Track the entry pushed now as A (once).
  input  wire logic              track_a_i,
  /// Track the entry pushed now as B (once, after A).
  input  wire logic              track_b_i,
  // The queue's outputs.
  /// Its count output.
  input  wire logic [CountW-1:0] count_i,
  /// Its ready (not full).
  input  wire logic              in_ready_i,
  /// Its valid (not empty).
  input  wire logic              out_valid_i,
  /// Its head entry.
  input  wire logic [Width-1:0]  out_data_i,
  /// The reference occupancy.
  output logic [CountW:0]        occ_o
);

  logic [CountW:0] occ_q;
  always_ff @(posedge clk_i) begin
    if (flush_i) occ_q <= '0;
    else occ_q <= occ_q + (CountW+1)'(push_i) - (CountW+1)'(pop_i);
  end
  assign occ_o = occ_q;

  // Tracked entries: *_in = in the queue, *_pos = entries ahead of it.
  logic a_in_q, a_done_q, b_in_q, b_done_q;
  logic [CountW:0] a_pos_q, b_pos_q;
  logic [Width-1:0] a_data_q, b_data_q;
  wire take_a = push_i && track_a_i && !a_in_q && !a_done_q;
  wire take_b = push_i && track_b_i && !take_a && (a_in_q || a_done_q) && !b_in_q && !b_done_q;

  always_ff @(posedge clk_i) begin
    if (flush_i) begin
      a_in_q <= 1'b0; a_done_q <= 1'b0; b_in_q <= 1'b0; b_done_q <= 1'b0;
      a_pos_q <= '0; b_pos_q <= '0;
    end else begin
      if (take_a) begin
        a_in_q <= 1'b1;
        a_data_q <= push_data_i;
        a_pos_q <= occ_q - (CountW+1)'(pop_i);
      end else if (a_in_q && pop_i) begin
        if (a_pos_q == '0) begin
          a_in_q <= 1'b0;
          a_done_q <= 1'b1;
        end else a_pos_q <= a_pos_q - 1'b1;
      end
      if (take_b) begin
        b_in_q <= 1'b1;
        b_data_q <= push_data_i;
        b_pos_q <= occ_q - (CountW+1)'(pop_i);
      end else if (b_in_q && pop_i) begin
        if (b_pos_q == '0) begin
          b_in_q <= 1'b0;
          b_done_q <= 1'b1;
        end else b_pos_q <= b_pos_q - 1'b1;
      end
    end
  end

  always_comb begin
    if (check_i) begin
      assert (occ_q <= (CountW+1)'(Depth));
      assert (count_i == occ_q[CountW-1:0]);
      assert (in_ready_i == (occ_q != (CountW+1)'(Depth)));
      assert (out_valid_i == (occ_q != '0));
      if (a_in_q) begin
        assert (a_pos_q < occ_q);
        if (a_pos_q == '0) assert (out_data_i == a_data_q);
      end
      if (b_in_q) begin
        assert (b_pos_q < occ_q);
        if (b_pos_q == '0) assert (out_data_i == b_data_q);
        if (a_in_q) assert (b_pos_q > a_pos_q);
        assert (a_in_q || a_done_q);
      end
      // Reachability: full, and both tracked entries out.
      cover (occ_q == (CountW+1)'(Depth));
      cover (b_done_q);
    end
  end

endmodule

`default_nettype wire
