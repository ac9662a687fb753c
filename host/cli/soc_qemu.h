// The independent observer of the simulated SoC (docs/soc.md): a bare-metal
// RV32 ELF on qemu-system-riscv32 -M virt, every executed instruction turned
// into an RVFI-like retirement for the ingress' functional algorithm
// (RvfiRecorder), written as a hwprof trace with a load map. Used by
// `hwprof soc qemu` and by `hwprof record` for a bare-metal RV32 ELF
// (host/cli/cmd_soc.cpp, host/cli/cmd_record.cpp).
#pragma once

#include <string>

#include "commands.h"

namespace hwprof::cli {

struct QemuOpts {
  std::string elf;
  std::string output;
  std::string qemu = "qemu-system-riscv32";
  std::string events = "mem";
  std::string who = "soc qemu";  ///< the command named in messages
  /// When set, the program's UART output goes here instead of stdout
  /// (hwprof board soc compares it with the board's console).
  std::string* uart = nullptr;
};

/// Runs `o.elf` to its exit on qemu-system-riscv32 and writes the trace and
/// OUT.map. Prints the program's UART output on stdout (or keeps it in
/// `o.uart`). Throws Exit{1} when qemu ends with a non-zero status,
/// std::runtime_error on errors.
void record_system_elf(const QemuOpts& o, const Global& g);

/// True when `path` is a 32-bit little-endian RISC-V ELF executable (a
/// bare-metal program for the SoC or qemu-system-riscv32).
bool is_rv32_elf(const std::string& path);

}  // namespace hwprof::cli
