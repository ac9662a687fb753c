// Memory aliasing for fabricated and real instruction streams (paper 004
// section 3.3; docs/analyses.md, "Memory aliasing").
//
// Abstract execution (AbstractExec): a tracelet's instructions are emulated
// one by one by the Unicorn CPU emulator (x86-64) on arbitrary values:
// every register is seeded with a random value, and every memory location
// with a random value the first time it is touched (pages are mapped lazily
// from an unmapped-memory hook: code pages get the program's bytes from the
// CodeImage, all others pseudo-random words that depend only on the
// tracelet's key and the address). The addresses the emulated loads and
// stores touch are the "symbolic" addresses of 004: meaningless values that
// are the same exactly when the computation of two addresses inside the
// tracelet gives the same value (stack saves and restores off a random rsp,
// array walks, pointers stored and reloaded). Control flow is not decided
// by the emulator: the caller supplies the instruction sequence (a
// fabricated tracelet's walk or a real run's), and each instruction is
// started at its own address.
//
// Aliasing (AliasTracker): a load aliases the youngest earlier store that
// wrote any byte it reads (a store and a load alias if they touch the same
// address with no intervening store to it; 004 section 3.3). An alias
// profile (AliasProfile) counts (store pc, load pc) pairs whose distance in
// dynamic instructions is below a window (256, 512, 1024 as 004 Fig. 7).
// M_a (alias_overlap) compares two profiles.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fabricate.h"

namespace hwprof::analyses {

/// One data access of an instruction.
struct MemAccess {
  uint64_t addr = 0;
  uint32_t size = 0;
  bool write = false;
};

/// One dynamic instruction of a stream to execute abstractly.
struct InsnRef {
  uint64_t pc = 0;
  uint8_t len = 0;
};

/// Counters of an abstract executor.
struct AbstractStats {
  uint64_t insns = 0;       ///< instructions stepped
  uint64_t failed = 0;      ///< the emulator stopped with an error (skipped: no access recorded after it)
  uint64_t accesses = 0;    ///< data accesses recorded
  uint64_t pages = 0;       ///< pages mapped lazily (data and code)
  uint64_t refused = 0;     ///< unmapped accesses not served (address beyond 2^47, page budget)
  uint64_t truncated = 0;   ///< instructions stopped after kMaxAccesses accesses (rep strings)
  uint64_t syscalls = 0;    ///< syscall instructions (rax gets a random value)
};

/// Abstract execution of x86-64 code with Unicorn (see the file comment).
class AbstractExec {
 public:
  static constexpr uint32_t kMaxAccesses = 256;  ///< per instruction
  static constexpr uint32_t kMaxPages = 16384;   ///< per tracelet (64 MiB)
  /// `code` gives the bytes of code pages. Throws std::runtime_error for an
  /// ISA other than x86_64 or when Unicorn cannot be opened.
  explicit AbstractExec(const CodeImage& code);
  ~AbstractExec();
  AbstractExec(const AbstractExec&) = delete;
  AbstractExec& operator=(const AbstractExec&) = delete;

  /// Starts a tracelet: all memory unmapped, registers seeded from `key`.
  void reset(uint64_t key);
  /// Emulates the instruction at `pc` (`len` bytes) and appends the data
  /// accesses it made, in order, to `out`. False if the emulator stopped
  /// with an error (the accesses made before it are kept).
  bool step(uint64_t pc, unsigned len, std::vector<MemAccess>& out);
  /// Register value (Unicorn's UC_X86_REG_* id; tests).
  uint64_t reg(int uc_reg) const;
  void set_reg(int uc_reg, uint64_t v);
  /// The seeded value of the 8-byte word at `addr` (8-aligned) under the
  /// current key (tests).
  uint64_t seed_word(uint64_t addr) const;
  const AbstractStats& stats() const { return stats_; }

  struct Impl;  // Unicorn state and hooks (alias.cpp)

 private:
  Impl* impl_;
  AbstractStats stats_;
};

/// Youngest-writer tracking by byte: which earlier store a load reads from.
class AliasTracker {
 public:
  void reset() { last_.clear(); }
  /// Instruction `idx` (increasing) with its accesses: returns the index of
  /// the youngest earlier store that wrote a byte one of its reads reads
  /// (-1: none), then records its writes.
  int64_t add(uint64_t idx, const MemAccess* a, size_t n);
  /// Forgets the bytes last written before instruction `below`.
  void prune(uint64_t below);
  size_t size() const { return last_.size(); }

 private:
  std::unordered_map<uint64_t, uint64_t> last_;  // byte -> index of its last writer
};

/// The aliasing of one tracelet: for every load that aliases, its offset
/// and the offset of its store, in instructions from the tracelet's first.
struct TraceletAliases {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;  ///< (load, store), by load
  uint64_t memory_insns = 0;                          ///< instructions with a data access
  uint64_t insns = 0;                                 ///< instructions executed abstractly
  uint64_t seed_pc = 0;                               ///< the first instruction (offset 0)
};

/// Abstract execution of `insns` from a reset(key): the aliasing pairs.
TraceletAliases abstract_aliases(AbstractExec& ex, uint64_t key, const std::vector<InsnRef>& insns);

/// The instructions of a fabricated tracelet in order: from its seed pc
/// through the branch of its last record, each record's block being the
/// straight-line code up to its pc (record.insns instructions). False if
/// the code does not match the records.
bool tracelet_insns(const CodeImage& code, uint64_t seed_pc, const trace::Record* recs, size_t n,
                    std::vector<InsnRef>& out);

// ================================================================ profiles

inline constexpr std::array<uint32_t, 3> kAliasWindows = {256, 512, 1024};

/// (store pc, load pc) -> dynamic aliasing instances with distance below
/// each window of kAliasWindows, over `instructions` instructions.
struct AliasProfile {
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
      return static_cast<size_t>((p.first * 0x9e3779b97f4a7c15ull) ^ (p.second + 0x632be59bd9b4e019ull));
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, std::array<uint64_t, 3>, PairHash> pairs;
  uint64_t instructions = 0;
  /// Counts an alias of the load at `load_pc` on the store at `store_pc`,
  /// `dist` instructions earlier.
  void add(uint64_t store_pc, uint64_t load_pc, uint64_t dist);
  uint64_t total(size_t window) const;
};

/// M_a(A, B) of 004 section 3.3 for window index w, in percent: the sum
/// over A's pairs of min(r_A, r_B) / the sum of r_A, where r is a pair's
/// aliasing instances per instruction of its profile. 100 when A is empty.
double alias_overlap(const AliasProfile& a, const AliasProfile& b, size_t w);
/// The bi-directional M_a (004 footnote 3): the mean of M_a(A, B) and M_a(B, A).
double alias_overlap_bidir(const AliasProfile& a, const AliasProfile& b, size_t w);

// ================================================================ side file

/// The alias side file of a fabricated trace (OUT.alias; docs/formats.md):
/// per tracelet the (load, store) offset pairs.
void write_alias_file(const std::string& path, const std::string& trace_name,
                      const std::vector<TraceletAliases>& tracelets);
/// Reads it; throws std::runtime_error naming the file and line.
std::vector<TraceletAliases> read_alias_file(const std::string& path);

}  // namespace hwprof::analyses
