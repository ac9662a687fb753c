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

  // Reference occupancy.
  logic [CountW:0] occ_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) occ_q <= '0;
    else occ_q <= occ_q + (CountW+1)'(push) - (CountW+1)'(pop);
  end

  // Tracked entries: *_in = in the queue, *_pos = entries ahead of it.
  logic a_in_q, a_done_q, b_in_q, b_done_q;
  logic [CountW:0] a_pos_q, b_pos_q;
  logic [Width-1:0] a_data_q, b_data_q;
  wire take_a = push && track_a_i && !a_in_q && !a_done_q;
  wire take_b = push && track_b_i && !take_a && (a_in_q || a_done_q) && !b_in_q && !b_done_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      a_in_q <= 1'b0; a_done_q <= 1'b0; b_in_q <= 1'b0; b_done_q <= 1'b0;
      a_pos_q <= '0; b_pos_q <= '0;
    end else begin
      if (take_a) begin
        a_in_q <= 1'b1;
        a_data_q <= in_data_i;
        a_pos_q <= occ_q - (CountW+1)'(pop);
      end else if (a_in_q && pop) begin
        if (a_pos_q == '0) begin
          a_in_q <= 1'b0;
          a_done_q <= 1'b1;
        end else a_pos_q <= a_pos_q - 1'b1;
      end
      if (take_b) begin
        b_in_q <= 1'b1;
        b_data_q <= in_data_i;
        b_pos_q <= occ_q - (CountW+1)'(pop);
      end else if (b_in_q && pop) begin
        if (b_pos_q == '0) begin
          b_in_q <= 1'b0;
          b_done_q <= 1'b1;
        end else b_pos_q <= b_pos_q - 1'b1;
      end
    end
  end

  always_comb begin
    if (rst_ni && !init_q) begin
      assert (occ_q <= (CountW+1)'(Depth));
      assert (count == occ_q[CountW-1:0]);
      assert (in_ready == (occ_q != (CountW+1)'(Depth)));
      assert (out_valid == (occ_q != '0));
      if (a_in_q) begin
        assert (a_pos_q < occ_q);
        if (a_pos_q == '0) assert (out_data == a_data_q);
      end
      if (b_in_q) begin
        assert (b_pos_q < occ_q);
        if (b_pos_q == '0) assert (out_data == b_data_q);
        if (a_in_q) assert (b_pos_q > a_pos_q);
        assert (a_in_q || a_done_q);
      end
    end
  end

  // Output held while not taken (and not cleared).
  always_ff @(posedge clk_i) begin
    if (!init_q && rst_ni && $past(rst_ni) && !$past(init_q)
        && $past(out_valid) && !$past(out_ready_i) && !$past(clear_i)) begin
      assert (out_valid);
      assert (out_data == $past(out_data));
    end
  end

  // Reachability: full, drained after full, both tracked entries out.
  always_comb begin
    if (rst_ni && !init_q) begin
      cover (occ_q == (CountW+1)'(Depth));
      cover (b_done_q);
    end
  end
endmodule

`default_nettype wire
