// Register map of hwprof_soc_unit's csr port (docs/soc.md).
// Generated from data/regs/soc.json by scripts/regmap.py; do not edit:
// edit the JSON file and run `make regs`.
#pragma once

#include <cstdint>

namespace hwprof::model {

/// Register addresses of hwprof_soc_unit's csr port (docs/soc.md).
enum class SocCsr : unsigned {
  Ctrl = 0,  ///< CTRL: control (rw)
  Status = 1,  ///< STATUS: status (ro)
  LoadAddr = 2,  ///< LOAD_ADDR: load address (rw)
  LoadData = 3,  ///< LOAD_DATA: load data (wo, reads 0)
  Console = 4,  ///< CONSOLE: console (rw)
  Cycles = 5,  ///< CYCLES: cycles (ro)
  Retired = 6,  ///< RETIRED: retired (ro)
  Records = 7,  ///< RECORDS: records (ro)
  Dropped = 8,  ///< DROPPED: dropped (ro)
  Vals = 9,  ///< VALS: val records (ro)
  ValDropped = 10,  ///< VAL_DROPPED: val records dropped (ro)
  HoldCycles = 11,  ///< HOLD_CYCLES: hold cycles (ro)
  Params = 12,  ///< PARAMS: build parameters (ro)
};
inline constexpr unsigned kSocCsrCount = 13;
inline constexpr uint32_t kSocCtrlReset = 0u;  ///< CTRL reset
inline constexpr uint32_t kSocLoadAddrReset = 0u;  ///< LOAD_ADDR reset
inline constexpr uint32_t kSocConsoleReset = 0u;  ///< CONSOLE reset
// CTRL fields.
/// CTRL.run: release the core from reset
inline constexpr uint32_t kSocCtrlRun = 1u << 0;
/// CTRL.ev_sel: ingress event selection (hwprof_rvfi_ingress ev_sel_i): 0 loads and stores, 1
/// loads, 2 stores, 3 the core event input (tied to 0 in the SoC)
inline constexpr unsigned kSocCtrlEvSelLsb = 1, kSocCtrlEvSelW = 2;
/// CTRL.rap_val: 1: val records of data addresses to the RAP engine (value profile); 0: the RAP
/// engine takes the code profile of the branch records
inline constexpr uint32_t kSocCtrlRapVal = 1u << 3;
// STATUS fields.
/// STATUS.running: run is set and the core has neither exited nor trapped
inline constexpr uint32_t kSocStatusRunning = 1u << 0;
/// STATUS.exited: the program wrote the exit register (sticky until OPEN)
inline constexpr uint32_t kSocStatusExited = 1u << 1;
/// STATUS.trap: the core trapped (sticky until OPEN)
inline constexpr uint32_t kSocStatusTrap = 1u << 2;
/// STATUS.drained: exited or trapped, and every record and val record made has left the ingress
/// (the profile is complete once the units are idle)
inline constexpr uint32_t kSocStatusDrained = 1u << 3;
/// STATUS.console: CONSOLE holds a character
inline constexpr uint32_t kSocStatusConsole = 1u << 4;
/// STATUS.err: a LOAD_DATA write while run was set (ignored); cleared by a CTRL write
inline constexpr uint32_t kSocStatusErr = 1u << 5;
/// STATUS.exit_code: the exit code (0 for a store of 0x5555)
inline constexpr unsigned kSocStatusExitCodeLsb = 16, kSocStatusExitCodeW = 16;
// CONSOLE fields.
/// CONSOLE.char: the character
inline constexpr unsigned kSocConsoleCharLsb = 0, kSocConsoleCharW = 8;
/// CONSOLE.valid: a character is there
inline constexpr uint32_t kSocConsoleValid = 1u << 8;
// PARAMS fields.
/// PARAMS.mem_words_lg: log2(MemWords)
inline constexpr unsigned kSocParamsMemWordsLgLsb = 0, kSocParamsMemWordsLgW = 8;
/// PARAMS.rv32imc: 1: RV32IMC core, 0: RV32I
inline constexpr uint32_t kSocParamsRv32imc = 1u << 8;
/// PARAMS.console_depth: ConsoleDepth
inline constexpr unsigned kSocParamsConsoleDepthLsb = 16, kSocParamsConsoleDepthW = 8;

}  // namespace hwprof::model
