// ELF32 loader for the SoC: PT_LOAD segments only (docs/soc.md).
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "soc_sim.h"

namespace hwprof::sim {

namespace {

uint32_t rd32(const std::vector<uint8_t>& b, size_t o) {
  return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 | uint32_t(b[o + 3]) << 24;
}
uint16_t rd16(const std::vector<uint8_t>& b, size_t o) { return uint16_t(b[o] | b[o + 1] << 8); }

}  // namespace

ElfImage load_elf32(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot open");
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return std::runtime_error(path + ": " + why); };
  if (b.size() < 52 || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0) throw bad("not an ELF file");
  if (b[4] != 1) throw bad("not a 32-bit ELF (the SoC runs RV32)");
  if (b[5] != 1) throw bad("not little-endian");
  if (rd16(b, 18) != 243) throw bad("not a RISC-V ELF (e_machine " + std::to_string(rd16(b, 18)) + ")");
  if (rd16(b, 16) != 2) throw bad("not an executable (ET_EXEC)");
  ElfImage img;
  img.entry = rd32(b, 24);
  img.flags = rd32(b, 36);
  const uint32_t phoff = rd32(b, 28);
  const uint16_t phentsize = rd16(b, 42), phnum = rd16(b, 44);
  for (unsigned i = 0; i < phnum; ++i) {
    const size_t o = size_t(phoff) + size_t(i) * phentsize;
    if (o + 32 > b.size()) throw bad("program header " + std::to_string(i) + " beyond the end of the file");
    if (rd32(b, o) != 1) continue;  // PT_LOAD
    const uint32_t off = rd32(b, o + 4), vaddr = rd32(b, o + 8), filesz = rd32(b, o + 16), memsz = rd32(b, o + 20);
    if (size_t(off) + filesz > b.size()) throw bad("segment " + std::to_string(i) + " beyond the end of the file");
    std::vector<uint8_t> data(memsz, 0);
    std::memcpy(data.data(), b.data() + off, filesz);
    img.segments.emplace_back(vaddr, std::move(data));
  }
  if (img.segments.empty()) throw bad("no loadable segment");
  return img;
}

}  // namespace hwprof::sim
