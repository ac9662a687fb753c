/// hwprof_dcr_sigtable: the signature table of the DCR phase tracker
/// (docs/dcr.md "Signature table"; paper 003, spec section 5), one of the two
/// machines of hwprof_dcr_tracker (the other is hwprof_dcr_stack). Maps an
/// interval's signature hash to a phase id with a sequential search of
/// SigEntries slots in block RAM and LRU replacement. Functional model:
/// DcrSigTable (sim_models/phase/dcr_algo.h).
///
/// One lookup, driven by the tracker's state machine:
///   start_i   1 cycle: the read of slot 0 is issued; the trackers reset.
///   search_i  SigEntries cycles: slot k's word (on the RAM output) is
///             compared with hash_i and the read of slot k+1 issued; last_o
///             marks the cycle of slot SigEntries-1.
///   update_i  1 cycle: phase_o / new_o / evict_o hold the outcome
///             (combinational); at the edge the slot is written with
///             {hash_i, phase_o, stamp = uses} and marked valid, uses + 1,
///             and on a miss next id + 1.
/// Tie-breaks: a hit is a valid slot with the same hash, the lowest such
/// slot; a miss takes the lowest invalid slot, else the LRU slot: the valid
/// slot with the smallest stamp, ties to the lowest (evicted); a miss's
/// phase is the next id (16-bit, wraps).
/// hash_i must hold from the cycle after start_i through update_i. clear_i
/// (every slot invalid, next id 0, uses 0) is never raised with start_i,
/// search_i or update_i.
///
/// Storage: the words {stamp, phase, hash} in an hwprof_ram_2p (block RAM,
/// no reset); the valid bits, next id and uses in flip-flops (reset and
/// clear in one cycle); the search trackers have no reset (qualified by the
/// tracker's state).
`default_nettype none

module hwprof_dcr_sigtable #(
  /// Signature table slots (1..4096).
  parameter int unsigned SigEntries = 64
) (
  /// Clock.
  input  wire logic         clk_i,
  /// Asynchronous active-low reset: as clear_i.
  input  wire logic         rst_ni,
  /// Forget every slot (see above).
  input  wire logic         clear_i,
  // A lookup.
  /// Issue the read of slot 0, reset the trackers.
  input  wire logic         start_i,
  /// Compare the word on the RAM output, read the next slot.
  input  wire logic         search_i,
  /// The compare of this cycle is the last one.
  output logic              last_o,
  /// Commit the lookup.
  input  wire logic         update_i,
  /// The signature being looked up.
  input  wire logic [31:0]  hash_i,
  // Outcome (combinational, meaningful while update_i).
  /// Phase id: the hit slot's, else the next id.
  output logic [15:0]       phase_o,
  /// A miss: a new phase id.
  output logic              new_o,
  /// A miss that evicts a valid slot.
  output logic              evict_o
);

  initial begin
    if (SigEntries < 1 || SigEntries > 4096) $fatal(1, "hwprof_dcr_sigtable: SigEntries must be 1..4096");
  end

  localparam int unsigned SlotW = (SigEntries > 1) ? $clog2(SigEntries) : 1;

  /// One signature table word.
  typedef struct packed {
    logic [31:0] stamp;
    logic [15:0] phase;
    logic [31:0] hash;
  } slot_t;
  localparam int unsigned SlotWordW = $bits(slot_t);

  logic [SigEntries-1:0] valid_q;
  logic [15:0]        next_id_q;
  logic [31:0]        uses_q;
  // Search trackers.
  logic [SlotW-1:0]   cmp_idx_q;                   // slot whose word is on the RAM output
  logic               hit_q, inv_q, lru_q;
  logic [SlotW-1:0]   hit_idx_q, inv_idx_q, lru_idx_q;
  logic [15:0]        hit_phase_q;
  logic [31:0]        lru_stamp_q;

  logic              ram_re;
  logic [SlotW-1:0]  ram_raddr, upd_slot;
  slot_t             ram_wdata, ram_rdata;
  logic [SlotWordW-1:0] ram_rdata_raw;
  logic              cmp_valid, cmp_hit;

  assign ram_re = start_i || search_i;
  assign ram_raddr = start_i ? '0 : cmp_idx_q + SlotW'(1);
  assign ram_rdata = slot_t'(ram_rdata_raw);
  assign cmp_valid = valid_q[cmp_idx_q];
  assign cmp_hit = cmp_valid && (ram_rdata.hash == hash_i);
  assign last_o = (32'(cmp_idx_q) == SigEntries - 1);

  assign upd_slot = hit_q ? hit_idx_q : (inv_q ? inv_idx_q : lru_idx_q);
  assign phase_o = hit_q ? hit_phase_q : next_id_q;
  assign new_o = !hit_q;
  assign evict_o = !hit_q && !inv_q;
  assign ram_wdata = '{stamp: uses_q, phase: phase_o, hash: hash_i};

  hwprof_ram_2p #(
    .Depth(SigEntries),
    .Width(SlotWordW),
    .GranW(SlotWordW)
  ) u_table (
    .clk_i,
    .wmask_i(update_i),
    .waddr_i(upd_slot),
    .wdata_i(ram_wdata),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata_raw)
  );

  // Valid bits, next id, uses (reset and clear_i: empty table).
  logic [SigEntries-1:0] valid_d;
  logic [15:0]        next_id_d;
  logic [31:0]        uses_d;
  always_comb begin
    valid_d = valid_q;
    next_id_d = next_id_q;
    uses_d = uses_q;
    if (update_i) begin
      valid_d[upd_slot] = 1'b1;
      next_id_d = hit_q ? next_id_q : next_id_q + 16'd1;
      uses_d = uses_q + 32'd1;
    end
    if (clear_i) {valid_d, next_id_d, uses_d} = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {valid_q, next_id_q, uses_q} <= '0;
    else {valid_q, next_id_q, uses_q} <= {valid_d, next_id_d, uses_d};
  end

  // Search trackers (no reset).
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      cmp_idx_q <= '0;
      hit_q <= 1'b0;
      inv_q <= 1'b0;
      lru_q <= 1'b0;
    end
    if (search_i) begin
      cmp_idx_q <= cmp_idx_q + SlotW'(1);
      if (!cmp_valid) begin
        if (!inv_q) begin
          inv_q <= 1'b1;
          inv_idx_q <= cmp_idx_q;
        end
      end else begin
        if (cmp_hit && !hit_q) begin
          hit_q <= 1'b1;
          hit_idx_q <= cmp_idx_q;
          hit_phase_q <= ram_rdata.phase;
        end
        if (!lru_q || ram_rdata.stamp < lru_stamp_q) begin
          lru_q <= 1'b1;
          lru_idx_q <= cmp_idx_q;
          lru_stamp_q <= ram_rdata.stamp;
        end
      end
    end
  end

endmodule

`default_nettype wire
