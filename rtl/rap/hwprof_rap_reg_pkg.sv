// hwprof_rap_reg_pkg: generated register map, see below.
// Register map of hwprof_rap_engine's csr port (docs/rap_engine.md).
// Generated from data/regs/rap.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_rap_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned RapAddrW = 5;
  /// Registers at addresses 0..RapNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned RapNumRegs = 23;

  // Addresses.
  /// EPS: staged epsilon (rw, staged).
  localparam logic [RapAddrW-1:0] RapAddrEps = 5'd0;
  /// CAP: staged NodeCap (rw, staged).
  localparam logic [RapAddrW-1:0] RapAddrCap = 5'd1;
  /// MERGE_FIRST: staged first merge point (rw, staged).
  localparam logic [RapAddrW-1:0] RapAddrMergeFirst = 5'd2;
  /// BUF_DEPTH: staged merging-buffer depth (rw, staged).
  localparam logic [RapAddrW-1:0] RapAddrBufDepth = 5'd3;
  /// CMD: command (wo, reads 0).
  localparam logic [RapAddrW-1:0] RapAddrCmd = 5'd4;
  /// STATUS: status (ro).
  localparam logic [RapAddrW-1:0] RapAddrStatus = 5'd5;
  /// N_LO: n, low word (ro).
  localparam logic [RapAddrW-1:0] RapAddrNLo = 5'd6;
  /// N_HI: n, high word (ro).
  localparam logic [RapAddrW-1:0] RapAddrNHi = 5'd7;
  /// RAW: raw events (ro).
  localparam logic [RapAddrW-1:0] RapAddrRaw = 5'd8;
  /// PAIRS: pairs committed (ro).
  localparam logic [RapAddrW-1:0] RapAddrPairs = 5'd9;
  /// SPLITS: splits (ro).
  localparam logic [RapAddrW-1:0] RapAddrSplits = 5'd10;
  /// SKIPPED: skipped splits (ro).
  localparam logic [RapAddrW-1:0] RapAddrSkipped = 5'd11;
  /// SCHED_PASSES: scheduled passes (ro).
  localparam logic [RapAddrW-1:0] RapAddrSchedPasses = 5'd12;
  /// CAP_PASSES: capacity passes (ro).
  localparam logic [RapAddrW-1:0] RapAddrCapPasses = 5'd13;
  /// MERGES: merges (ro).
  localparam logic [RapAddrW-1:0] RapAddrMerges = 5'd14;
  /// NODES: nodes (ro).
  localparam logic [RapAddrW-1:0] RapAddrNodes = 5'd15;
  /// PEAK: peak nodes (ro).
  localparam logic [RapAddrW-1:0] RapAddrPeak = 5'd16;
  /// STALL_FLUSH: replay stalls (ro).
  localparam logic [RapAddrW-1:0] RapAddrStallFlush = 5'd17;
  /// STALL_CAP: capacity-pass cycles (ro).
  localparam logic [RapAddrW-1:0] RapAddrStallCap = 5'd18;
  /// STALL_SCHED: scheduled-pass cycles (ro).
  localparam logic [RapAddrW-1:0] RapAddrStallSched = 5'd19;
  /// IN_STALL: ingress stall cycles (ro).
  localparam logic [RapAddrW-1:0] RapAddrInStall = 5'd20;
  /// PARAMS: build parameters (ro).
  localparam logic [RapAddrW-1:0] RapAddrParams = 5'd21;
  /// STALL_TCAM: TCAM write cycles (ro).
  localparam logic [RapAddrW-1:0] RapAddrStallTcam = 5'd22;

  // Reset values.
  localparam logic [31:0] RapEpsReset = 32'd6554;
  localparam logic [31:0] RapMergeFirstReset = 32'd1024;

  // CMD fields.
  /// CMD.clear: apply the staged values and reset the tree, queue, buffer, pipeline and counters
  /// (wins over everything in its cycle).
  localparam int unsigned RapCmdClearBit = 0;
  /// CMD.flush: flush the merging buffer into the tree.
  localparam int unsigned RapCmdFlushBit = 1;
  /// CMD.dump: start a dump; only when idle, else ignored and err set.
  localparam int unsigned RapCmdDumpBit = 2;

  // STATUS fields.
  /// STATUS.err: an illegal write or command (sticky).
  localparam int unsigned RapStatusErrBit = 0;
  /// STATUS.idle: queue, buffer, P and S1 empty, RUN, not flushing.
  localparam int unsigned RapStatusIdleBit = 1;
  /// STATUS.full: a split was skipped for want of a group (set when a capacity pass frees none;
  /// cleared when a scheduled pass ends).
  localparam int unsigned RapStatusFullBit = 2;
  /// STATUS.dumping: a dump is running.
  localparam int unsigned RapStatusDumpingBit = 3;
  /// STATUS.pass: a merge pass is running.
  localparam int unsigned RapStatusPassBit = 4;
  /// STATUS.flushing: the buffer is being flushed.
  localparam int unsigned RapStatusFlushingBit = 5;
  /// STATUS.twr: the RAM TCAM's write after a split (TWR).
  localparam int unsigned RapStatusTwrBit = 6;

  // PARAMS fields.
  /// PARAMS.groups: Groups.
  localparam int unsigned RapParamsGroupsLsb = 0;
  localparam int unsigned RapParamsGroupsW = 12;
  /// PARAMS.max_buf: MaxBuf.
  localparam int unsigned RapParamsMaxBufLsb = 12;
  localparam int unsigned RapParamsMaxBufW = 4;
  /// PARAMS.range_w: RangeW (2..64).
  localparam int unsigned RapParamsRangeWLsb = 16;
  localparam int unsigned RapParamsRangeWW = 7;
  /// PARAMS.tcam_slice: TcamSlice (0: flip-flop TCAM).
  localparam int unsigned RapParamsTcamSliceLsb = 23;
  localparam int unsigned RapParamsTcamSliceW = 4;

endpackage

`default_nettype wire
