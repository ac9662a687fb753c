// hwprof symbolization (docs/formats.md, "Symbols"): full-width addresses
// of a recorded trace -> `object!function+0xoff` and `file:line`, from the
// trace's load map (host/record/loadmap.h), the ELF symbol tables (libelf)
// and the DWARF line tables (libdw) of the objects it names; and the map
// from the AddrW-bit addresses the cores report back to the full addresses
// the trace holds.
//
// Nothing here fails a report: a missing map, file or symbol table degrades
// to `object+0xoff` or a bare address, with a one-line note.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hwprof::sym {

/// What is known about one full address.
struct Location {
  uint64_t addr = 0;        ///< the full run-time address
  std::string object;       ///< object file name (basename), empty if no object contains addr
  uint64_t elf_addr = 0;    ///< addr - bias: the address in the ELF file (object known)
  std::string function;     ///< enclosing function symbol, empty if none
  uint64_t offset = 0;      ///< addr - function start (function known)
  std::string file;         ///< source file as the line table names it, empty if no line info
  unsigned line = 0;        ///< source line (file known)

  /// "object!function+0xoff", "object+0xoff" (offset = ELF address) or
  /// "0xADDR" (no object). "+0x0" is left out.
  std::string sym() const;
  /// "file.c:12" (basename of file), empty without line info.
  std::string source() const;
};

/// Symbolizer over one load map. Objects are opened on first use and cached.
class Symbolizer {
 public:
  /// Disabled symbolizer: every lookup gives the bare address.
  Symbolizer();
  ~Symbolizer();
  Symbolizer(Symbolizer&&) noexcept;
  Symbolizer& operator=(Symbolizer&&) noexcept;

  /// Symbolizer for the load map at `map_path` (hwprof record's OUT.map).
  /// A missing or malformed map gives a disabled symbolizer with a note.
  static Symbolizer from_map(const std::string& map_path);
  /// The load map beside a trace: `map` if not empty, else TRACE.map (a
  /// trace without one gives a disabled symbolizer, noted only if `map` was
  /// given).
  static Symbolizer for_trace(const std::string& trace, const std::string& map = {});

  bool enabled() const;
  const std::string& map_path() const;
  /// Looks up one full address.
  Location lookup(uint64_t addr);
  /// One-line notes gathered so far (missing map, file, symbols, build id
  /// mismatch), each once.
  const std::vector<std::string>& notes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The full addresses behind AddrW-bit (32-bit) folded addresses: every
/// branch pc and next instruction (taken target or fall-through) of a trace
/// (the addresses a path or a basic block can start at) and every `val`
/// value.
class FullAddrs {
 public:
  static constexpr unsigned kFoldBits = 32;  ///< model::kAddrW

  /// Adds a full address.
  void add(uint64_t full);
  /// Adds the addresses of every record of a trace (reads the whole file).
  void add_trace(const std::string& trace);

  struct Hit {
    uint64_t full = 0;      ///< the full address (or the folded value when unknown)
    unsigned candidates = 0;  ///< 0: not seen; 1: unique; > 1: several full addresses fold to it
    uint64_t first = 0;       ///< range(): the lowest full address seen in the range
    uint64_t last = 0;        ///< range(): the highest full address seen in the range
  };
  /// The full address that folds to `folded`.
  Hit full(uint64_t folded) const;
  /// The full base of a folded range [lo, hi]: lo with the upper bits of the
  /// full addresses seen in it (candidates = number of distinct upper parts).
  Hit range(uint64_t lo, uint64_t hi) const;
  /// Folded values with more than one full address.
  size_t ambiguous() const;

 private:
  void finish() const;
  mutable std::vector<uint64_t> addrs_;  // sorted by folded value, then full, unique once finished
  mutable bool sorted_ = true;
};

/// Formats a full address as hex without a prefix, as the reports print
/// addresses ("4002888660").
std::string hex(uint64_t a);

}  // namespace hwprof::sym
