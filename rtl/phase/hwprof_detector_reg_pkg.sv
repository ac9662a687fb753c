// hwprof_detector_reg_pkg: generated register map, see below.
// Register map of hwprof_phase_detector's csr port (docs/phase_detector.md).
// Generated from data/regs/detector.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_detector_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned DetAddrW = 4;
  /// Registers at addresses 0..DetNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned DetNumRegs = 13;

  // Addresses.
  /// CTRL: control (wo, reads 0).
  localparam logic [DetAddrW-1:0] DetAddrCtrl = 4'd0;
  /// STATUS: status (ro).
  localparam logic [DetAddrW-1:0] DetAddrStatus = 4'd1;
  /// INTERVAL: interval length (rw).
  localparam logic [DetAddrW-1:0] DetAddrInterval = 4'd2;
  /// THRESHOLD: match threshold (rw).
  localparam logic [DetAddrW-1:0] DetAddrThreshold = 4'd3;
  /// PPCR: path profiler control register (rw).
  localparam logic [DetAddrW-1:0] DetAddrPpcr = 4'd4;
  /// RECORDS: records (ro).
  localparam logic [DetAddrW-1:0] DetAddrRecords = 4'd5;
  /// FEATURES: features (ro).
  localparam logic [DetAddrW-1:0] DetAddrFeatures = 4'd6;
  /// IGNORED: ignored paths (ro).
  localparam logic [DetAddrW-1:0] DetAddrIgnored = 4'd7;
  /// INTERVALS: intervals (ro).
  localparam logic [DetAddrW-1:0] DetAddrIntervals = 4'd8;
  /// PHASES: new phases (ro).
  localparam logic [DetAddrW-1:0] DetAddrPhases = 4'd9;
  /// STALL_CYCLES: stall cycles (ro).
  localparam logic [DetAddrW-1:0] DetAddrStallCycles = 4'd10;
  /// BUSY_CYCLES: busy cycles (ro).
  localparam logic [DetAddrW-1:0] DetAddrBusyCycles = 4'd11;
  /// PARAMS: build parameters (ro).
  localparam logic [DetAddrW-1:0] DetAddrParams = 4'd12;

  // CTRL fields.
  /// CTRL.restart: with bits 31:1 zero.
  localparam int unsigned DetCtrlRestartBit = 0;

  // STATUS fields.
  /// STATUS.err: illegal CTRL/INTERVAL/THRESHOLD write.
  localparam int unsigned DetStatusErrBit = 0;
  /// STATUS.ppcr_err: path mode: a PPCR write was rejected.
  localparam int unsigned DetStatusPpcrErrBit = 1;
  /// STATUS.busy: the background signature pass is running (Wait .. Capt) or an interval end waits
  /// for it.
  localparam int unsigned DetStatusBusyBit = 2;
  /// STATUS.res_valid: a result is pending.
  localparam int unsigned DetStatusResValidBit = 3;

  // PARAMS fields.
  /// PARAMS.counters: Counters.
  localparam int unsigned DetParamsCountersLsb = 0;
  localparam int unsigned DetParamsCountersW = 8;
  /// PARAMS.sig_w: SigW.
  localparam int unsigned DetParamsSigWLsb = 8;
  localparam int unsigned DetParamsSigWW = 8;
  /// PARAMS.entries: Entries.
  localparam int unsigned DetParamsEntriesLsb = 16;
  localparam int unsigned DetParamsEntriesW = 8;
  /// PARAMS.mode: Mode (0 BBV, 1 path).
  localparam int unsigned DetParamsModeBit = 24;

endpackage

`default_nettype wire
