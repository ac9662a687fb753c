// hwprof record: load maps. A load map lists every ELF object (main
// executable, dynamic loader, shared libraries) a recorded program had mapped,
// with its load bias and mapped segments, so that the 64-bit addresses of a
// trace can be mapped back to ELF files and symbols.
//
// File format (JSON, "hwprof-loadmap" version 1): see docs/recorder.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hwprof::record {

/// One PT_LOAD program header of an ELF file.
struct ElfSegment {
  uint64_t vaddr = 0, memsz = 0, offset = 0, filesz = 0;
  uint32_t flags = 0;  ///< PF_R | PF_W | PF_X
};

/// What the recorder needs from an ELF file (read with libelf).
struct ElfInfo {
  bool ok = false;
  std::string error;        ///< why ok is false
  unsigned type = 0;        ///< ET_EXEC, ET_DYN, ...
  unsigned machine = 0;     ///< EM_X86_64, EM_RISCV, ...
  bool is64 = false;
  uint64_t entry = 0;       ///< e_entry (link-time address)
  std::string interp;       ///< PT_INTERP, empty if none
  std::string build_id;     ///< NT_GNU_BUILD_ID as hex, empty if none
  std::vector<ElfSegment> loads;
};

/// Reads the ELF headers of `path`. Never throws; sets ok/error.
ElfInfo read_elf(const std::string& path);

/// ISA name of an ELF file ("x86_64", "riscv64"), empty if unsupported.
std::string elf_isa(const ElfInfo& e);

/// One mapped range of an object at run time.
struct MappedRange {
  uint64_t start = 0, end = 0;  ///< run-time addresses, [start, end), page aligned
  uint64_t offset = 0;          ///< file offset of `start`
  uint64_t vaddr = 0;           ///< link-time (ELF) address of `start` = start - bias
  uint32_t flags = 0;           ///< PF_R | PF_W | PF_X
};

/// One loaded ELF object.
struct LoadedObject {
  std::string path;       ///< path as the guest opened it
  std::string host_path;  ///< file actually read on the host (sysroot applied, symlinks resolved)
  std::string role;       ///< "main", "interp" or "lib"
  uint64_t bias = 0;      ///< run-time address = ELF address + bias
  uint64_t loaded_at = 0;     ///< instructions executed before the object was mapped
  uint64_t unloaded_at = 0;   ///< instructions executed when it was unmapped (0 = never)
  bool unloaded = false;
  uint64_t insns = 0;     ///< executed instructions whose pc lies in this object
  ElfInfo elf;
  std::vector<MappedRange> ranges;  ///< from the PT_LOAD headers and the bias

  /// True if `addr` lies in one of the object's mapped ranges.
  bool contains(uint64_t addr) const;
  bool contains_exec(uint64_t addr) const;
};

/// The load map of one recorded run.
struct LoadMap {
  std::string isa;
  std::string trace;               ///< file name of the trace this map belongs to
  std::vector<std::string> argv;   ///< program and arguments as run
  std::string qemu_version;
  uint64_t page_size = 4096;
  uint64_t first_pc = 0;           ///< first instruction executed (ld.so's or the program's entry)
  uint64_t instructions = 0;       ///< instructions executed (as counted by the recorder)
  uint64_t unmapped_insns = 0;     ///< executed instructions outside every object (vdso, JIT, ...)
  std::vector<LoadedObject> objects;
  std::vector<std::string> notes;  ///< warnings found while building or checking the map

  /// Index of the object containing `addr` (loaded, not unloaded), or -1.
  int find(uint64_t addr) const;
  /// Adds an object from its ELF file; computes ranges from the PT_LOAD
  /// headers. Returns its index.
  int add(const std::string& path, const std::string& host_path, const std::string& role,
          const ElfInfo& elf, uint64_t bias, uint64_t loaded_at);

  /// Writes the JSON form atomically (temporary file + rename). Throws
  /// std::runtime_error on failure.
  void write(const std::string& path) const;
  /// Reads a map written by write(). Throws std::runtime_error naming the
  /// file on a malformed map.
  static LoadMap read(const std::string& path);
};

/// Bias of an ELF file mapped with mmap(fd, offset) at `addr`: the PT_LOAD
/// whose page-aligned file offset equals `offset` gives bias = addr -
/// page_down(p_vaddr). Returns false if no PT_LOAD matches.
bool bias_from_mapping(const ElfInfo& elf, uint64_t offset, uint64_t addr, uint64_t page_size,
                       uint64_t& bias);

}  // namespace hwprof::record
