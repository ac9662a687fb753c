/// hwprof_rap_engine_fv: formal harness of hwprof_rap_engine (make formal,
/// formal/rap_engine.sby, docs/verification.md "RAP engine"). Every input is
/// free (events, dump backpressure, register writes: the solver sets EPS,
/// CAP, MERGE_FIRST, BUF_DEPTH and issues clear, flush and dump), with a
/// reset in the first cycle. The properties are in the RTL under
/// `ifdef FORMAL (counter conservation, every accepted event counted once,
/// no merge into the root, the event queue's handshake against
/// hwprof_fv_queue_ref, and the covers).
`default_nettype none

module hwprof_rap_engine_fv #(
  parameter int unsigned RangeW = 4,
  parameter int unsigned Groups = 2,
  parameter int unsigned QueueDepth = 2,
  parameter int unsigned MaxBuf = 1,
  parameter int unsigned BufDefault = 0,
  parameter int unsigned CntW = 33,
  parameter int unsigned TcamSlice = 0,
  /// Largest event weight (small weights keep the solver fast).
  parameter int unsigned MaxWeight = 255,
  /// Register values written (other than CMD and STATUS) are below this.
  parameter int unsigned MaxCsr = 16,
  /// 0: MERGE_FIRST keeps its reset value (no scheduled pass within the
  /// depth; capacity passes still merge).
  parameter bit SchedPass = 1,
  /// 1: EPS may be written too.
  parameter bit FreeEps = 0,
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1)
) (
  input wire logic              clk_i,
  input wire logic              rst_ni,
  input wire logic              ev_valid_i,
  input wire logic [RangeW-1:0] ev_value_i,
  input wire logic [15:0]       ev_weight_i,
  input wire logic              dump_ready_i,
  input wire logic              csr_we_i,
  input wire logic [4:0]        csr_addr_i,
  input wire logic [31:0]       csr_wdata_i
);
  logic              ev_ready, dump_valid, dump_last, dump_slot_valid;
  logic [DepthW-1:0] dump_depth;
  logic [RangeW-1:0] dump_prefix;
  logic [CntW-1:0]   dump_cnt0, dump_cnt1, dump_cnt2, dump_cnt3;
  logic [31:0]       csr_rdata;

  hwprof_rap_engine #(.RangeW(RangeW), .Groups(Groups), .QueueDepth(QueueDepth), .MaxBuf(MaxBuf),
                      .BufDefault(BufDefault), .CntW(CntW), .TcamSlice(TcamSlice)) dut (
    .clk_i, .rst_ni, .ev_valid_i, .ev_ready_o(ev_ready), .ev_value_i, .ev_weight_i,
    .dump_valid_o(dump_valid), .dump_ready_i, .dump_last_o(dump_last),
    .dump_slot_valid_o(dump_slot_valid), .dump_depth_o(dump_depth), .dump_prefix_o(dump_prefix),
    .dump_cnt0_o(dump_cnt0), .dump_cnt1_o(dump_cnt1), .dump_cnt2_o(dump_cnt2), .dump_cnt3_o(dump_cnt3),
    .csr_we_i, .csr_addr_i, .csr_wdata_i, .csr_rdata_o(csr_rdata));

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
    assume (32'(ev_weight_i) <= MaxWeight);
    // EPS keeps its reset value (about 0.1): T(n) is then a product by a
    // constant, which keeps the solver fast; heavy events reach T(n) >= 1.
    if (!FreeEps) assume (!(csr_we_i && csr_addr_i == hwprof_rap_reg_pkg::RapAddrEps));
    // Small register values (CAP, MERGE_FIRST, BUF_DEPTH; an illegal value
    // is still possible): a pass or a full table within a few events.
    if (csr_we_i && csr_addr_i != hwprof_rap_reg_pkg::RapAddrCmd && csr_addr_i != hwprof_rap_reg_pkg::RapAddrStatus)
      assume (csr_wdata_i < 32'(MaxCsr));
    if (!SchedPass) assume (!(csr_we_i && csr_addr_i == hwprof_rap_reg_pkg::RapAddrMergeFirst));
  end

endmodule

`default_nettype wire
