// hwprof_hpt: the Hot Path Table of docs/hpt.md (paper 000 section 5, spec section
// 3.2). Takes one path descriptor per clock from the path stack and keeps a
// Sets x Ways table of {key, accumulator} entries; a dump walk reads the
// table out through the dump port. The table update of one descriptor is
// HptAlgo::insert (sim_models/path_profiler/hpt_algo.cpp); the cycle
// behaviour is Hpt::step (hpt.h).
//
// Table update of a completed descriptor with metric m, way by way at each
// way's own index (docs/hpt.md, "Index"; HptAlgo::index):
//   1. hit: the lowest way whose valid candidate holds the key:
//      acc = sat(acc + m);
//   2. fill: else the lowest way whose candidate is invalid: {key, m};
//   3. else the victim is the candidate with the minimum acc, ties to the
//      lowest way; by CTRL.policy:
//        lfu   replace with {key, m};
//        ss    replace with {key, sat(victim.acc + m)};
//        erode victim.acc > m: victim.acc -= m, the path is not entered
//              (reject); else replace with {key, m}.
//   Incomplete descriptors only count in IGNORED. sat() clips at 2^32-1
//   and counts in SATURATIONS.
//
// Pipeline (two stages, one descriptor per clock, no stall outside a dump):
//   * S0 (accept): in_ready_o = !dump_busy_o; go = in_valid_i & in_ready_o.
//     On go the Ways indices (from the incoming key and CTRL before the
//     edge) address the way RAMs' read ports; the key, the metric (CTRL
//     before the edge), the policy and the indices enter S1 at the edge.
//   * S1: the RAMs' registered outputs are the candidates; the valid bits
//     are flip-flops read in S1. S1 decides hit / fill / replace / reject
//     and at its edge writes the chosen way's word (RAM), its valid bit and
//     the counters.
//   * Forwarding: the RAM read of a descriptor happens at the edge of the
//     previous descriptor's S1 write; when that write went to the same way
//     and address (fwd_hit_q, compared at that edge), the fields it wrote
//     read as undefined (hwprof_ram_2p), and S1 takes them from the forward
//     register instead: the accumulator (fwd_acc_q) and, unless the write
//     was a reject, the key, which is then the previous descriptor's key, so
//     its compare is same_key_q (the two keys compared at accept). The valid
//     bit of a write is set one edge later, from the forward register's way
//     and index (so the valid rows are decoded from flops), and S1 sees it
//     through fwd_hit_q meanwhile. Back-to-back descriptors to the same
//     entry or set therefore run at one per clock.
// Edge order (Hpt::step): S1 commits; then a register write (CTRL, STATUS,
// CMD; a CMD clear / clear_stats wins over the S1 write of the same edge:
// the descriptor in S1 is inserted and then cleared, its counts zeroed);
// then the dump walk advances; then an accepted descriptor enters S1.
//
// Registers (reads combinational from the state before the edge): data/regs/hpt.json
// (generated: hwprof_hpt_reg_pkg, docs/hpt.md, "Registers").
//
// Dump walk (CMD.dump): Drain (1 cycle: S1 commits), then per set s: Read
// (1 cycle: address s to every way RAM), Emit (per way one cycle, more while
// a valid entry waits for dump_ready_i; invalid entries are skipped in one
// cycle), set-major then way. 1 + Sets*(1 + Ways) cycles plus backpressure.
// Intake pauses for the whole walk, so the table does not change during it.
//
// Storage: one hwprof_ram_2p per way (Sets words of 102 bits: acc 31:0 and key
// 101:32, the write mask enabling the key field unless a reject, which writes
// the accumulator only; block RAM, no reset); the Sets x Ways valid bits are
// flip-flops with reset, so reset and clear take one cycle (a clear also
// cancels a valid bit still pending from the S1 write of its edge). Control state
// and counters reset asynchronously; the S1 data, RAM read index and forward
// data registers have no reset (qualified by s1_valid_q and fwd_valid_q).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_hpt #(
  /// Sets (a power of two, 1..4096).
  parameter int unsigned Sets = 128,
  /// Ways (1..32).
  parameter int unsigned Ways = 4,
  /// Width of the set index and of dump_set_o.
  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1,
  /// Width of dump_way_o.
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Asynchronous active-low reset: invalidates every entry, empties S1,
  /// stops a dump, CTRL to 0x22, err and the counters to 0.
  input  wire logic             rst_ni,
  // Descriptors (from the path stack).
  /// A descriptor is offered; hold it (and its fields) until taken.
  input  wire logic             in_valid_i,
  /// It is taken this cycle: high unless a dump is busy (registered).
  output logic                  in_ready_o,
  /// Path start address.
  input  wire logic [31:0]      in_start_i,
  /// Branches on the path.
  input  wire logic [5:0]       in_length_i,
  /// Directions.
  input  wire logic [31:0]      in_dirs_i,
  /// Events on the path (the events metric).
  input  wire logic [15:0]      in_events_i,
  /// Instructions on the path (the insns metric).
  input  wire logic [23:0]      in_insns_i,
  /// The path began at a missing top of stack: counted in IGNORED only.
  input  wire logic             in_incomplete_i,
  // Dump (registered; fields meaningful while dump_valid_o).
  /// A valid entry is offered.
  output logic                  dump_valid_o,
  /// The consumer takes it this cycle.
  input  wire logic             dump_ready_i,
  /// Its set.
  output logic [SetW-1:0]       dump_set_o,
  /// Its way.
  output logic [WayW-1:0]       dump_way_o,
  /// Key: path start address.
  output logic [31:0]           dump_start_o,
  /// Key: branches on the path.
  output logic [5:0]            dump_length_o,
  /// Key: directions.
  output logic [31:0]           dump_dirs_o,
  /// Accumulator.
  output logic [31:0]           dump_acc_o,
  /// A dump is in progress (intake paused).
  output logic                  dump_busy_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic             csr_we_i,
  /// Word address.
  input  wire logic [hwprof_hpt_reg_pkg::HptAddrW-1:0] csr_addr_i,
  /// Write data.
  input  wire logic [31:0]      csr_wdata_i,
  /// Read data of csr_addr_i (combinational, state before the edge).
  output logic [31:0]           csr_rdata_o
);

  import hwprof_hpt_reg_pkg::*;

  initial begin
    if (Sets < 1 || Sets > 4096 || (Sets & (Sets - 1)) != 0)
      $fatal(1, "hwprof_hpt: Sets must be a power of two in 1..4096");
    if (Ways < 1 || Ways > 32) $fatal(1, "hwprof_hpt: Ways must be 1..32");
  end

  /// log2(Sets): bits of the index fold (0 for a fully associative table).
  localparam int unsigned SetBits = $clog2(Sets);
  localparam int unsigned AccW = 32;
  localparam int unsigned MetricW = 24;  // the widest metric (insns)
  localparam int unsigned StatW = 32;
  localparam int unsigned FoldW = 68;    // the folded vector v

  typedef struct packed {
    logic [31:0] start;
    logic [5:0]  length;
    logic [31:0] dirs;
  } key_t;

  /// One RAM word (102 bits).
  typedef struct packed {
    key_t            key;
    logic [AccW-1:0] acc;
  } word_t;

  localparam int unsigned KeyW = $bits(key_t);
  localparam int unsigned WordW = $bits(word_t);

  // Registers: addresses and fields from hwprof_hpt_reg_pkg
  // (data/regs/hpt.json). CTRL holds its bits up to the policy field.
  localparam int unsigned CtrlW = HptCtrlPolicyLsb + HptCtrlPolicyW;
  /// CTRL.metric and CTRL.policy codes; the last of each is illegal.
  typedef enum logic [HptCtrlMetricW-1:0] {MetricFreq, MetricEvents, MetricInsns, MetricIllegal} metric_e;
  typedef enum logic [HptCtrlPolicyW-1:0] {PolicyLfu, PolicySs, PolicyErode, PolicyIllegal} policy_e;
  /// CMD bits that are commands.
  localparam logic [31:0] CmdBits = (32'd1 << HptCmdClearBit) | (32'd1 << HptCmdDumpBit) |
                                    (32'd1 << HptCmdClearStatsBit);

  typedef enum logic [1:0] {
    StIdle  = 2'd0,
    StDrain = 2'd1,  // the descriptor in S1 commits
    StRead  = 2'd2,  // address dump_set_q to every way RAM
    StEmit  = 2'd3   // present way dump_way_q of set dump_set_q
  } state_e;

  // ---------------------------------------------------------------------
  // State.

  logic [CtrlW-1:0]   ctrl_q;
  logic               err_q;
  state_e             state_q, state_d;
  logic [SetW-1:0]    dump_set_q, dump_set_d;
  logic [WayW-1:0]    dump_way_q, dump_way_d;
  logic [Ways-1:0]    valid_q [Sets];  // row s: the valid bits of set s
  // S1 (data registers without reset, qualified by s1_valid_q).
  logic               s1_valid_q;
  key_t               s1_key_q;
  logic [MetricW-1:0] s1_metric_q;
  logic               s1_incomplete_q;
  logic [HptCtrlPolicyW-1:0] s1_policy_q;
  // The address each way RAM read last (no reset): the descriptor's
  // indices in S1, the walk's set in Emit.
  logic [SetW-1:0]    rd_idx_q [Ways];
  // Forward register: the RAM write of the last edge, unless a clear came
  // with it (data without reset, qualified by fwd_valid_q). A write always
  // writes the accumulator and, unless it is a reject, the key, which is
  // then the key of the descriptor that was in S1; same_key_q says whether
  // the descriptor now in S1 has that key (compared when it was accepted).
  // fwd_valid_q also means "valid bit (fwd_idx_q, fwd_way_q) pending".
  logic               fwd_valid_q;
  logic [Ways-1:0]    fwd_hit_q;     // way w's RAM read that written address
  logic               fwd_key_q;     // the write included the key
  logic [WayW-1:0]    fwd_way_q;
  logic [SetW-1:0]    fwd_idx_q;
  logic [AccW-1:0]    fwd_acc_q;
  logic               same_key_q;

  // ---------------------------------------------------------------------
  // Registers: decode.

  logic ctrl_we, ctrl_legal, cmd_we, idle, cmd_ok;
  logic cmd_clear, cmd_dump, cmd_clear_stats, cmd_err, err_set, err_clr;

  assign idle            = (state_q == StIdle);
  assign ctrl_we         = csr_we_i && (csr_addr_i == HptAddrCtrl);
  assign ctrl_legal      = (csr_wdata_i[HptCtrlMetricLsb +: HptCtrlMetricW] != MetricIllegal) &&
                           (csr_wdata_i[HptCtrlPolicyLsb +: HptCtrlPolicyW] != PolicyIllegal);
  assign cmd_we          = csr_we_i && (csr_addr_i == HptAddrCmd);
  assign cmd_ok          = cmd_we && idle;
  assign cmd_clear       = cmd_ok && csr_wdata_i[HptCmdClearBit];
  assign cmd_dump        = cmd_ok && csr_wdata_i[HptCmdDumpBit];
  assign cmd_clear_stats = cmd_ok && csr_wdata_i[HptCmdClearStatsBit];
  assign cmd_err         = cmd_we && !idle && ((csr_wdata_i & CmdBits) != '0);
  assign err_set         = (ctrl_we && !ctrl_legal) || cmd_err;
  assign err_clr         = csr_we_i && (csr_addr_i == HptAddrStatus) && csr_wdata_i[HptStatusErrBit];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= CtrlW'(HptCtrlReset);  // plb, skew, freq, erode
      err_q  <= 1'b0;
    end else begin
      if (ctrl_we && ctrl_legal) ctrl_q <= csr_wdata_i[CtrlW-1:0];
      // One address per cycle: err_set and err_clr never coincide.
      err_q <= err_set || (err_q && !err_clr);
    end
  end

  // ---------------------------------------------------------------------
  // S0: accept, index fold, metric.

  logic               go;
  key_t               in_key;
  logic [FoldW-1:0]   fold_v;
  logic [SetW-1:0]    in_idx [Ways];
  logic [MetricW-1:0] in_metric;

  assign in_ready_o = idle;
  assign go         = in_valid_i && in_ready_o;
  assign in_key     = '{start: in_start_i, length: in_length_i, dirs: in_dirs_i};

  // v = {dirs, length (plb) or 0 (pb), start[31:2]} (docs/hpt.md, "Index").
  assign fold_v = {in_dirs_i, ctrl_q[HptCtrlIndexBit] ? 6'd0 : in_length_i, in_start_i[31:2]};

  if (SetBits == 0) begin : gen_idx_one
    // One set: every index is 0.
    for (genvar w = 0; w < Ways; w++) begin : gen_way
      assign in_idx[w] = '0;
    end
    logic unused_fold;
    assign unused_fold = ^fold_v;
  end else begin : gen_idx_fold
    // v cut into NumChunks chunks of SetBits bits from bit 0, the last one
    // zero-extended; way w XORs chunk c rotated left by (skew ? w*c : 0).
    // The rotations are constants: wiring only.
    localparam int unsigned NumChunks = (FoldW + SetBits - 1) / SetBits;
    localparam int unsigned PadW = NumChunks * SetBits;

    function automatic logic [SetBits-1:0] rotl(logic [SetBits-1:0] x, int unsigned r);
      logic [SetBits-1:0] y;
      for (int unsigned i = 0; i < SetBits; i++) y[(i + r) % SetBits] = x[i];
      return y;
    endfunction

    logic [PadW-1:0]    vp;
    logic [SetBits-1:0] plain;  // the same for every way
    assign vp = PadW'(fold_v);

    always_comb begin
      plain = '0;
      for (int unsigned c = 0; c < NumChunks; c++) plain = plain ^ vp[c*SetBits +: SetBits];
    end

    for (genvar w = 0; w < Ways; w++) begin : gen_way
      logic [SetBits-1:0] skewed;
      always_comb begin
        skewed = '0;
        for (int unsigned c = 0; c < NumChunks; c++) begin
          skewed = skewed ^ rotl(vp[c*SetBits +: SetBits], (w * c) % SetBits);
        end
      end
      assign in_idx[w] = ctrl_q[HptCtrlSkewBit] ? skewed : plain;
    end
  end

  always_comb begin
    unique case (ctrl_q[HptCtrlMetricLsb +: HptCtrlMetricW])
      MetricFreq:   in_metric = MetricW'(1);
      MetricEvents: in_metric = MetricW'(in_events_i);
      MetricInsns:  in_metric = in_insns_i;
      default:      in_metric = MetricW'(1);  // unreachable: CTRL rejects 3
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
    end else begin
      s1_valid_q <= go;
    end
  end

  always_ff @(posedge clk_i) begin
    if (go) begin
      s1_key_q        <= in_key;
      s1_metric_q     <= in_metric;
      s1_incomplete_q <= in_incomplete_i;
      s1_policy_q     <= ctrl_q[HptCtrlPolicyLsb +: HptCtrlPolicyW];
      same_key_q      <= (in_key == s1_key_q);
    end
  end

  // ---------------------------------------------------------------------
  // Way RAMs: read by S0 (or the dump walk's Read state), written by S1.

  logic            rd_dump;     // the walk reads address dump_set_q
  logic            ram_re;
  logic [SetW-1:0] raddr [Ways];
  word_t           ram_rdata [Ways];
  logic            wr_en;       // S1 writes a word
  logic            wr_key;      // ... including the key (not for a reject)
  logic [WayW-1:0] wr_way;
  logic [SetW-1:0] wr_idx;
  word_t           wr_word;

  assign rd_dump = (state_q == StRead);
  assign ram_re  = go || rd_dump;

  for (genvar w = 0; w < Ways; w++) begin : gen_ram
    assign raddr[w] = rd_dump ? dump_set_q : in_idx[w];

    always_ff @(posedge clk_i) begin
      if (ram_re) rd_idx_q[w] <= raddr[w];
    end

    logic way_we;
    assign way_we = wr_en && (wr_way == WayW'(w));

    // Write mask: the accumulator always, the key unless a reject.
    hwprof_ram_2p #(
      .Depth(Sets),
      .Width(WordW)
    ) u_ram (
      .clk_i,
      .wmask_i({{KeyW{way_we && wr_key}}, {AccW{way_we}}}),
      .waddr_i(wr_idx),
      .wdata_i(wr_word),
      .re_i   (ram_re),
      .raddr_i(raddr[w]),
      .rdata_o(ram_rdata[w])
    );
  end

  // ---------------------------------------------------------------------
  // S1: candidates, outcome, new word.
  //
  // Way w's candidate is {ram_rdata[w], valid_q[rd_idx_q[w]][w]}, with the
  // forward register's fields in place of the RAM's when fwd_hit_q[w]: the
  // accumulator always, the key when the write included it (the key compare
  // is then same_key_q), and the valid bit (set, pending in valid_q). One
  // saturating adder serves the hit (the hit way's acc) and the ss
  // replacement (the victim's acc, from the minimum search).

  logic [Ways-1:0][AccW-1:0] cand_acc;
  logic [Ways-1:0]           cand_valid;
  logic [Ways-1:0]           hit;
  logic [AccW-1:0]           s1_m;   // the metric, 32 bits

  assign s1_m = AccW'(s1_metric_q);

  for (genvar w = 0; w < Ways; w++) begin : gen_cand
    logic key_eq;
    assign cand_acc[w]   = fwd_hit_q[w] ? fwd_acc_q : ram_rdata[w].acc;
    assign cand_valid[w] = valid_q[rd_idx_q[w]][w] || fwd_hit_q[w];
    assign key_eq        = (fwd_hit_q[w] && fwd_key_q) ? same_key_q : (ram_rdata[w].key == s1_key_q);
    assign hit[w]        = cand_valid[w] && key_eq;
  end

  // Lowest hitting way, lowest invalid way; the victim is the minimum acc,
  // ties to the lowest way (only used when every candidate is valid, so
  // every way competes). A binary compare tree, combinational (Pipe = 0):
  // comparing every pair at once saves one comparator level for 4 ways but
  // costs twice the comparators, which does not pay on an iCE40 UP5K.
  logic            hit_any, free_any;
  logic [WayW-1:0] hit_way, free_way;
  logic [WayW-1:0] min_way;
  logic [AccW-1:0] min_acc;  // the victim's acc
  logic            unused_min_valid;

  hwprof_lzc #(.N(Ways)) u_hit_pick (.in_i(hit), .idx_o(hit_way), .valid_o(hit_any));
  hwprof_lzc #(.N(Ways)) u_free_pick (.in_i(~cand_valid), .idx_o(free_way), .valid_o(free_any));

  hwprof_argmin_tree #(
    .N(Ways),
    .W(AccW)
  ) u_victim (
    .clk_i,
    .rst_ni,
    .valid_i('1),
    .val_i  (cand_acc),
    .valid_o(unused_min_valid),
    .idx_o  (min_way),
    .val_o  (min_acc)
  );

  // Outcome of the descriptor in S1 (meaningful when it is complete).
  logic            commit;        // a complete descriptor commits
  logic            miss_full;     // no hit, every candidate valid
  logic            reject, replace, fill;
  logic [AccW-1:0] add_base;      // hit: the hit way's acc; else the victim's
  logic            add_sat;       // add_base + m clips (m > ~add_base)
  logic [AccW-1:0] add_acc;       // sat(add_base + m)
  logic [AccW-1:0] acc_replace;
  logic            sat;           // the accumulator add clipped

  assign commit    = s1_valid_q && !s1_incomplete_q;
  assign miss_full = !hit_any && !free_any;
  assign fill      = !hit_any && free_any;
  assign reject    = miss_full && (s1_policy_q == PolicyErode) && (min_acc > s1_m);
  assign replace   = miss_full && !reject;

  assign add_base = hit_any ? cand_acc[hit_way] : min_acc;
  assign add_acc  = AccW'(hwprof_prim_pkg::sat_add(64'(add_base), 64'(s1_m), AccW));
  assign add_sat  = (s1_m > ~add_base);
  // Replace: ss inherits the victim's count; lfu and erode start from m.
  assign acc_replace = (s1_policy_q == PolicySs) ? add_acc : s1_m;

  // The written word: the S1 key (a reject leaves the victim's key alone:
  // the key field is not written) and the new accumulator.
  always_comb begin
    wr_word.key = s1_key_q;
    sat         = 1'b0;
    if (hit_any) begin
      wr_way      = hit_way;
      wr_word.acc = add_acc;
      sat         = add_sat;
    end else if (free_any) begin
      wr_way      = free_way;
      wr_word.acc = s1_m;
    end else if (reject) begin
      wr_way      = min_way;
      wr_word.acc = min_acc - s1_m;
    end else begin
      wr_way      = min_way;
      wr_word.acc = acc_replace;
      sat         = (s1_policy_q == PolicySs) && add_sat;
    end
  end

  assign wr_en        = commit;
  assign wr_key       = !reject;
  assign wr_idx       = rd_idx_q[wr_way];

  // Forward register. fwd_hit_q[w]: the RAM read of this edge (raddr) is
  // the address written at this edge (for the descriptor entering S1).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_valid_q <= 1'b0;
      fwd_hit_q   <= '0;
    end else begin
      fwd_valid_q <= wr_en && !cmd_clear;
      for (int unsigned w = 0; w < Ways; w++) begin
        fwd_hit_q[w] <= wr_en && !cmd_clear && (wr_way == WayW'(w)) && (wr_idx == raddr[w]);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_en) begin
      fwd_key_q <= wr_key;
      fwd_way_q <= wr_way;
      fwd_idx_q <= wr_idx;
      fwd_acc_q <= wr_word.acc;
    end
  end

  // Valid bits: reset and clear in one cycle. The bit of an S1 write is set
  // at the next edge from the forward register (a clear at the write's edge
  // cancels it, one at the next edge wins over it). A set rewrites the whole
  // row (the other ways keep their bits), so the Ways flops of a row share
  // one enable.
  logic [Ways-1:0] fwd_way_bit;  // the pending way, one-hot
  always_comb begin
    fwd_way_bit            = '0;
    fwd_way_bit[fwd_way_q] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '{default: '0};
    end else if (cmd_clear) begin
      valid_q <= '{default: '0};
    end else if (fwd_valid_q) begin
      valid_q[fwd_idx_q] <= valid_q[fwd_idx_q] | fwd_way_bit;
    end
  end

  // ---------------------------------------------------------------------
  // Dump walk.

  always_comb begin
    state_d    = state_q;
    dump_set_d = dump_set_q;
    dump_way_d = dump_way_q;
    unique case (state_q)
      StIdle: begin
        if (cmd_dump) begin
          state_d    = StDrain;
          dump_set_d = '0;
          dump_way_d = '0;
        end
      end
      StDrain: state_d = StRead;
      StRead: begin
        state_d    = StEmit;
        dump_way_d = '0;
      end
      StEmit: begin
        if (!dump_valid_o || dump_ready_i) begin
          if (dump_way_q != WayW'(Ways - 1)) begin
            dump_way_d = dump_way_q + WayW'(1);
          end else if (dump_set_q != SetW'(Sets - 1)) begin
            dump_set_d = dump_set_q + SetW'(1);
            state_d    = StRead;
          end else begin
            state_d = StIdle;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      dump_set_q <= '0;
      dump_way_q <= '0;
    end else begin
      state_q    <= state_d;
      dump_set_q <= dump_set_d;
      dump_way_q <= dump_way_d;
    end
  end

  // In Emit every way RAM holds set dump_set_q's word and rd_idx_q[w] =
  // dump_set_q, so cand_valid is the set's valid row (the S1 read muxes
  // serve the walk too).
  word_t dump_word;
  assign dump_word     = ram_rdata[dump_way_q];
  assign dump_valid_o  = (state_q == StEmit) && cand_valid[dump_way_q];
  assign dump_set_o    = dump_set_q;
  assign dump_way_o    = dump_way_q;
  assign dump_start_o  = dump_word.key.start;
  assign dump_length_o = dump_word.key.length;
  assign dump_dirs_o   = dump_word.key.dirs;
  assign dump_acc_o    = dump_word.acc;
  assign dump_busy_o   = !idle;

  // ---------------------------------------------------------------------
  // Statistics: 32-bit saturating counters at addresses HptAddrDescs + k;
  // clear_stats wins over an increment of the same edge.

  localparam int unsigned NumStats = 32'(HptAddrStallCycles) - 32'(HptAddrDescs) + 1;
  logic [NumStats-1:0]            st_inc;
  logic [NumStats-1:0][StatW-1:0] st;

  assign st_inc = {in_valid_i && !in_ready_o,                 // 7 stall cycles
                   s1_valid_q && s1_incomplete_q,             // 6 ignored
                   commit && sat,                             // 5 saturations
                   commit && reject,                          // 4 rejects
                   commit && replace,                         // 3 replacements
                   commit && fill,                            // 2 fills
                   commit && hit_any,                         // 1 hits
                   commit};                                   // 0 descs

  hwprof_stat_bank #(.N(NumStats), .W(StatW)) u_stats (
    .clk_i, .rst_ni, .clear_i(cmd_clear_stats), .inc_i(st_inc), .add_i('1),
    .cnt_o(st)
  );

  // ---------------------------------------------------------------------
  // Register read.

  localparam logic [31:0] ParamsWord = (32'(HptParamsWaysW'(Ways)) << HptParamsWaysLsb) |
                                       (32'(HptParamsSetBitsW'(SetBits)) << HptParamsSetBitsLsb);

  logic [31:0] status;
  assign status = (32'(err_q) << HptStatusErrBit) | (32'(dump_busy_o) << HptStatusDumpBusyBit);

  // Counter k at HptAddrDescs + k; CMD and addresses above PARAMS read 0.
  logic [2:0] st_off;
  assign st_off = 3'(csr_addr_i - HptAddrDescs);

  always_comb begin
    unique case (csr_addr_i)
      HptAddrCtrl:   csr_rdata_o = 32'(ctrl_q);
      HptAddrStatus: csr_rdata_o = status;
      HptAddrCmd:    csr_rdata_o = '0;
      HptAddrParams: csr_rdata_o = ParamsWord;
      default:       csr_rdata_o = (csr_addr_i < HptAddrParams) ? st[st_off] : '0;
    endcase
  end

  // The fold uses start[31:2] (docs/hpt.md, "Index"); the low two bits are
  // part of the key only.
  logic [1:0] unused_start_lo;
  assign unused_start_lo = in_start_i[1:0];
  // CTRL holds 6 bits, STATUS and CMD use the low 3; the rest of a write is
  // ignored.
  logic [31:CtrlW] unused_wdata_hi;
  assign unused_wdata_hi = csr_wdata_i[31:CtrlW];

  // ---------------------------------------------------------------------
  // Assertions.

  `HWPROF_ASSERT(ctrl_q_legal, ctrl_q[HptCtrlMetricLsb +: HptCtrlMetricW] != MetricIllegal &&
                 ctrl_q[HptCtrlPolicyLsb +: HptCtrlPolicyW] != PolicyIllegal)
  `HWPROF_ASSERT(s1_policy_legal, s1_valid_q |->
                 s1_policy_q == PolicyLfu || s1_policy_q == PolicySs || s1_policy_q == PolicyErode)
  // Dump handshake: valid only inside a walk; once valid, stays valid with
  // stable data until taken.
  `HWPROF_ASSERT(dump_valid_only_when_busy, dump_valid_o |-> dump_busy_o)
  `HWPROF_ASSERT(dump_valid_held, dump_valid_o && !dump_ready_i |=> dump_valid_o)
  `HWPROF_ASSERT(dump_data_held, dump_valid_o && !dump_ready_i |=>
                 $stable({dump_set_o, dump_way_o, dump_start_o, dump_length_o, dump_dirs_o, dump_acc_o}))
  `HWPROF_ASSERT(dump_way_in_range, dump_way_q <= WayW'(Ways - 1))
  for (genvar w = 0; w < Ways; w++) begin : gen_assert_way
    // The walk reads the valid bits through the S1 read index.
    logic [SetW-1:0] rd_idx;
    assign rd_idx = rd_idx_q[w];
    `HWPROF_ASSERT(emit_reads_dump_set, state_q == StEmit |-> rd_idx == dump_set_q)
  end
  // The table is frozen while the walk reads it: S1 is empty after Drain.
  `HWPROF_ASSERT(s1_empty_during_walk, s1_valid_q |-> state_q == StIdle || state_q == StDrain)
  `HWPROF_ASSERT(no_intake_during_dump, dump_busy_o |-> !go)
  // Exactly one outcome per complete descriptor; the forward register
  // matches at most one way.
  `HWPROF_ASSERT(one_outcome, commit |-> $onehot({hit_any, fill, replace, reject}))
  `HWPROF_ASSERT(forward_at_most_one_way, $onehot0(fwd_hit_q))
  `HWPROF_ASSERT(saturation_only_on_add, commit && sat |-> hit_any || (replace && s1_policy_q == PolicySs))
  // HITS + FILLS + REPLACEMENTS + REJECTS (st[1..4]) = DESCS (st[0]) until
  // a counter saturates.
  logic             st_any_full;
  logic [StatW+1:0] st_outcomes;
  always_comb begin
    st_any_full = &st[0];
    st_outcomes = '0;
    for (int unsigned k = 1; k <= 4; k++) begin
      st_any_full = st_any_full || (&st[k]);
      st_outcomes = st_outcomes + (StatW + 2)'(st[k]);
    end
  end
  `HWPROF_ASSERT(counters_add_up, !st_any_full |-> st_outcomes == (StatW + 2)'(st[0]))

endmodule

`default_nettype wire
