// hwprof_path_reg_pkg: generated register map, see below.
// Register map of hwprof_path_frontend's csr port (docs/path_stack.md).
// Generated from data/regs/path.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_path_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned PathAddrW = 4;
  /// Registers at addresses 0..PathNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned PathNumRegs = 10;

  // Addresses.
  /// PPCR: path profiler control register (rw).
  localparam logic [PathAddrW-1:0] PathAddrPpcr = 4'd0;
  /// STATUS: status (ro).
  localparam logic [PathAddrW-1:0] PathAddrStatus = 4'd1;
  /// RECORDS: records (ro).
  localparam logic [PathAddrW-1:0] PathAddrRecords = 4'd2;
  /// EMITTED: descriptors emitted (ro).
  localparam logic [PathAddrW-1:0] PathAddrEmitted = 4'd3;
  /// INCOMPLETE: incomplete descriptors (ro).
  localparam logic [PathAddrW-1:0] PathAddrIncomplete = 4'd4;
  /// SPLITS: split descriptors (ro).
  localparam logic [PathAddrW-1:0] PathAddrSplits = 4'd5;
  /// OVERFLOWS: overflows (ro).
  localparam logic [PathAddrW-1:0] PathAddrOverflows = 4'd6;
  /// EMPTY_POPS: empty pops (ro).
  localparam logic [PathAddrW-1:0] PathAddrEmptyPops = 4'd7;
  /// STALL_CYCLES: stall cycles (ro).
  localparam logic [PathAddrW-1:0] PathAddrStallCycles = 4'd8;
  /// PARAMS: build parameters (ro).
  localparam logic [PathAddrW-1:0] PathAddrParams = 4'd9;

  // Reset values.
  localparam logic [31:0] PathPpcrReset = 32'h000d6ad1;
  /// PPCR preset WPP: paper 000 Table 2 (the reset value is BL, Table 1).
  localparam logic [31:0] PathPpcrWpp = 32'h000deed1;

  // PPCR fields.
  /// PPCR.forward: operations of the forward class.
  localparam int unsigned PathPpcrForwardLsb = 0;
  localparam int unsigned PathPpcrForwardW = 4;
  /// PPCR.backward: backward class.
  localparam int unsigned PathPpcrBackwardLsb = 4;
  localparam int unsigned PathPpcrBackwardW = 4;
  /// PPCR.call: call class.
  localparam int unsigned PathPpcrCallLsb = 8;
  localparam int unsigned PathPpcrCallW = 4;
  /// PPCR.return: return class.
  localparam int unsigned PathPpcrReturnLsb = 12;
  localparam int unsigned PathPpcrReturnW = 4;
  /// PPCR.indirect: indirect class.
  localparam int unsigned PathPpcrIndirectLsb = 16;
  localparam int unsigned PathPpcrIndirectW = 4;
  /// PPCR.ext_loops: extended loop paths.
  localparam int unsigned PathPpcrExtLoopsBit = 20;
  /// PPCR.max_ext: extensions per path (0..3).
  localparam int unsigned PathPpcrMaxExtLsb = 21;
  localparam int unsigned PathPpcrMaxExtW = 2;

  // STATUS fields.
  /// STATUS.ppcr_err: a PPCR write was rejected.
  localparam int unsigned PathStatusPpcrErrBit = 0;
  /// STATUS.occupancy: stack occupancy.
  localparam int unsigned PathStatusOccupancyLsb = 8;
  localparam int unsigned PathStatusOccupancyW = 8;

  // PARAMS fields.
  /// PARAMS.depth: Depth.
  localparam int unsigned PathParamsDepthLsb = 0;
  localparam int unsigned PathParamsDepthW = 8;
  /// PARAMS.max_len: MaxLen.
  localparam int unsigned PathParamsMaxLenLsb = 8;
  localparam int unsigned PathParamsMaxLenW = 8;
  /// PARAMS.queue_depth: QueueDepth.
  localparam int unsigned PathParamsQueueDepthLsb = 16;
  localparam int unsigned PathParamsQueueDepthW = 8;

endpackage

`default_nettype wire
