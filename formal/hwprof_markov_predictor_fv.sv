/// hwprof_markov_predictor_fv: formal harness of hwprof_markov_predictor
/// (make formal, formal/markov.sby, docs/verification.md). Through the ports:
/// the harness keeps a reference first-order Markov table written from the
/// specification (docs/phase.md) and checks every result against it:
///   * an update of phase p (upd_valid_i, no clear) trains the slot of the
///     previous update's phase q (since the last clear) with p, then
///     predicts the word of p's slot if that slot is trained, else p;
///   * the result follows one clock later (res_valid_o) with that
///     prediction; it is scored when an update happened since the last
///     clear, and correct when scored and the previous update's prediction
///     equals p;
///   * clear_i untrains every slot and forgets the previous update (an
///     update in the same cycle is ignored).
/// Entries 8 (two candidates per low index), IdW 4, the block RAM and the
/// LUT RAM forms, each with the trained bits in flip-flops (TrainRam 0) and
/// in a RAM of two 4-bit words with live bits (TrainRam 1, TrainW 4: the
/// RAM starts with arbitrary contents, so stale trained bits are checked);
/// bounded (the RAM words are not visible to an induction).
`default_nettype none

module hwprof_markov_predictor_fv #(
  parameter int unsigned Entries = 8,
  parameter int unsigned IdW = 4,
  parameter int unsigned LutRam = 0,
  parameter int unsigned TrainRam = 0,
  parameter int unsigned TrainW = 4
) (
  input wire logic           clk_i,
  input wire logic           rst_ni,
  input wire logic           clear_i,
  input wire logic           upd_valid_i,
  input wire logic [IdW-1:0] upd_phase_i
);
  localparam int unsigned IdxW = $clog2(Entries);

  logic           res_valid, res_scored, res_correct;
  logic [IdW-1:0] res_pred;

  hwprof_markov_predictor #(.Entries(Entries), .IdW(IdW), .LutRam(LutRam), .TrainRam(TrainRam), .TrainW(TrainW)) dut (
    .clk_i, .rst_ni, .clear_i, .upd_valid_i, .upd_phase_i,
    .res_valid_o(res_valid), .res_pred_o(res_pred), .res_scored_o(res_scored),
    .res_correct_o(res_correct));

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  // Reference table.
  logic [IdW-1:0]     ref_slot_q [Entries];
  logic [Entries-1:0] ref_trained_q;
  logic               ref_have_prev_q, ref_have_pred_q;
  logic [IdxW-1:0]    ref_prev_q;
  logic [IdW-1:0]     ref_last_pred_q;
  logic               exp_valid_q, exp_scored_q, exp_correct_q;
  logic [IdW-1:0]     exp_pred_q;

  wire             upd = upd_valid_i && !clear_i;
  wire [IdxW-1:0]  idx = upd_phase_i[IdxW-1:0];
  // The table after this update's training.
  logic            trained_now;
  logic [IdW-1:0]  word_now, pred_now;
  always_comb begin
    trained_now = ref_trained_q[idx];
    word_now = ref_slot_q[idx];
    if (ref_have_prev_q && ref_prev_q == idx) begin
      trained_now = 1'b1;
      word_now = upd_phase_i;
    end
    pred_now = trained_now ? word_now : upd_phase_i;
  end

  always_ff @(posedge clk_i) begin
    if (upd && ref_have_prev_q) ref_slot_q[ref_prev_q] <= upd_phase_i;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ref_trained_q <= '0;
      ref_have_prev_q <= 1'b0;
      ref_have_pred_q <= 1'b0;
      exp_valid_q <= 1'b0;
    end else begin
      exp_valid_q <= upd;
      if (clear_i) begin
        ref_trained_q <= '0;
        ref_have_prev_q <= 1'b0;
        ref_have_pred_q <= 1'b0;
      end else if (upd) begin
        if (ref_have_prev_q) ref_trained_q[ref_prev_q] <= 1'b1;
        ref_have_prev_q <= 1'b1;
        ref_prev_q <= idx;
        ref_have_pred_q <= 1'b1;
        ref_last_pred_q <= pred_now;
        exp_pred_q <= pred_now;
        exp_scored_q <= ref_have_pred_q;
        exp_correct_q <= ref_have_pred_q && ref_last_pred_q == upd_phase_i;
      end
    end
  end

  always_comb begin
    if (!init_q) begin
      assert (res_valid == exp_valid_q);
      if (exp_valid_q) begin
        assert (res_pred == exp_pred_q);
        assert (res_scored == exp_scored_q);
        assert (res_correct == exp_correct_q);
      end
    end
  end

  // Reachability: a correct prediction from a trained slot of the other
  // candidate group, and one after a clear.
  logic cleared_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cleared_q <= 1'b0;
    else if (clear_i) cleared_q <= 1'b1;
  end
  always_comb begin
    if (!init_q) begin
      cover (exp_valid_q && exp_correct_q && exp_pred_q != '0);
      cover (cleared_q && exp_valid_q && exp_correct_q);
    end
  end
endmodule

`default_nettype wire
