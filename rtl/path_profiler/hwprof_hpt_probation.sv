// hwprof_hpt_probation: the probation area of the Hot Path Table's `lfu+prob`
// policy (docs/hpt.md, "Candidate policies" and "Probation area in
// hardware"; HptAlgo::probation_add in sim_models/path_profiler/hpt_algo.cpp).
// Instantiated by hwprof_hpt when ProbSets > 0; it runs beside the table's
// pipeline stage for stage (S0 accept, S1 RAM output, S2 merge, S3 decide,
// w1 write) and adds no stage and no stall.
//
// Storage: ProbSets rows of ProbWays entries {fingerprint (FpBits), count
// (CountBits)}, count 0 = empty, in one hwprof_ram_2p (ProbSets words of
// ProbWays x (FpBits + CountBits) bits, block RAM, no reset). A key's row is
// the index fold (plb) to log2(ProbSets) bits with the skewed rotations of
// way 5 (HptAlgo::probation_set), its fingerprint the same fold to FpBits
// bits with the rotations of way 3 (HptAlgo::fingerprint). A row is always
// written whole, so clear and reset take one cycle: fresh_q (one flop per
// row) says the row was written since; a stale row reads as empty.
//
// Update (only for a miss with a full set under lfu+prob, decided in S3 by
// hwprof_hpt): the lowest non-empty entry with the key's fingerprint adds
// the metric m; else the lowest entry with the minimum count (an empty one
// first) takes the fingerprint and adds m to the count it had; counts
// saturate at 2^CountBits - 1. s3_count_o is that new count c; hwprof_hpt
// compares it with the victim's accumulator. On admission (admit_i) the
// entry's count is written 0 (emptied), else c.
//
// Forwarding: the row read at acceptance (edge t) misses the row writes
// L(t-1) (landing at t: the read collides), L(t), L(t+1), L(t+2). Each
// write carries the whole row, so a match (same row, compared at
// acceptance) replaces the row: m4, m3, m2 in S2 from the write history
// (w3, w2, w1), m1 in S3 from w1. A clear kills the write of its edge and
// every flag in flight, and empties the row of every descriptor in S1..S2.
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_hpt_probation #(
  /// Rows (a power of two, 1..4096).
  parameter int unsigned ProbSets = 128,
  /// Entries per row (1..16).
  parameter int unsigned ProbWays = 4,
  /// Fingerprint bits (1..16).
  parameter int unsigned FpBits = 12,
  /// Count bits (1..32).
  parameter int unsigned CountBits = 14,
  /// Width of the metric.
  parameter int unsigned MetricW = 24
) (
  /// Clock.
  input  wire logic                 clk_i,
  /// Asynchronous active-low reset: every row empty.
  input  wire logic                 rst_ni,
  /// A descriptor is accepted this cycle (S0).
  input  wire logic                 go_i,
  /// Its key: path start address.
  input  wire logic [31:0]          start_i,
  /// Its key: branches on the path.
  input  wire logic [5:0]           length_i,
  /// Its key: directions.
  input  wire logic [31:0]          dirs_i,
  /// CMD.clear at this edge: every row empty, the write of this edge killed.
  input  wire logic                 clear_i,
  /// The metric of the descriptor in S3.
  input  wire logic [MetricW-1:0]   s3_metric_i,
  /// S3: the count of the descriptor's probation entry after adding the metric.
  output logic [CountBits-1:0]      s3_count_o,
  /// S3: the descriptor updates its probation row at this edge.
  input  wire logic                 we_i,
  /// With we_i: the path entered the table (its entry is emptied).
  input  wire logic                 admit_i
);

  initial begin
    if (ProbSets < 1 || ProbSets > 4096 || (ProbSets & (ProbSets - 1)) != 0)
      $fatal(1, "hwprof_hpt_probation: ProbSets must be a power of two in 1..4096");
    if (ProbWays < 1 || ProbWays > 16) $fatal(1, "hwprof_hpt_probation: ProbWays must be 1..16");
    if (FpBits < 1 || FpBits > 16) $fatal(1, "hwprof_hpt_probation: FpBits must be 1..16");
    if (CountBits < 1 || CountBits > 32) $fatal(1, "hwprof_hpt_probation: CountBits must be 1..32");
  end

  localparam int unsigned PSetBits = $clog2(ProbSets);
  localparam int unsigned PSetW = (ProbSets > 1) ? PSetBits : 1;
  localparam int unsigned EntW = FpBits + CountBits;
  localparam int unsigned RowW = ProbWays * EntW;
  localparam int unsigned FoldW = 68;
  localparam int unsigned SumW = ((CountBits > MetricW) ? CountBits : MetricW) + 1;
  localparam logic [CountBits-1:0] CountMax = '1;

  typedef struct packed {
    logic [FpBits-1:0]    fp;
    logic [CountBits-1:0] cnt;
  } ent_t;
  typedef ent_t [ProbWays-1:0] row_t;

  // ---------------------------------------------------------------------
  // S0: row and fingerprint folds (docs/hpt.md, "Index": v cut into chunks
  // of B bits, chunk c rotated left by w*c mod B, XORed), always plb.

  logic [FoldW-1:0] fold_v;
  assign fold_v = {dirs_i, length_i, start_i[31:2]};

  function automatic logic [15:0] fold(logic [FoldW-1:0] v, int unsigned b, int unsigned way);
    logic [15:0] acc;
    acc = '0;
    for (int unsigned c = 0; c * b < FoldW; c++) begin
      for (int unsigned i = 0; i < b; i++) begin
        if (c * b + i < FoldW) acc[(i + way * c) % b] = acc[(i + way * c) % b] ^ v[c * b + i];
      end
    end
    return acc;
  endfunction

  logic [PSetW-1:0]  in_pidx;
  logic [FpBits-1:0] in_fp;
  logic [15:0]       pidx_full, fp_full;
  if (PSetBits == 0) begin : gen_pidx_one
    assign pidx_full = '0;
  end else begin : gen_pidx_fold
    assign pidx_full = fold(fold_v, PSetBits, 5);
  end
  assign fp_full   = fold(fold_v, FpBits, 3);
  assign in_pidx   = PSetW'(pidx_full);
  assign in_fp     = fp_full[FpBits-1:0];

  // ---------------------------------------------------------------------
  // State.

  logic [ProbSets-1:0] fresh_q;
  logic [PSetW-1:0]    s1_pidx_q, s2_pidx_q, s3_pidx_q;
  logic [FpBits-1:0]   s1_fp_q, s2_fp_q, s3_fp_q;
  logic                s1_e3_q, s1_e2_q, s1_e1_q, s2_e2_q, s2_e1_q, s3_e1_q;
  logic                s1_m4_q, s2_m4_q, s2_m3_q;
  row_t                s2_row_q, s3_row_q;
  logic                w1_en_q;
  logic [PSetW-1:0]    w1_addr_q;
  row_t                w1_row_q, w2_row_q, w3_row_q;

  logic in_m4;
  assign in_m4 = w1_en_q && (in_pidx == w1_addr_q) && !clear_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_m4_q <= 1'b0;
      s2_m4_q <= 1'b0;
      s2_m3_q <= 1'b0;
      w1_en_q <= 1'b0;
    end else begin
      s1_m4_q <= go_i && in_m4;
      s2_m4_q <= s1_m4_q && !clear_i;
      // w1 holds L(t) now.
      s2_m3_q <= w1_en_q && s1_e3_q && !clear_i;
      w1_en_q <= we_i && !clear_i;
    end
  end

  always_ff @(posedge clk_i) begin
    s1_pidx_q <= in_pidx;
    if (go_i) begin
      s1_fp_q <= in_fp;
      s1_e3_q <= (in_pidx == s3_pidx_q);
      s1_e2_q <= (in_pidx == s2_pidx_q);
      s1_e1_q <= (in_pidx == s1_pidx_q);
    end
    s2_pidx_q <= s1_pidx_q;
    s3_pidx_q <= s2_pidx_q;
    s2_fp_q   <= s1_fp_q;
    s3_fp_q   <= s2_fp_q;
    s2_e2_q   <= s1_e2_q;
    s2_e1_q   <= s1_e1_q;
    s3_e1_q   <= s2_e1_q;
  end

  // ---------------------------------------------------------------------
  // RAM: read at acceptance, written whole from w1.

  row_t ram_rdata;
  hwprof_ram_2p #(
    .Depth(ProbSets),
    .Width(RowW),
    .GranW(RowW)
  ) u_ram (
    .clk_i,
    .wmask_i(w1_en_q),
    .waddr_i(w1_addr_q),
    .wdata_i(w1_row_q),
    .re_i   (1'b1),
    .raddr_i(in_pidx),
    .rdata_o(ram_rdata)
  );

  // S1: a stale row (or one cleared at this edge) is empty.
  always_ff @(posedge clk_i) begin
    s2_row_q <= (fresh_q[s1_pidx_q] && !clear_i) ? ram_rdata : '0;
  end

  // S2: the writes L(t+1) (w1), L(t) (w2), L(t-1) (w3), most recent first.
  logic s2_m2;
  row_t row2;
  assign s2_m2 = w1_en_q && s2_e2_q;
  assign row2  = s2_m2 ? w1_row_q : s2_m3_q ? w2_row_q : s2_m4_q ? w3_row_q : s2_row_q;

  always_ff @(posedge clk_i) begin
    s3_row_q <= clear_i ? '0 : row2;
  end

  // ---------------------------------------------------------------------
  // S3: the write L(t+2) (w1) merged, then the entry: the lowest non-empty
  // way with the fingerprint, else the lowest way with the minimum count.

  logic                                m1;
  row_t                                row3;
  logic [ProbWays-1:0]                 match, match_oh, min_oh, sel;
  logic [ProbWays-1:0][ProbWays-1:0]   beat;
  logic [CountBits-1:0]                old_cnt;
  logic [SumW-1:0]                     sum;
  logic [CountBits-1:0]                cnt_new;
  row_t                                row_new;

  assign m1   = w1_en_q && s3_e1_q;
  assign row3 = m1 ? w1_row_q : s3_row_q;

  for (genvar w = 0; w < ProbWays; w++) begin : gen_way
    assign match[w] = (row3[w].cnt != '0) && (row3[w].fp == s3_fp_q);
    for (genvar k = 0; k < ProbWays; k++) begin : gen_beat
      // Ties to the lower way.
      if (k == w) begin : gen_self
        assign beat[w][k] = 1'b1;
      end else if (w < k) begin : gen_lo
        assign beat[w][k] = (row3[w].cnt <= row3[k].cnt);
      end else begin : gen_hi
        assign beat[w][k] = (row3[w].cnt < row3[k].cnt);
      end
    end
    assign min_oh[w] = &beat[w];
  end

  always_comb begin
    match_oh = '0;
    for (int w = ProbWays - 1; w >= 0; w--) begin
      if (match[w]) match_oh = ProbWays'(1) << w;
    end
  end
  assign sel = (|match) ? match_oh : min_oh;

  always_comb begin
    old_cnt = '0;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (sel[w]) old_cnt = old_cnt | row3[w].cnt;
    end
  end
  assign sum        = SumW'(old_cnt) + SumW'(s3_metric_i);
  assign cnt_new    = (sum > SumW'(CountMax)) ? CountMax : sum[CountBits-1:0];
  assign s3_count_o = cnt_new;

  always_comb begin
    row_new = row3;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (sel[w]) row_new[w] = '{fp: s3_fp_q, cnt: admit_i ? '0 : cnt_new};
    end
  end

  // Write history and fresh rows (a clear at the edge wins).
  always_ff @(posedge clk_i) begin
    w1_addr_q <= s3_pidx_q;
    w1_row_q  <= row_new;
    w2_row_q  <= w1_row_q;
    w3_row_q  <= w2_row_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fresh_q <= '0;
    end else if (clear_i) begin
      fresh_q <= '0;
    end else if (w1_en_q) begin
      fresh_q[w1_addr_q] <= 1'b1;
    end
  end

  // The fold uses start[31:2]; the low bits are the table's key only.
  logic [1:0] unused_start_lo;
  assign unused_start_lo = start_i[1:0];
  // The folds are 16 bits wide; the bits above PSetBits / FpBits are 0.
  logic unused_fold;
  assign unused_fold = ^{pidx_full, fp_full};

  // One entry is chosen; a write forwards from at most one place.
  `HWPROF_ASSERT(sel_one_way, $onehot(sel))
  `HWPROF_ASSERT(fold_fits, (pidx_full >> PSetBits) == '0 && (fp_full >> FpBits) == '0)

endmodule

`default_nettype wire
