// hwprof record: see host/record/ and docs/recorder.md.
#include <fmt/core.h>

#include "commands.h"
#include "recorder.h"

namespace hwprof::cli {

void add_record_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<record::RecordOptions>();
  auto* c = app.add_subcommand("record", "record a real program's branch trace under qemu-user (docs/recorder.md)");
  c->add_option("-o,--output", o->output, "trace file (*.hwpt[.zst] binary, else text; .zst compresses)")->required();
  c->add_option("--map", o->map_path, "load map file (default OUT.map)");
  c->add_option("--isa", o->isa, "guest ISA (default: from the program's ELF header)")
      ->check(CLI::IsMember({"x86_64", "riscv64"}));
  c->add_option("--max-insns", o->max_insns, "stop after N instructions (0 = run to the end)");
  c->add_option("--qemu", o->qemu, "qemu-user binary (default $HWPROF_QEMU or qemu-<isa>)");
  c->add_option("--sysroot", o->sysroot, "guest library prefix (qemu -L)");
  c->add_option("--seed", o->seed, "qemu -seed, makes AT_RANDOM and getrandom() reproducible")->capture_default_str();
  c->add_option("PROGRAM", o->argv, "program and its arguments (after --)")->required();
  c->callback([o, &g] {
    o->quiet = o->quiet || g.quiet;
    int status = record::record(*o);
    if (status != 0) throw Exit{status};
  });
}

}  // namespace hwprof::cli
