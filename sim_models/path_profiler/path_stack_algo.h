// The path-stack algorithm of paper 000 section 3 as fixed by hwprof-spec.md
// section 3.1 and docs/path_stack.md: the PPCR, the classified record, the
// path descriptor, and PathStackAlgo, which processes one record at a time.
// Written once: the cycle model (path_stack.h) commits through it and the
// CLI runs it directly.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "branch_record.h"
#include "path_regs.h"

namespace hwprof::model {

inline constexpr unsigned kDescEventsW = 16;  // hwprof_pkg::DescEventsW
inline constexpr unsigned kDescInsnsW = 24;   // hwprof_pkg::DescInsnsW
inline constexpr unsigned kMaxMaxLen = 32;    // dirs are held in 32 bits

/// Path-stack operations of one class (hwprof_pkg::path_ops_t).
struct PathOps {
  bool upd = false, updc = false, pop = false, push = false;
  unsigned bits() const { return unsigned(upd) | unsigned(updc) << 1 | unsigned(pop) << 2 | unsigned(push) << 3; }
  static PathOps from_bits(unsigned b) { return {bool(b & 1), bool(b & 2), bool(b & 4), bool(b & 8)}; }
  bool operator==(const PathOps& o) const { return bits() == o.bits(); }
};

/// The path profiler control register (docs/path_stack.md, "PPCR"); fields,
/// reset value and presets from path_regs.h (data/regs/path.json).
struct Ppcr {
  static constexpr uint32_t kBl = kPathPpcrReset;  ///< Table 1; reset value
  static constexpr uint32_t kWpp = kPathPpcrWpp;   ///< Table 2
  /// Bits that hold state: every field up to max_ext, the highest.
  static constexpr uint32_t kMask = (1u << (kPathPpcrMaxExtLsb + kPathPpcrMaxExtW)) - 1;
  static constexpr uint32_t kMaxExtMax = (1u << kPathPpcrMaxExtW) - 1;
  /// Operations field of one class: class c at bits kOpsW*c + kOpsW-1 .. kOpsW*c.
  static constexpr unsigned kOpsW = kPathPpcrForwardW;
  static_assert(kPathPpcrForwardLsb == 0 && kPathPpcrIndirectLsb == kOpsW * unsigned(BranchClass::Indirect),
                "PPCR class fields must be contiguous in class order");

  uint32_t value = kBl;

  /// Extended paths: BL with ext_loops = 1 and max_ext = m (0..3).
  static uint32_t ext(unsigned max_ext) {
    return kBl | kPathPpcrExtLoops | (max_ext & kMaxExtMax) << kPathPpcrMaxExtLsb;
  }
  /// False when any class has update and update-count together.
  static bool legal(uint32_t v);
  PathOps ops(BranchClass c) const {
    return PathOps::from_bits(value >> (kOpsW * unsigned(c)) & 0xf);
  }
  bool ext_loops() const { return (value & kPathPpcrExtLoops) != 0; }
  unsigned max_ext() const { return value >> kPathPpcrMaxExtLsb & kMaxExtMax; }
  /// "bl", "wpp" or "ext" with max_ext -> register value; throws on other names.
  static uint32_t preset(const std::string& mode, unsigned max_ext = 1);
};

/// A classified record (hwprof_pkg::path_rec_t): the classifier's output.
struct PathRecord {
  BranchClass cls = BranchClass::Forward;
  PathOps ops;
  bool ext_try = false;  ///< backward class and PPCR.ext_loops
  uint8_t max_ext = 0;
  uint32_t pc = 0;
  uint32_t next = 0;
  bool taken = false;
  uint16_t insns = 0;
  uint8_t events = 0;

  /// The classifier's function: class, operations and extension fields from
  /// the PPCR, and next.
  static PathRecord classify(const BranchRecord& r, const Ppcr& ppcr);
  /// Packed as hwprof_pkg::path_rec_t (99 bits; word 0 = bits 31:0).
  std::array<uint32_t, 4> pack() const;
  static PathRecord unpack(const std::array<uint32_t, 4>& w);
  std::string str() const;
  bool operator==(const PathRecord& o) const;
};

/// A path-stack entry: the path descriptor with its bookkeeping.
struct PathEntry {
  uint32_t start = 0;
  uint8_t length = 0;  ///< branches on the path, 0..MaxLen
  uint32_t dirs = 0;   ///< bit i = direction of the i-th branch
  uint16_t events = 0;
  uint32_t insns = 0;  ///< 24 bits, saturating
  uint8_t ext = 0;
  bool incomplete = false;
  bool operator==(const PathEntry& o) const {
    return start == o.start && length == o.length && dirs == o.dirs && events == o.events && insns == o.insns &&
           ext == o.ext && incomplete == o.incomplete;
  }
};

/// One emitted descriptor with its flags.
struct Emission {
  PathEntry path;
  bool split = false;
  bool frame_end = false;
  unsigned depth = 0;  ///< occupancy at emission, the emitted entry included
  std::string str() const;
  bool operator==(const Emission& o) const {
    return path == o.path && split == o.split && frame_end == o.frame_end && depth == o.depth;
  }
};

/// Statistics counters (the RTL's 32-bit saturating counters are compared
/// against these values saturated to 32 bits).
struct PathStackStats {
  uint64_t records = 0;
  uint64_t emitted = 0;
  uint64_t incomplete = 0;
  uint64_t splits = 0;
  uint64_t overflows = 0;
  uint64_t empty_pops = 0;
};

/// The path stack: PathRecord in, at most one Emission out per record.
class PathStackAlgo {
 public:
  /// depth >= 1, 1 <= max_len <= 32; throws std::invalid_argument otherwise.
  explicit PathStackAlgo(unsigned depth = 16, unsigned max_len = 32);
  void reset();
  /// Runs the operations of one record (docs/path_stack.md, "The algorithm").
  std::optional<Emission> process(const PathRecord& r);

  unsigned depth() const { return depth_; }
  unsigned max_len() const { return max_len_; }
  unsigned occupancy() const { return static_cast<unsigned>(stack_.size()); }
  /// Entry i from the top (0 = top of stack).
  const PathEntry& entry(unsigned i) const { return stack_[stack_.size() - 1 - i]; }
  const PathStackStats& stats() const { return stats_; }
  /// Operations the last process() ran, after loop extension (step 1):
  /// what the storage of the cycle model and the RTL acts on.
  const PathOps& last_ops() const { return last_ops_; }

 private:
  void push_entry(const PathEntry& e);

  unsigned depth_;
  unsigned max_len_;
  std::vector<PathEntry> stack_;  // back() = top of stack
  PathStackStats stats_;
  PathOps last_ops_;
};

}  // namespace hwprof::model
