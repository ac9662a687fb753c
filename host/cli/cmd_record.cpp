// hwprof record: see host/record/ and docs/recorder.md. A bare-metal RV32
// ELF (the simulated SoC's programs, `make soc-elf`) is recorded under
// qemu-system-riscv32 -M virt by the SoC's independent observer
// (soc_qemu.h, docs/soc.md); everything else under qemu-user.
#include <fmt/core.h>

#include <cstdlib>

#include "commands.h"
#include "recorder.h"
#include "soc_qemu.h"

namespace hwprof::cli {

void add_record_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<record::RecordOptions>();
  auto* c = app.add_subcommand("record", "record a real program's branch trace under qemu-user, or a bare-metal RV32 "
                                         "ELF under qemu-system-riscv32 (docs/recorder.md, docs/soc.md)");
  c->add_option("-o,--output", o->output, "trace file (*.hwpt[.zst] binary, else text; .zst compresses)")->required();
  c->add_option("--map", o->map_path, "load map file (default OUT.map)");
  c->add_option("--isa", o->isa, "guest ISA (default: from the program's ELF header; riscv32: a bare-metal ELF on "
                                 "qemu-system-riscv32 -M virt)")
      ->check(CLI::IsMember({"x86_64", "riscv64", "riscv32"}));
  c->add_option("--max-insns", o->max_insns, "stop after N instructions (0 = run to the end)");
  c->add_option("--qemu", o->qemu, "qemu-user binary (default $HWPROF_QEMU or qemu-<isa>; riscv32: "
                                   "qemu-system-riscv32)");
  c->add_option("--sysroot", o->sysroot, "guest library prefix (qemu -L)");
  c->add_option("--seed", o->seed, "qemu -seed, makes AT_RANDOM and getrandom() reproducible")->capture_default_str();
  c->add_option("PROGRAM", o->argv, "program and its arguments (after --)")->required();
  c->callback([o, &g] {
    o->quiet = o->quiet || g.quiet;
    if (o->isa == "riscv32" || (o->isa.empty() && !o->argv.empty() && is_rv32_elf(o->argv[0]))) {
      // A bare-metal RV32 ELF: the whole machine under qemu-system-riscv32.
      if (o->argv.size() > 1) throw std::runtime_error("record: a bare-metal RV32 ELF takes no arguments");
      if (o->max_insns) throw std::runtime_error("record: --max-insns is not supported for a bare-metal RV32 ELF");
      if (!o->map_path.empty() && o->map_path != o->output + ".map")
        throw std::runtime_error("record: the load map of a bare-metal RV32 ELF is OUT.map");
      QemuOpts q;
      q.elf = o->argv[0];
      q.output = o->output;
      q.who = "record";
      if (!o->qemu.empty()) q.qemu = o->qemu;
      record_system_elf(q, g);
      return;
    }
    int status = record::record(*o);
    if (status != 0) throw Exit{status};
  });
}

}  // namespace hwprof::cli
