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
// compares it with the victim's accumulator. On
// admission (admit_i) the entry's count is written 0 (emptied), else c.
//
// Forwarding: the row read at acceptance (edge t) misses the row writes
// L(t-1) (landing at t: the read collides), L(t), L(t+1), L(t+2). Each
// write carries the whole row, so a match (same row, compared at
// acceptance) replaces the row: m4, m3 at the S1 -> S2 register from the
// write history (w2, w1), m2 in S2 and m1 in S3 from w1. A clear kills the write of its edge and
// every flag in flight, and empties the row of every descriptor in S1..S2.
//
// Timing: the choice (the entry and its count + m) is made in S2 on the
// merged row, and no compare is left in S3. L(t+2) is the write of the
// descriptor in S3 while this one is in S2, whose row is then this one's
// (both hold every write up to L(t+1)): that descriptor prepares this
// one's choice on its written row, for both of its outcomes (refusal: its
// entry {fp, c}; admission: its entry emptied), from its own prepared
// choice and this one's S2 values, and S3 picks by m1 and the admission
// bit (docs/hpt.md, "Probation area in hardware").
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
  /// The metric of the descriptor in S2.
  input  wire logic [MetricW-1:0]   s2_metric_i,
  /// S3: the count of the descriptor's probation entry after adding the
  /// metric (c; from a register picked by registers).
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
  logic                s1_e3_q, s1_e2_q, s1_e1_q, s2_e1_q, s3_e1_q;
  logic                s1_m4_q, s2_m2_q;
  row_t                s2_row_q, s3_row_q;
  logic                w1_en_q;
  logic [PSetW-1:0]    w1_addr_q;
  // w1: the row in refusal form (the chosen entry {fp, c}), the admission
  // bit and the admitted entry (w1_row: the row as written, that entry
  // emptied); the package of the next descriptor for both outcomes (S3
  // below).
  row_t                w1_rowr_q, w1_row, w2_row_q;
  logic [ProbWays-1:0] w1_selR_q, w1_selA_q;
  logic                w1_adm_q;
  logic [ProbWays-1:0] w1_zero_q;  // the admitted entry (admission and chosen)
  logic [ProbWays-1:0][CountBits-1:0] w1_cmR_q, w1_cmA_q;
  logic [CountBits-1:0] w1_cR_q, w1_cA_q;

  logic in_m4;
  assign in_m4 = w1_en_q && (in_pidx == w1_addr_q) && !clear_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_m4_q <= 1'b0;
      s2_m2_q <= 1'b0;
      w1_en_q <= 1'b0;
    end else begin
      s1_m4_q <= go_i && in_m4;
      // w1 will hold L(t+1) in S2.
      s2_m2_q <= we_i && s1_e2_q && !clear_i;
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
    .wdata_i(w1_row),
    .re_i   (1'b1),
    .raddr_i(in_pidx),
    .rdata_o(ram_rdata)
  );

  // S1: a stale row (or one cleared at this edge) is empty; the writes
  // L(t) (w1 now, m3) and L(t-1) (w2 now, m4), the most recent first,
  // replace it at the register (picked from registers beside the RAM
  // read: one level of logic after the RAM), so S2 merges only L(t+1).
  logic s1_m3, s1_fw;
  row_t s1_fw_row;
  assign s1_m3     = w1_en_q && s1_e3_q;
  assign s1_fw     = (s1_m3 || s1_m4_q) && !clear_i;
  assign s1_fw_row = s1_m3 ? w1_row : w2_row_q;
  always_ff @(posedge clk_i) begin
    s2_row_q <= s1_fw ? s1_fw_row : (fresh_q[s1_pidx_q] && !clear_i) ? ram_rdata : '0;
  end

  // ---------------------------------------------------------------------
  // Helpers: the entry choice of HptAlgo::probation_add on a row, in parts.

  /// sat(cnt + m): the low bits of m added (CountBits + 1 bits), then the
  /// carry or any higher bit of m saturates.
  function automatic logic [CountBits-1:0] sat_add(logic [CountBits-1:0] cnt, logic [MetricW-1:0] m);
    logic [CountBits:0] s;
    logic               m_hi;
    s    = (CountBits + 1)'(cnt) + (CountBits + 1)'(CountBits'(m));
    m_hi = (SumW'(m) >> CountBits) != '0;
    return (m_hi || s[CountBits]) ? CountMax : s[CountBits-1:0];
  endfunction

  /// ord[w][k]: entry w comes before entry k in the minimum order (counts,
  /// ties to the lower way).
  function automatic logic [ProbWays-1:0][ProbWays-1:0] order(row_t r);
    logic [ProbWays-1:0][ProbWays-1:0] ord;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      for (int unsigned k = 0; k < ProbWays; k++) begin
        if (k == w) ord[w][k] = 1'b1;
        else if (w < k) ord[w][k] = (r[w].cnt <= r[k].cnt);
        else ord[w][k] = (r[w].cnt < r[k].cnt);
      end
    end
    return ord;
  endfunction

  /// The chosen entry, one-hot: the lowest matching one, else the one that
  /// comes before every other in the minimum order.
  function automatic logic [ProbWays-1:0] choose(logic [ProbWays-1:0] match,
                                                 logic [ProbWays-1:0][ProbWays-1:0] ord);
    logic [ProbWays-1:0] oh;
    oh = '0;
    if (|match) begin
      for (int w = ProbWays - 1; w >= 0; w--) begin
        if (match[w]) oh = ProbWays'(1) << w;
      end
    end else begin
      for (int unsigned w = 0; w < ProbWays; w++) oh[w] = &ord[w];
    end
    return oh;
  endfunction

  // ---------------------------------------------------------------------
  // S2: the write L(t+1) (w1, m2) replaces the row; then the choice on that row, prepared for S3: per entry its
  // fingerprint match, its count + m (cm2), the minimum order and the
  // chosen entry. A clear at this edge empties the row: S3 gets the empty
  // row's choice (entry 0, every count m), set at the register.

  row_t                              row2;
  logic [ProbWays-1:0]               match2, sel2;
  logic [ProbWays-1:0][ProbWays-1:0] ord2;
  logic [ProbWays-1:0][CountBits-1:0] cm2;

  assign row2 = s2_m2_q ? w1_row : s2_row_q;

  for (genvar w = 0; w < ProbWays; w++) begin : gen_s2
    assign match2[w] = (row2[w].cnt != '0) && (row2[w].fp == s2_fp_q);
    assign cm2[w]    = sat_add(row2[w].cnt, s2_metric_i);
  end
  assign ord2 = order(row2);
  assign sel2 = choose(match2, ord2);

  logic [CountBits-1:0] c2;  // the chosen entry's count + m
  always_comb begin
    c2 = '0;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (sel2[w]) c2 = c2 | cm2[w];
    end
  end

  logic [ProbWays-1:0]                s3_sel_q;
  logic [ProbWays-1:0][CountBits-1:0] s3_cm_q;
  logic [CountBits-1:0]               s3_c_q;
  logic [CountBits-1:0]               cm_empty;  // sat(0 + m)
  assign cm_empty = sat_add('0, s2_metric_i);
  always_ff @(posedge clk_i) begin
    s3_row_q <= clear_i ? '0 : row2;
    s3_sel_q <= clear_i ? ProbWays'(1) : sel2;
    s3_cm_q  <= clear_i ? {ProbWays{cm_empty}} : cm2;
    s3_c_q   <= clear_i ? cm_empty : c2;
  end

  // ---------------------------------------------------------------------
  // S3: when the previous descriptor wrote this row (m1: w1 holds L(t+2)),
  // the row is w1's and so is the choice, prepared in the last cycle for
  // both of that write's outcomes (R: it refused, its entry {fp, c}; A: it
  // admitted, its entry emptied); else the choice prepared in S2. No
  // compare is left in this stage: the package is picked by registers.

  logic                               m1;
  row_t                               row3, row_new;
  logic [ProbWays-1:0]                sel3;
  logic [ProbWays-1:0][CountBits-1:0] cm3;
  logic [CountBits-1:0]               c3;

  assign m1   = w1_en_q && s3_e1_q;
  assign row3 = m1 ? w1_row : s3_row_q;
  assign sel3 = !m1 ? s3_sel_q : w1_adm_q ? w1_selA_q : w1_selR_q;
  assign cm3  = !m1 ? s3_cm_q : w1_adm_q ? w1_cmA_q : w1_cmR_q;
  assign c3   = !m1 ? s3_c_q : w1_adm_q ? w1_cA_q : w1_cR_q;
  assign s3_count_o = c3;

  // The row written (refusal form: the chosen entry {fp, c}; an admission
  // empties it after the register, through w1_zero_q).
  always_comb begin
    row_new = row3;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (sel3[w]) row_new[w] = '{fp: s3_fp_q, cnt: c3};
    end
  end

  // The package for the descriptor in S2, used next cycle if this
  // descriptor writes its row (then that descriptor's row2 is this one's
  // row3: both hold every write up to L(t+1)). Only the entry this
  // descriptor writes (sel3) changes: its match, count + m and its place
  // in the minimum order are recomputed for both outcomes, against the
  // other entries of row2; the rest is S2's.
  // For each entry v that this descriptor may write, the choice on the
  // row so written is made in full (its pairs with v: v's new count
  // against row2's counts; the other pairs: S2's), and sel3 picks at the
  // end, so the compares do not wait for this descriptor's choice.
  logic                               fp_eq;
  logic [ProbWays-1:0]                sel_r, sel_a;
  logic [ProbWays-1:0][ProbWays-1:0]  q_r, q_a, sel_rv, sel_av;
  logic [ProbWays-1:0][CountBits-1:0] cm_r, cm_a, cm_new;
  logic [CountBits-1:0]               c_r, c_a;
  logic [ProbWays-1:0][CountBits-1:0] c_rv, c_av;

  assign fp_eq = (s2_fp_q == s3_fp_q);

  for (genvar v = 0; v < ProbWays; v++) begin : gen_pkg
    logic [ProbWays-1:0]               match_rv, match_av;
    logic [ProbWays-1:0][ProbWays-1:0] ord_rv, ord_av;
    // Entry v written with this descriptor's c (R) or emptied (A).
    assign cm_new[v] = sat_add(cm3[v], s2_metric_i);
    assign cm_r[v]   = sel3[v] ? cm_new[v] : cm2[v];
    assign cm_a[v]   = sel3[v] ? cm_empty : cm2[v];
    // q_*[v][k]: entry v, so written, before entry k of row2.
    for (genvar k = 0; k < ProbWays; k++) begin : gen_q
      if (k == v) begin : gen_self
        assign q_r[v][k] = 1'b1;
        assign q_a[v][k] = 1'b1;
      end else if (v < k) begin : gen_lo
        assign q_r[v][k] = (cm3[v] <= row2[k].cnt);
        assign q_a[v][k] = 1'b1;
      end else begin : gen_hi
        assign q_r[v][k] = (cm3[v] < row2[k].cnt);
        assign q_a[v][k] = (row2[k].cnt != '0);
      end
    end
    for (genvar w = 0; w < ProbWays; w++) begin : gen_w
      if (w == v) begin : gen_written
        assign match_rv[w] = fp_eq && (cm3[v] != '0);
        assign match_av[w] = 1'b0;
        assign ord_rv[w]   = q_r[v];
        assign ord_av[w]   = q_a[v];
      end else begin : gen_other
        assign match_rv[w] = match2[w];
        assign match_av[w] = match2[w];
        // w before v: not v before w (the order is total).
        for (genvar k = 0; k < ProbWays; k++) begin : gen_k
          if (k == v) begin : gen_v
            assign ord_rv[w][k] = !q_r[v][w];
            assign ord_av[w][k] = !q_a[v][w];
          end else begin : gen_s2o
            assign ord_rv[w][k] = ord2[w][k];
            assign ord_av[w][k] = ord2[w][k];
          end
        end
      end
    end
    assign sel_rv[v] = choose(match_rv, ord_rv);
    assign sel_av[v] = choose(match_av, ord_av);
    // The chosen entry's count + m on the row so written.
    always_comb begin
      c_rv[v] = '0;
      c_av[v] = '0;
      for (int unsigned w = 0; w < ProbWays; w++) begin
        if (sel_rv[v][w]) c_rv[v] = c_rv[v] | ((w == v) ? cm_new[v] : cm2[w]);
        if (sel_av[v][w]) c_av[v] = c_av[v] | ((w == v) ? cm_empty : cm2[w]);
      end
    end
  end

  always_comb begin
    sel_r = '0;
    sel_a = '0;
    c_r   = '0;
    c_a   = '0;
    for (int unsigned v = 0; v < ProbWays; v++) begin
      if (sel3[v]) begin
        sel_r = sel_r | sel_rv[v];
        sel_a = sel_a | sel_av[v];
        c_r   = c_r | c_rv[v];
        c_a   = c_a | c_av[v];
      end
    end
  end

  // Write history and fresh rows (a clear at the edge wins). w1 keeps the
  // row in refusal form, the admission bit and the admitted entry, and
  // the next descriptor's package for both outcomes.
  always_ff @(posedge clk_i) begin
    w1_addr_q <= s3_pidx_q;
    w1_rowr_q <= row_new;
    w1_adm_q  <= admit_i;
    w1_zero_q <= admit_i ? sel3 : '0;
    w1_selR_q <= sel_r;
    w1_selA_q <= sel_a;
    w1_cmR_q  <= cm_r;
    w1_cmA_q  <= cm_a;
    w1_cR_q   <= c_r;
    w1_cA_q   <= c_a;
    w2_row_q  <= w1_row;
  end

  // w1's row as written: the admitted entry emptied.
  always_comb begin
    w1_row = w1_rowr_q;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (w1_zero_q[w]) w1_row[w].cnt = '0;
    end
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

  // One entry is chosen.
  `HWPROF_ASSERT(sel_one_way, we_i |-> $onehot(sel3))

`ifndef SYNTHESIS
  // Simulation only: the choice made on the row itself in one cycle, as
  // HptAlgo::probation_add makes it (the design before the retiming). The
  // prepared choice and count must equal it at every write.
  logic [MetricW-1:0]   ref_m_q;
  logic [ProbWays-1:0]  ref_match, ref_sel;
  logic [CountBits-1:0] ref_c;
  always_ff @(posedge clk_i) ref_m_q <= s2_metric_i;
  always_comb begin
    for (int unsigned w = 0; w < ProbWays; w++) begin
      ref_match[w] = (row3[w].cnt != '0) && (row3[w].fp == s3_fp_q);
    end
    ref_sel = choose(ref_match, order(row3));
    ref_c   = '0;
    for (int unsigned w = 0; w < ProbWays; w++) begin
      if (ref_sel[w]) ref_c = sat_add(row3[w].cnt, ref_m_q);
    end
  end
  `HWPROF_ASSERT(prepared_choice_is_the_rows, we_i |-> sel3 == ref_sel && c3 == ref_c)
`endif
  `HWPROF_ASSERT(fold_fits, (pidx_full >> PSetBits) == '0 && (fp_full >> FpBits) == '0)

endmodule

`default_nettype wire
