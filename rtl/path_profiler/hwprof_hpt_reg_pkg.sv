// hwprof_hpt_reg_pkg: generated register map, see below.
// Register map of hwprof_hpt's csr port (docs/hpt.md).
// Generated from data/regs/hpt.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_hpt_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned HptAddrW = 4;
  /// Registers at addresses 0..HptNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned HptNumRegs = 12;

  // Addresses.
  /// CTRL: control (rw).
  localparam logic [HptAddrW-1:0] HptAddrCtrl = 4'd0;
  /// STATUS: status (ro).
  localparam logic [HptAddrW-1:0] HptAddrStatus = 4'd1;
  /// CMD: command (wo, reads 0).
  localparam logic [HptAddrW-1:0] HptAddrCmd = 4'd2;
  /// DESCS: descriptors (ro).
  localparam logic [HptAddrW-1:0] HptAddrDescs = 4'd3;
  /// HITS: hits (ro).
  localparam logic [HptAddrW-1:0] HptAddrHits = 4'd4;
  /// FILLS: fills (ro).
  localparam logic [HptAddrW-1:0] HptAddrFills = 4'd5;
  /// REPLACEMENTS: replacements (ro).
  localparam logic [HptAddrW-1:0] HptAddrReplacements = 4'd6;
  /// REJECTS: rejects (ro).
  localparam logic [HptAddrW-1:0] HptAddrRejects = 4'd7;
  /// SATURATIONS: saturations (ro).
  localparam logic [HptAddrW-1:0] HptAddrSaturations = 4'd8;
  /// IGNORED: ignored (ro).
  localparam logic [HptAddrW-1:0] HptAddrIgnored = 4'd9;
  /// STALL_CYCLES: stall cycles (ro).
  localparam logic [HptAddrW-1:0] HptAddrStallCycles = 4'd10;
  /// PARAMS: build parameters (ro).
  localparam logic [HptAddrW-1:0] HptAddrParams = 4'd11;

  // Reset values.
  localparam logic [31:0] HptCtrlReset = 32'h00000022;

  // CTRL fields.
  /// CTRL.index: 0 `plb`, 1 `pb`.
  localparam int unsigned HptCtrlIndexBit = 0;
  /// CTRL.skew: skewed way indices.
  localparam int unsigned HptCtrlSkewBit = 1;
  /// CTRL.metric: 0 freq, 1 events, 2 insns; 3 illegal.
  localparam int unsigned HptCtrlMetricLsb = 2;
  localparam int unsigned HptCtrlMetricW = 2;
  /// CTRL.policy: 0 lfu, 1 ss, 2 erode, 3 lfu+prob (lfu with the probation area; illegal when
  /// PARAMS.prob is 0).
  localparam int unsigned HptCtrlPolicyLsb = 4;
  localparam int unsigned HptCtrlPolicyW = 2;

  // STATUS fields.
  /// STATUS.err: an illegal CTRL write or a command during a dump.
  localparam int unsigned HptStatusErrBit = 0;
  /// STATUS.dump_busy: a dump is in progress.
  localparam int unsigned HptStatusDumpBusyBit = 1;

  // CMD fields.
  /// CMD.clear: invalidate every entry.
  localparam int unsigned HptCmdClearBit = 0;
  /// CMD.dump: start a dump.
  localparam int unsigned HptCmdDumpBit = 1;
  /// CMD.clear_stats: zero the counters.
  localparam int unsigned HptCmdClearStatsBit = 2;

  // PARAMS fields.
  /// PARAMS.set_bits: log2(Sets).
  localparam int unsigned HptParamsSetBitsLsb = 0;
  localparam int unsigned HptParamsSetBitsW = 8;
  /// PARAMS.prob: the probation area is built (ProbSets > 0): CTRL.policy 3 is legal.
  localparam int unsigned HptParamsProbBit = 8;
  /// PARAMS.ways: Ways.
  localparam int unsigned HptParamsWaysLsb = 16;
  localparam int unsigned HptParamsWaysW = 16;

endpackage

`default_nettype wire
