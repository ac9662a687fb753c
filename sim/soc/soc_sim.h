// The simulated SoC (sim/soc/hwprof_soc_top.sv: PicoRV32 + RVFI ingress +
// the path profiler, the RAP engine, the DCR tracker and the BBV detector,
// Verilated as one model) driven from C++: loads an ELF into its RAM,
// programs the units, runs the core to its exit, shows the UART output,
// lock-steps the ingress' cycle model against the hardware ingress on the
// real RVFI stream, records the retire stream's branch records (the
// functional algorithm, RvfiRecorder) and, for the RAP value profile, the
// val records of its data addresses for the trace, takes the DCR and BBV
// results while running, then reads every unit back through its registers
// and dump port (docs/soc.md). No Verilated header here: built without PicoRV32 (the
// pythondata-cpu-picorv32 wheel missing from the venv), soc_available() is
// false and run_soc() throws.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "branch_record.h"
#include "dcr_tracker.h"
#include "detector_algo.h"
#include "detector_replay.h"
#include "hpt.h"
#include "profiler_replay.h"
#include "rap_replay.h"
#include "sim_options.h"

namespace hwprof::sim {

/// The SoC's build parameters (sim/soc/CMakeLists.txt).
struct SocParams {
  unsigned mem_words = 32768;  ///< RAM: 128 KB at 0x8000_0000
  unsigned ingress_depth = 8, ingress_val_depth = 4;
  unsigned queue_depth = 4, depth = 16, max_len = 32, sets = 128, ways = 4;
  /// The RAP engine (hwprof_board_units defaults: RangeW 32, Groups 127,
  /// QueueDepth 1024, MaxBuf 8, BufDefault 4, TcamSlice 4).
  model::RapEngineConfig rap{32, 127, 1024, 8, 4, 4};
  /// The DCR tracker and the BBV detector (hwprof_board_units defaults).
  model::DcrParams dcr{};
  model::DetectorParams bbv{};
};
SocParams soc_params();
/// True when the SoC was Verilated into this build.
bool soc_available();
/// Why it is not (empty when available).
std::string soc_unavailable_reason();

struct SocConfig {
  uint32_t ppcr = model::Ppcr::kBl;
  uint32_t hpt_ctrl = model::HptCtrl::reset_value();
  unsigned ev_sel = 0;               ///< ingress events: 0 loads+stores, 1 loads, 2 stores
  /// RAP engine: its replay settings (as replay_rap programs them), and
  /// the value profile (val records of data addresses) instead of the code
  /// profile of the branch records.
  model::RapReplayConfig rap;
  bool rap_val = false;
  /// DCR tracker and BBV detector: INTERVAL (both), THRESHOLD (BBV).
  uint32_t interval = 1'000'000, threshold = 128;
  uint64_t max_cycles = 500000000;   ///< the run fails when the program has not exited by then
  SimOptions sim;                    ///< waveform
  /// Called with every UART character.
  std::function<void(char)> on_uart;
  /// Called with every record the retire stream makes (the trace's records).
  std::function<void(const model::BranchRecord&)> on_record;
  /// With rap_val: called with every val record (data address of a retired
  /// load or store, weight 1), in program order with on_record.
  std::function<void(uint32_t)> on_val;
  /// Lock-step the ingress cycle model against the hardware ingress. When
  /// the SoC's harness traces, every compared field goes into its waveform
  /// beside the RTL (rtl.* / model.* / mismatch.*, sim/wave_compare.h).
  bool check_ingress = true;
  /// Test-bench hooks of the failure waveform (tb/soc, docs/debugging.md):
  /// on_harness right after the SoC's harness is built (a scoreboard binds
  /// to it); on_mismatch at the first ingress mismatch with its harness cycle
  /// and report (it may append to it), returning how many cycles to keep
  /// running before the mismatch is thrown (the failure re-run records past
  /// it). Unset: nothing.
  std::function<void()> on_harness;
  std::function<uint64_t(uint64_t cycle, std::string& report)> on_mismatch;
  /// "rv32i", "rv32imc" or "auto" (rv32imc when the ELF has compressed
  /// instructions, EF_RISCV_RVC; rv32i otherwise).
  std::string core = "auto";
};

struct IngressStatus {
  uint32_t retired = 0, records = 0, dropped = 0, traps = 0, intrs = 0, order_gaps = 0;
  uint32_t vals = 0, val_dropped = 0;  ///< val records made / dropped (rap_val)
  bool halted = false;
};

struct SocResult {
  bool exited = false;        ///< the program wrote the exit register
  int exit_code = -1;
  bool trapped = false;       ///< the core trapped (PicoRV32 trap)
  uint64_t run_cycles = 0;    ///< clocks from reset release to the exit
  uint64_t total_cycles = 0;  ///< every clock, loading and the dump included
  double seconds = 0;         ///< CPU time of the core's run (the model and the checks included)
  uint64_t retired = 0;       ///< retirements seen on RVFI (64-bit)
  uint64_t records = 0;       ///< records the retire stream made
  uint64_t delivered = 0;     ///< records the profiler took
  uint64_t lockstep_cycles = 0;  ///< cycles the ingress model was checked
  std::string core;            ///< the PicoRV32 build that ran
  IngressStatus ingress;
  model::ProfilerReplayResult profile;  ///< the dump and the counters read back
  uint64_t vals = 0;          ///< val records made (rap_val)
  uint64_t hold_cycles = 0;   ///< cycles the memory held the core for a waiting record
  /// The RAP engine: events it took (code: branch records - 1; val: val
  /// records), the counters and the dump beats (as replay_rap reads them).
  model::RapReplayResult rap;
  /// The DCR tracker and the BBV detector: the results taken while running
  /// (and after), the counters.
  std::vector<model::DcrResult> dcr_results;
  model::DcrTracker::Stats dcr_stats;
  std::vector<model::DetectorResult> bbv_results;
  model::DetectorCounters bbv_counters;
};

/// Runs `elf` on the SoC. Throws std::runtime_error on a bad ELF, a hung or
/// unfinished run, or an ingress lock-step mismatch (with its report).
SocResult run_soc(const std::string& elf, const SocConfig& cfg);

/// The loadable segments of a 32-bit RISC-V ELF: (address, bytes).
struct ElfImage {
  uint32_t entry = 0;
  uint32_t flags = 0;  ///< e_flags
  bool rvc() const { return flags & 1; }  ///< EF_RISCV_RVC
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> segments;
};
/// Throws std::runtime_error naming the file on anything but an ELF32
/// RISC-V executable.
ElfImage load_elf32(const std::string& path);

}  // namespace hwprof::sim
