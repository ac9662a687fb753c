// libFuzzer harness: the recorder's ELF header reader (read_elf, libelf) on
// arbitrary bytes. Property: it never throws and never crashes; a file it
// accepts has an ISA name or an error-free "unsupported" answer.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"
#include "loadmap.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = hwprof::fuzz::write_input("elf", data, size);
  const hwprof::record::ElfInfo e = hwprof::record::read_elf(path);
  if (!e.ok && e.error.empty()) {
    std::fprintf(stderr, "fuzz_elf: rejected without a reason\n");
    std::abort();
  }
  if (e.ok) (void)hwprof::record::elf_isa(e);
  return 0;
}
