// hwprof_soc_reg_pkg: generated register map, see below.
// Register map of hwprof_soc_unit's csr port (docs/soc.md).
// Generated from data/regs/soc.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
`default_nettype none

package hwprof_soc_reg_pkg;

  /// Width of csr_addr_i.
  localparam int unsigned SocAddrW = 4;
  /// Registers at addresses 0..SocNumRegs-1; other addresses read 0, writes ignored.
  localparam int unsigned SocNumRegs = 13;

  // Addresses.
  /// CTRL: control (rw).
  localparam logic [SocAddrW-1:0] SocAddrCtrl = 4'd0;
  /// STATUS: status (ro).
  localparam logic [SocAddrW-1:0] SocAddrStatus = 4'd1;
  /// LOAD_ADDR: load address (rw).
  localparam logic [SocAddrW-1:0] SocAddrLoadAddr = 4'd2;
  /// LOAD_DATA: load data (wo, reads 0).
  localparam logic [SocAddrW-1:0] SocAddrLoadData = 4'd3;
  /// CONSOLE: console (rw).
  localparam logic [SocAddrW-1:0] SocAddrConsole = 4'd4;
  /// CYCLES: cycles (ro).
  localparam logic [SocAddrW-1:0] SocAddrCycles = 4'd5;
  /// RETIRED: retired (ro).
  localparam logic [SocAddrW-1:0] SocAddrRetired = 4'd6;
  /// RECORDS: records (ro).
  localparam logic [SocAddrW-1:0] SocAddrRecords = 4'd7;
  /// DROPPED: dropped (ro).
  localparam logic [SocAddrW-1:0] SocAddrDropped = 4'd8;
  /// VALS: val records (ro).
  localparam logic [SocAddrW-1:0] SocAddrVals = 4'd9;
  /// VAL_DROPPED: val records dropped (ro).
  localparam logic [SocAddrW-1:0] SocAddrValDropped = 4'd10;
  /// HOLD_CYCLES: hold cycles (ro).
  localparam logic [SocAddrW-1:0] SocAddrHoldCycles = 4'd11;
  /// PARAMS: build parameters (ro).
  localparam logic [SocAddrW-1:0] SocAddrParams = 4'd12;

  // Reset values.
  localparam logic [31:0] SocCtrlReset = 32'd0;
  localparam logic [31:0] SocLoadAddrReset = 32'd0;
  localparam logic [31:0] SocConsoleReset = 32'd0;

  // CTRL fields.
  /// CTRL.run: release the core from reset.
  localparam int unsigned SocCtrlRunBit = 0;
  /// CTRL.ev_sel: ingress event selection (hwprof_rvfi_ingress ev_sel_i): 0 loads and stores, 1
  /// loads, 2 stores, 3 the core event input (tied to 0 in the SoC).
  localparam int unsigned SocCtrlEvSelLsb = 1;
  localparam int unsigned SocCtrlEvSelW = 2;
  /// CTRL.rap_val: 1: val records of data addresses to the RAP engine (value profile); 0: the RAP
  /// engine takes the code profile of the branch records.
  localparam int unsigned SocCtrlRapValBit = 3;

  // STATUS fields.
  /// STATUS.running: run is set and the core has neither exited nor trapped.
  localparam int unsigned SocStatusRunningBit = 0;
  /// STATUS.exited: the program wrote the exit register (sticky until OPEN).
  localparam int unsigned SocStatusExitedBit = 1;
  /// STATUS.trap: the core trapped (sticky until OPEN).
  localparam int unsigned SocStatusTrapBit = 2;
  /// STATUS.drained: exited or trapped, and every record and val record made has left the ingress
  /// (the profile is complete once the units are idle).
  localparam int unsigned SocStatusDrainedBit = 3;
  /// STATUS.console: CONSOLE holds a character.
  localparam int unsigned SocStatusConsoleBit = 4;
  /// STATUS.err: a LOAD_DATA write while run was set (ignored); cleared by a CTRL write.
  localparam int unsigned SocStatusErrBit = 5;
  /// STATUS.exit_code: the exit code (0 for a store of 0x5555).
  localparam int unsigned SocStatusExitCodeLsb = 16;
  localparam int unsigned SocStatusExitCodeW = 16;

  // CONSOLE fields.
  /// CONSOLE.char: the character.
  localparam int unsigned SocConsoleCharLsb = 0;
  localparam int unsigned SocConsoleCharW = 8;
  /// CONSOLE.valid: a character is there.
  localparam int unsigned SocConsoleValidBit = 8;

  // PARAMS fields.
  /// PARAMS.mem_words_lg: log2(MemWords).
  localparam int unsigned SocParamsMemWordsLgLsb = 0;
  localparam int unsigned SocParamsMemWordsLgW = 8;
  /// PARAMS.rv32imc: 1: RV32IMC core, 0: RV32I.
  localparam int unsigned SocParamsRv32imcBit = 8;
  /// PARAMS.console_depth: ConsoleDepth.
  localparam int unsigned SocParamsConsoleDepthLsb = 16;
  localparam int unsigned SocParamsConsoleDepthW = 8;

endpackage

`default_nettype wire
