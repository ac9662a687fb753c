/// hwprof_dcr_tracker_fv: formal harness of hwprof_dcr_tracker (make formal,
/// formal/dcr.sby, docs/verification.md). Every input is free: the branch
/// record (any kind, addresses, taken, ilen, insns; held while offered and
/// not taken, the tracker's input contract), the result handshake and the
/// register writes (INTERVAL including 0, CMD restart / clear_table /
/// clear_stats, also while busy, STATUS, other addresses); the design is
/// reset in the first cycle and never again. The depth and skip-mode
/// properties are inside the RTL under `ifdef FORMAL
/// (rtl/phase/hwprof_dcr_tracker.sv, with the stack invariants in
/// rtl/phase/hwprof_dcr_stack.sv): the front end does not honour
/// hierarchical references from a harness into the design.
`default_nettype none

module hwprof_dcr_tracker_fv #(
  parameter int unsigned Depth = 3,
  parameter int unsigned SigEntries = 2,
  parameter int unsigned MarkovEntries = 2,
  parameter int unsigned IntervalReset = 3,
  /// 1: addresses from a small space (0x0..0x3f and 0x100..0x13f) so that
  /// calls, returns and loops meet (cover task); 0: any address.
  parameter bit Narrow = 0
) (
  input wire logic                    clk_i,
  input wire logic                    rst_ni,
  input wire logic                    rec_valid_i,
  input wire hwprof_pkg::branch_rec_t rec_i,
  input wire logic                    res_ready_i,
  input wire logic                    csr_we_i,
  input wire logic [3:0]              csr_addr_i,
  input wire logic [31:0]             csr_wdata_i
);
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  // The record is held (valid and data) while offered and not taken.
  logic                    rec_ready, hold_q;
  hwprof_pkg::branch_rec_t rec_q;
  always_ff @(posedge clk_i) begin
    hold_q <= rec_valid_i && !rec_ready;
    rec_q  <= rec_i;
  end

  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
    if (!init_q && hold_q) assume (rec_valid_i && rec_i == rec_q);
    if (Narrow) begin
      assume (rec_i.pc[31:9] == '0 && rec_i.pc[7:6] == '0);
      assume (rec_i.target[31:9] == '0 && rec_i.target[7:6] == '0);
    end
  end

  logic        res_valid;
  logic [15:0] res_phase, res_pred;
  logic [7:0]  res_depth, res_flags;
  logic [31:0] res_hash, csr_rdata;

  hwprof_dcr_tracker #(
    .Depth(Depth), .SigEntries(SigEntries), .MarkovEntries(MarkovEntries), .IntervalReset(IntervalReset)
  ) dut (
    .clk_i, .rst_ni, .rec_valid_i, .rec_ready_o(rec_ready), .rec_i,
    .res_valid_o(res_valid), .res_ready_i, .res_phase_o(res_phase), .res_pred_o(res_pred),
    .res_depth_o(res_depth), .res_flags_o(res_flags), .res_hash_o(res_hash),
    .csr_we_i, .csr_addr_i, .csr_wdata_i, .csr_rdata_o(csr_rdata));

  // Port level: STATUS shows a size within Depth.
  always_comb begin
    if (!init_q && csr_addr_i == hwprof_dcr_reg_pkg::DcrAddrStatus) assert (32'(csr_rdata[15:8]) <= Depth);
  end
endmodule

`default_nettype wire
