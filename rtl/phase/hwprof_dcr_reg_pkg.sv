// hwprof_dcr_reg_pkg: generated register map, see below.
// Register map of hwprof_dcr_tracker's csr port (docs/dcr.md).
// Generated from data/regs/dcr.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_dcr_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned DcrAddrW = 4;
  /// Registers at addresses 0..DcrNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned DcrNumRegs = 16;

  // Addresses.
  /// STATUS: status (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrStatus = 4'd0;
  /// CMD: command (wo, reads 0).
  localparam logic [DcrAddrW-1:0] DcrAddrCmd = 4'd1;
  /// INTERVAL: interval length (rw).
  localparam logic [DcrAddrW-1:0] DcrAddrInterval = 4'd2;
  /// RECORDS: records (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrRecords = 4'd3;
  /// INTERVALS: intervals (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrIntervals = 4'd4;
  /// PUSHES: pushes (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrPushes = 4'd5;
  /// POPS: pops (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrPops = 4'd6;
  /// OVERFLOWS: overflows (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrOverflows = 4'd7;
  /// RECURSIONS: recursions (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrRecursions = 4'd8;
  /// RESYNCS: resyncs (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrResyncs = 4'd9;
  /// NEW_PHASES: new phases (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrNewPhases = 4'd10;
  /// EVICTIONS: evictions (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrEvictions = 4'd11;
  /// SCORED: scored intervals (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrScored = 4'd12;
  /// CORRECT: correct predictions (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrCorrect = 4'd13;
  /// STALL_CYCLES: stall cycles (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrStallCycles = 4'd14;
  /// PARAMS: build parameters (ro).
  localparam logic [DcrAddrW-1:0] DcrAddrParams = 4'd15;

  // STATUS fields.
  /// STATUS.err: a command while busy or an INTERVAL write of 0.
  localparam int unsigned DcrStatusErrBit = 0;
  /// STATUS.busy: an interval end is being answered or its result waits, or a record waits in the
  /// input buffer.
  localparam int unsigned DcrStatusBusyBit = 1;
  /// STATUS.skip: skip mode.
  localparam int unsigned DcrStatusSkipBit = 2;
  /// STATUS.size: stack size.
  localparam int unsigned DcrStatusSizeLsb = 8;
  localparam int unsigned DcrStatusSizeW = 8;

  // CMD fields.
  /// CMD.restart: empty stack, skip off, overflow flag off, interval count 0.
  localparam int unsigned DcrCmdRestartBit = 0;
  /// CMD.clear_table: slots invalid, next id 0, uses 0, Markov predictor cleared, no previous
  /// phase.
  localparam int unsigned DcrCmdClearTableBit = 1;
  /// CMD.clear_stats: zero the counters.
  localparam int unsigned DcrCmdClearStatsBit = 2;

  // PARAMS fields.
  /// PARAMS.depth: Depth.
  localparam int unsigned DcrParamsDepthLsb = 0;
  localparam int unsigned DcrParamsDepthW = 8;
  /// PARAMS.markov_lg: log2(MarkovEntries).
  localparam int unsigned DcrParamsMarkovLgLsb = 8;
  localparam int unsigned DcrParamsMarkovLgW = 8;
  /// PARAMS.sig_entries: SigEntries.
  localparam int unsigned DcrParamsSigEntriesLsb = 16;
  localparam int unsigned DcrParamsSigEntriesW = 16;

endpackage

`default_nettype wire
