// hwprof_path_frontend: the path profiler front end of docs/path_stack.md. Retired
// branch records pass through the branch queue, the classifier and the path
// stack and leave as path descriptors; a small register file holds the PPCR,
// the status and the path stack's counters.
//
//   rec_* -> hwprof_branch_queue (u_queue) -> hwprof_path_classifier (u_classifier)
//         -> hwprof_path_stack (u_stack) -> desc_*
//   hwprof_ppcr_reg (u_ppcr) -> the classifier's ppcr_i
//
// Latency: a record enqueued at edge t is in the classifier register at edge
// t+1 at the earliest and is processed by the path stack at edge t+2, its
// descriptor (if any) on desc_* from edge t+2 until taken. One record per
// clock is sustained for every class and every PPCR setting; only
// backpressure on desc_* stalls.
//
// Registers: data/regs/path.json
// (generated: hwprof_path_reg_pkg, docs/path_stack.md, "Register map").
// Same-cycle ordering: csr_rdata_o is combinational from csr_addr_i and the
// current register state (a write shows in reads from the next cycle). A
// PPCR write applies to records taken by the classifier after the write's
// edge. An illegal PPCR write and a STATUS clear in the same cycle cannot
// both happen (one address per cycle); within hwprof_ppcr_reg the rejected write
// would win.
`default_nettype none

module hwprof_path_frontend #(
  /// Records held by the branch queue (>= 1).
  parameter int unsigned QueueDepth = 4,
  /// Path stack entries (>= 1).
  parameter int unsigned Depth = 16,
  /// Maximum branches per path (1..32).
  parameter int unsigned MaxLen = 32,
  /// Width of the descriptor length field.
  localparam int unsigned LenW = $clog2(MaxLen + 1),
  /// Width of the descriptor depth field.
  localparam int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  wire logic                              clk_i,
  /// Asynchronous active-low reset: empties every stage, clears the counters,
  /// restores the PPCR to BL.
  input  wire logic                              rst_ni,
  // Branch records (retire stage).
  /// A record is offered.
  input  wire logic                              rec_valid_i,
  /// The branch queue takes it (registered: the queue is not full).
  output logic                                   rec_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t           rec_data_i,
  // Path descriptors (registered; fields meaningful while desc_valid_o).
  /// A descriptor is held.
  output logic                                   desc_valid_o,
  /// The consumer takes it this cycle.
  input  wire logic                              desc_ready_i,
  /// Path start address.
  output logic [hwprof_pkg::AddrW-1:0]           desc_start_o,
  /// Branches on the path.
  output logic [LenW-1:0]                        desc_length_o,
  /// Directions; bit i = i-th branch.
  output logic [MaxLen-1:0]                      desc_dirs_o,
  /// Events on the path (saturating).
  output logic [hwprof_pkg::DescEventsW-1:0]     desc_events_o,
  /// Instructions on the path (saturating).
  output logic [hwprof_pkg::DescInsnsW-1:0]      desc_insns_o,
  /// Loop extensions taken.
  output logic [hwprof_pkg::ExtW-1:0]            desc_ext_o,
  /// The path began at a missing top of stack.
  output logic                                   desc_incomplete_o,
  /// Emitted because it reached MaxLen.
  output logic                                   desc_split_o,
  /// Emitted by a pop of a record that does not push.
  output logic                                   desc_frame_end_o,
  /// Stack occupancy at emission, the emitted entry included.
  output logic [CountW-1:0]                      desc_depth_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic                              csr_we_i,
  /// Word address.
  input  wire logic [hwprof_path_reg_pkg::PathAddrW-1:0] csr_addr_i,
  /// Write data.
  input  wire logic [31:0]                       csr_wdata_i,
  /// Read data of csr_addr_i (combinational).
  output logic [31:0]                            csr_rdata_o
);

  import hwprof_pkg::*;
  import hwprof_path_reg_pkg::*;

  initial begin
    if (QueueDepth < 1) $fatal(1, "hwprof_path_frontend: QueueDepth must be >= 1");
    if (Depth < 1) $fatal(1, "hwprof_path_frontend: Depth must be >= 1");
    if (MaxLen < 1 || MaxLen > 32) $fatal(1, "hwprof_path_frontend: MaxLen must be 1..32");
  end

  localparam int unsigned QCountW = $clog2(QueueDepth + 1);
  localparam int unsigned StatW = 32;
  localparam int unsigned NumStats = 32'(PathAddrStallCycles) - 32'(PathAddrRecords) + 1;

  // ---------------------------------------------------------------------
  // Datapath.

  logic              q_valid, q_ready;
  branch_rec_t       q_data;
  logic [QCountW-1:0] q_count;
  logic              c_valid, c_ready;
  path_rec_t         c_data;
  logic [PpcrW-1:0]  ppcr;
  logic              ppcr_err;
  logic [CountW-1:0] stack_count;
  logic [NumStats-1:0][StatW-1:0] st;  // the counter at PathAddrRecords + k

  hwprof_branch_queue #(
    .Depth(QueueDepth)
  ) u_queue (
    .clk_i,
    .rst_ni,
    .enq_valid_i(rec_valid_i),
    .enq_ready_o(rec_ready_o),
    .enq_data_i (rec_data_i),
    .deq_valid_o(q_valid),
    .deq_ready_i(q_ready),
    .deq_data_o (q_data),
    .count_o    (q_count)
  );

  hwprof_path_classifier u_classifier (
    .clk_i,
    .rst_ni,
    .ppcr_i     (ppcr),
    .in_valid_i (q_valid),
    .in_ready_o (q_ready),
    .in_data_i  (q_data),
    .out_valid_o(c_valid),
    .out_ready_i(c_ready),
    .out_data_o (c_data)
  );

  hwprof_path_stack #(
    .Depth (Depth),
    .MaxLen(MaxLen)
  ) u_stack (
    .clk_i,
    .rst_ni,
    .in_valid_i         (c_valid),
    .in_ready_o         (c_ready),
    .in_data_i          (c_data),
    .out_valid_o        (desc_valid_o),
    .out_ready_i        (desc_ready_i),
    .out_start_o        (desc_start_o),
    .out_length_o       (desc_length_o),
    .out_dirs_o         (desc_dirs_o),
    .out_events_o       (desc_events_o),
    .out_insns_o        (desc_insns_o),
    .out_ext_o          (desc_ext_o),
    .out_incomplete_o   (desc_incomplete_o),
    .out_split_o        (desc_split_o),
    .out_frame_end_o    (desc_frame_end_o),
    .out_depth_o        (desc_depth_o),
    .count_o            (stack_count),
    .stat_records_o     (st[0]),
    .stat_emitted_o     (st[1]),
    .stat_incomplete_o  (st[2]),
    .stat_splits_o      (st[3]),
    .stat_overflows_o   (st[4]),
    .stat_empty_pops_o  (st[5]),
    .stat_stall_cycles_o(st[6])
  );

  // ---------------------------------------------------------------------
  // Registers.

  hwprof_ppcr_reg u_ppcr (
    .clk_i,
    .rst_ni,
    .we_i       (csr_we_i && csr_addr_i == PathAddrPpcr),
    .wdata_i    (csr_wdata_i),
    .err_clear_i(csr_we_i && csr_addr_i == PathAddrStatus && csr_wdata_i[PathStatusPpcrErrBit]),
    .ppcr_o     (ppcr),
    .err_o      (ppcr_err)
  );

  // Occupancy and parameters as 8-bit fields (truncated if ever wider).
  logic [31:0] status;
  assign status = (32'(ppcr_err) << PathStatusPpcrErrBit) |
                  (32'(PathStatusOccupancyW'(stack_count)) << PathStatusOccupancyLsb);

  localparam logic [31:0] ParamsWord = (32'(PathParamsDepthW'(Depth)) << PathParamsDepthLsb) |
                                       (32'(PathParamsMaxLenW'(MaxLen)) << PathParamsMaxLenLsb) |
                                       (32'(PathParamsQueueDepthW'(QueueDepth)) << PathParamsQueueDepthLsb);

  // Counter k at PathAddrRecords + k; addresses above PARAMS read 0. One
  // flat selection on the address (no offset subtraction before the mux).
  always_comb begin
    csr_rdata_o = '0;
    for (int unsigned k = 0; k < NumStats; k++) begin
      if (csr_addr_i == PathAddrW'(32'(PathAddrRecords) + k)) csr_rdata_o = st[k];
    end
    if (csr_addr_i == PathAddrPpcr)   csr_rdata_o = ppcr;
    if (csr_addr_i == PathAddrStatus) csr_rdata_o = status;
    if (csr_addr_i == PathAddrParams) csr_rdata_o = ParamsWord;
  end

  // The queue occupancy is not mapped.
  logic [QCountW-1:0] unused_q_count;
  assign unused_q_count = q_count;

endmodule

`default_nettype wire
