// hwprof_path_profiler: the whole path profiler of docs/path_profiler.md. Retired
// branch records enter the path-stack front end (branch queue, classifier,
// path stack; docs/path_stack.md) and its path descriptors feed the Hot Path
// Table (docs/hpt.md), whose contents leave through the dump port.
//
//   rec_* -> hwprof_path_frontend (u_frontend) -> desc -> hwprof_hpt (u_hpt) -> dump_*
//
// One register port for the unit: word addresses 0..15 are the front end's
// registers (hwprof_path_reg_pkg, PathAddr*), 16..31 the HPT's (HptBase +
// hwprof_hpt_reg_pkg's HptAddr*; HptBase = 16 = 2^PathAddrW, so address bit 4
// selects; kHptCsrBase in sim_models/path_profiler/path_profiler.h). Reads are
// combinational from csr_addr_i and the register state, as in both blocks.
// The front end's desc_ready is the HPT's in_ready (registered in the HPT:
// low only during a dump), so one record per clock flows end to end and a
// dump backpressures the path stack, the branch queue and then the core.
`default_nettype none

module hwprof_path_profiler #(
  /// Records held by the branch queue (>= 1).
  parameter int unsigned QueueDepth = 4,
  /// Path stack entries (>= 1).
  parameter int unsigned Depth = 16,
  /// Maximum branches per path (1..32).
  parameter int unsigned MaxLen = 32,
  /// HPT sets (power of two).
  parameter int unsigned Sets = 128,
  /// HPT ways.
  parameter int unsigned Ways = 4,
  /// HPT probation area rows (0: none; hwprof_hpt ProbSets).
  parameter int unsigned ProbSets = 0,
  /// HPT probation entries per row (hwprof_hpt ProbWays).
  parameter int unsigned ProbWays = 4,
  /// HPT probation fingerprint bits (hwprof_hpt ProbFpBits).
  parameter int unsigned ProbFpBits = 12,
  /// HPT probation count bits (hwprof_hpt ProbCountBits).
  parameter int unsigned ProbCountBits = 14,
  /// Width of the dump port's set field.
  localparam int unsigned SetW = Sets > 1 ? $clog2(Sets) : 1,
  /// Width of the dump port's way field.
  localparam int unsigned WayW = Ways > 1 ? $clog2(Ways) : 1
) (
  /// Clock.
  input  wire logic                          clk_i,
  /// Asynchronous active-low reset of every block.
  input  wire logic                          rst_ni,
  // Branch records (retire stage).
  /// A record is offered.
  input  wire logic                          rec_valid_i,
  /// The branch queue takes it.
  output logic                               rec_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t       rec_data_i,
  // HPT dump (fields meaningful while dump_valid_o).
  /// An entry is offered.
  output logic                               dump_valid_o,
  /// The consumer takes it.
  input  wire logic                          dump_ready_i,
  /// Its set.
  output logic [SetW-1:0]                    dump_set_o,
  /// Its way.
  output logic [WayW-1:0]                    dump_way_o,
  /// Path start address.
  output logic [31:0]                        dump_start_o,
  /// Path length.
  output logic [5:0]                         dump_length_o,
  /// Path directions.
  output logic [31:0]                        dump_dirs_o,
  /// Accumulator.
  output logic [31:0]                        dump_acc_o,
  /// A dump is in progress (intake paused).
  output logic                               dump_busy_o,
  // Registers.
  /// Write strobe (at the clock edge).
  input  wire logic                          csr_we_i,
  /// Word address: 0..15 front end, 16..31 HPT.
  input  wire logic [hwprof_path_reg_pkg::PathAddrW:0] csr_addr_i,
  /// Write data.
  input  wire logic [31:0]                   csr_wdata_i,
  /// Read data of csr_addr_i (combinational).
  output logic [31:0]                        csr_rdata_o
);

  import hwprof_pkg::*;
  import hwprof_path_reg_pkg::*;
  import hwprof_hpt_reg_pkg::*;

  /// Word address of the HPT's register 0: address bit PathAddrW selects.
  localparam int unsigned HptBase = 1 << PathAddrW;

  initial begin
    if (HptAddrW != PathAddrW) $fatal(1, "hwprof_path_profiler: the HPT and front-end maps must be equal in size");
  end

  localparam int unsigned LenW = $clog2(MaxLen + 1);
  localparam int unsigned CountW = $clog2(Depth + 1);

  // Descriptor from the front end to the HPT.
  logic                   desc_valid, desc_ready, desc_incomplete;
  logic [AddrW-1:0]       desc_start;
  logic [LenW-1:0]        desc_length;
  logic [MaxLen-1:0]      desc_dirs;
  logic [DescEventsW-1:0] desc_events;
  logic [DescInsnsW-1:0]  desc_insns;
  // The HPT ignores the extension count, the split and frame-end flags and
  // the depth (they are for the phase detector and k-paths).
  logic [ExtW-1:0]      unused_ext;
  logic                 unused_split, unused_frame_end;
  logic [CountW-1:0]    unused_depth;

  logic                 sel_hpt;
  logic [31:0]          fe_rdata, hpt_rdata;

  assign sel_hpt = csr_addr_i >= (PathAddrW + 1)'(HptBase);  // i.e. bit PathAddrW

  hwprof_path_frontend #(
    .QueueDepth(QueueDepth),
    .Depth     (Depth),
    .MaxLen    (MaxLen)
  ) u_frontend (
    .clk_i,
    .rst_ni,
    .rec_valid_i,
    .rec_ready_o,
    .rec_data_i,
    .desc_valid_o     (desc_valid),
    .desc_ready_i     (desc_ready),
    .desc_start_o     (desc_start),
    .desc_length_o    (desc_length),
    .desc_dirs_o      (desc_dirs),
    .desc_events_o    (desc_events),
    .desc_insns_o     (desc_insns),
    .desc_ext_o       (unused_ext),
    .desc_incomplete_o(desc_incomplete),
    .desc_split_o     (unused_split),
    .desc_frame_end_o (unused_frame_end),
    .desc_depth_o     (unused_depth),
    .csr_we_i         (csr_we_i && !sel_hpt),
    .csr_addr_i       (csr_addr_i[PathAddrW-1:0]),
    .csr_wdata_i,
    .csr_rdata_o      (fe_rdata)
  );

  hwprof_hpt #(
    .Sets(Sets),
    .Ways(Ways),
    .ProbSets(ProbSets),
    .ProbWays(ProbWays),
    .ProbFpBits(ProbFpBits),
    .ProbCountBits(ProbCountBits)
  ) u_hpt (
    .clk_i,
    .rst_ni,
    .in_valid_i     (desc_valid),
    .in_ready_o     (desc_ready),
    .in_start_i     (desc_start),
    .in_length_i    (6'(desc_length)),
    .in_dirs_i      (32'(desc_dirs)),
    .in_events_i    (desc_events),
    .in_insns_i     (desc_insns),
    .in_incomplete_i(desc_incomplete),
    .dump_valid_o,
    .dump_ready_i,
    .dump_set_o,
    .dump_way_o,
    .dump_start_o,
    .dump_length_o,
    .dump_dirs_o,
    .dump_acc_o,
    .dump_busy_o,
    .csr_we_i       (csr_we_i && sel_hpt),
    .csr_addr_i     (csr_addr_i[HptAddrW-1:0]),
    .csr_wdata_i,
    .csr_rdata_o    (hpt_rdata)
  );

  assign csr_rdata_o = sel_hpt ? hpt_rdata : fe_rdata;

endmodule

`default_nettype wire
