// Profile-guided trace fabrication (paper 004 section 3; hwprof-spec.md
// section 7; docs/analyses.md, "Trace fabrication").
//
// A profile database is distilled from a recorded trace (optionally sampled:
// only every k-th window of records contributes): per static branch its kind,
// taken / not-taken counts and, for indirect jumps, indirect calls and
// returns, a histogram of the successors it went to; per dynamic block (the
// code from a branch's successor to the next branch) its execution count and
// instructions, the seeds. Algorithm 1 of 004 then fabricates short
// tracelets: a weighted random seed block, then a walk through the program's
// code, read from its ELF files (located by the recorder's load map) and
// decoded by the recorder's decoder, instruction by instruction. Conditional
// branches go the profiled way at random with the profiled probability, a
// call stack gives returns their successors, and GuessTarget picks indirect
// successors (and those of returns with an empty call stack) from the
// histograms. The walk emits the branch records a recording of that
// execution would hold. Every random choice comes from a std::mt19937_64
// derived from (seed, tracelet index), so the output is reproducible.
//
// Quality (004 section 3.2.2): M_f, the overlap of the real trace's BL path
// profile with the fabricated one's (model::path_overlap on path counts).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "loadmap.h"
#include "path_profile.h"
#include "path_stack_algo.h"
#include "recorder.h"
#include "trace.h"

namespace hwprof::analyses {

// ================================================================ randomness

/// Uniform integer in [0, n), n >= 1, by rejection from 64-bit draws: the
/// same on every standard library (std::uniform_int_distribution is not).
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n);

/// The generator of tracelet `index` under `seed` (splitmix64 of both), so
/// tracelet i is the same whatever the number of tracelets asked for.
std::mt19937_64 tracelet_rng(uint64_t seed, uint64_t index);

// ========================================================== profile database

/// One successor of an indirect branch or return, with how often it was taken.
struct TargetCount {
  uint64_t target = 0;
  uint64_t count = 0;
  uint64_t cum = 0;  ///< counts of this and every earlier entry (set by ProfileDb::finish)
};

/// What the profile knows about one static control-flow instruction.
struct BranchProfile {
  trace::Kind kind = trace::Kind::Br;
  uint8_t ilen = 0;
  uint64_t static_target = 0;  ///< br, jmp, call: the recorded (static) target
  uint64_t execs = 0;          ///< sampled records at this pc
  uint64_t taken = 0;          ///< br: taken executions (other kinds: all of them)
  uint64_t not_taken = 0;      ///< br: fall-through executions
  uint64_t insns = 0;          ///< sum of the records' insns (this branch and the block before it)
  uint64_t events = 0;         ///< sum of the records' events
  /// ijmp, icall, ret: the successors, by address ascending (after finish()).
  std::vector<TargetCount> targets;
};

/// A dynamic basic block: from the successor of a branch to the next branch.
struct BlockProfile {
  uint64_t start = 0;
  uint64_t count = 0;  ///< sampled executions
  uint64_t insns = 0;  ///< instructions over those executions (the next record's insns)
};

/// Sampling of the profile (004 section 3.1): the branch records are cut into
/// windows of `window` records and only windows 0, every, 2 every, ...
/// contribute (every = 1: the whole trace).
struct Sampling {
  uint64_t every = 1;
  uint64_t window = 100;
};

class ProfileDb {
 public:
  explicit ProfileDb(Sampling s = {});

  /// Adds the next record of the trace, in trace order. `val` records are
  /// ignored. A record whose kind, length or static target disagrees with
  /// an earlier record at the same pc (code changed under the recorder) is
  /// not used and counted in conflicts().
  void add(const trace::Record& r);
  /// The next record does not follow the previous one (it starts another
  /// tracelet of a fabricated trace): no block is counted before it.
  void restart() { have_prev_ = false; }
  /// Sorts the histograms and the blocks and sets the cumulative counts.
  /// Call once, after the last add().
  void finish();

  /// The profile of the branch at `pc`, or null if no sampled record has it.
  const BranchProfile* branch(uint64_t pc) const;
  const std::unordered_map<uint64_t, BranchProfile>& branches() const { return branches_; }
  /// The seed candidates, by start address ascending (after finish()).
  const std::vector<BlockProfile>& blocks() const { return blocks_; }

  const Sampling& sampling() const { return sampling_; }
  uint64_t records() const { return records_; }          ///< branch records seen
  uint64_t sampled_records() const { return sampled_; }  ///< of which in sampled windows
  uint64_t instructions() const { return insns_; }       ///< insns over all branch records
  uint64_t sampled_instructions() const { return sampled_insns_; }
  uint64_t conflicts() const { return conflicts_; }

 private:
  struct PcTarget {
    uint64_t pc, target;
    bool operator==(const PcTarget& o) const { return pc == o.pc && target == o.target; }
  };
  struct PcTargetHash {
    size_t operator()(const PcTarget& k) const;
  };
  Sampling sampling_;
  std::unordered_map<uint64_t, BranchProfile> branches_;
  std::unordered_map<PcTarget, uint64_t, PcTargetHash> hist_;  // successor counts until finish()
  std::unordered_map<uint64_t, BlockProfile> block_map_;
  std::vector<BlockProfile> blocks_;
  uint64_t records_ = 0, sampled_ = 0, insns_ = 0, sampled_insns_ = 0, conflicts_ = 0;
  bool have_prev_ = false;
  uint64_t prev_next_ = 0;
  bool finished_ = false;
};

/// Builds the profile database of a trace that has passed trace::scan().
/// `progress` (may be empty) gets the records read. `segments` (may be
/// empty): the branch records of each independent piece of the trace in
/// order (a fabricated trace's tracelets); restart() runs between them.
ProfileDb build_profile(const std::string& trace_path, Sampling s,
                        const std::function<void(uint64_t)>& progress = {},
                        const std::vector<uint64_t>& segments = {});

/// GuessTarget (004 Algorithm 1): a successor from a non-empty histogram,
/// with probability proportional to its count.
uint64_t guess_target(const std::vector<TargetCount>& h, std::mt19937_64& rng);
/// A conditional branch's direction: taken with probability taken / execs.
/// Requires taken + not_taken > 0.
bool guess_taken(const BranchProfile& b, std::mt19937_64& rng);

// ================================================================ code image

/// Why a straight-line run of code ends.
enum class BlockEnd : uint8_t {
  Branch,       ///< at a control-flow instruction
  Unmapped,     ///< the next address is outside every mapped executable range
  Undecodable,  ///< the decoder does not understand the bytes
  Trap,         ///< an instruction that cannot complete in user mode (x86 hlt, ud2, int3; riscv ebreak)
  Long,         ///< kMaxBlock plain instructions; the walk continues at end_pc
};

/// The straight-line code from an address to the next control-flow
/// instruction (as decoded, whatever the profile says).
struct CodeBlock {
  uint32_t plain = 0;      ///< instructions before the end, none a control-flow instruction
  uint32_t plain_mem = 0;  ///< of which with an explicit memory operand (the recorder's events)
  BlockEnd end = BlockEnd::Branch;
  uint64_t end_pc = 0;     ///< the control-flow instruction, the offending address, or where to go on (Long)
  record::InsnInfo cf;     ///< end == Branch: the control-flow instruction
};

/// The executable code of a recorded run, by run-time address: byte ranges
/// (from the ELF files of the load map) and a cache of decoded blocks.
class CodeImage {
 public:
  static constexpr uint32_t kMaxBlock = 1u << 16;

  explicit CodeImage(std::string isa);
  /// Maps `bytes` at run-time address `start` for object `obj` (an index
  /// for statistics, e.g. into LoadMap::objects). A range overlapping one
  /// already mapped is refused (returns false).
  bool add_region(uint64_t start, std::vector<uint8_t> bytes, int obj);
  /// The object holding `addr` in a mapped range, or -1.
  int object_of(uint64_t addr) const;
  /// Bytes from `addr` to the end of its range (`n` of them), or null.
  const uint8_t* bytes(uint64_t addr, size_t& n) const;
  /// The block starting at `pc` (decoded once, then cached).
  const CodeBlock& block(uint64_t pc);
  /// One instruction at `pc` (valid = false if unmapped or undecodable).
  record::InsnInfo decode(uint64_t pc) const;
  const std::string& isa() const { return isa_; }
  size_t cached_blocks() const { return cache_.size(); }
  uint64_t mapped_bytes() const;

 private:
  struct Region {
    uint64_t start;
    std::vector<uint8_t> bytes;
    int obj;
  };
  bool is_trap(const uint8_t* p, unsigned len) const;
  std::string isa_;
  std::vector<Region> regions_;  // by start
  std::unordered_map<uint64_t, CodeBlock> cache_;
};

/// How load_code treats the ELF files the map names.
struct LoadCodeOptions {
  bool check_build_id = true;  ///< refuse a file whose GNU build id differs from the map's
};

/// Reads (libelf) the ELF file (`host_path`) of every object of `map` that
/// holds one of `needed` in an executable range and maps those ranges: the
/// bytes at run-time address a are the file's bytes at range.offset +
/// (a - range.start), as mmap placed them. Objects not needed are not
/// opened. Objects still mapped at the end of the run win over unloaded
/// ones where ranges overlap. Returns the indices of the objects loaded.
/// Throws std::runtime_error naming the map, the object and the file when a
/// needed file is missing, is not an ELF file, or has another build id.
std::vector<int> load_code(CodeImage& code, const record::LoadMap& map, const std::string& map_path,
                           const std::vector<uint64_t>& needed, const LoadCodeOptions& opt = {});

/// Profiled branches whose pc does not decode to the same control-flow
/// instruction (kind, length, static target): a trace, map and ELF files
/// that belong together give none.
struct ProfileCheck {
  uint64_t branches = 0;    ///< profiled static branches
  uint64_t unmapped = 0;    ///< pc outside the mapped code
  uint64_t mismatched = 0;  ///< decoded to something else
  uint64_t first_bad_pc = 0;
  std::string first_bad;    ///< description of the first problem (empty if none)
};
ProfileCheck check_profile(const ProfileDb& db, const CodeImage& code);

// ================================================================ fabrication

/// How a seed block is chosen: by its executions, or by the instructions
/// executed in it (= 004's PC samples, which count every instruction).
enum class SeedWeight : uint8_t { Insns, Count };

struct FabricateOptions {
  uint64_t tracelet_len = 1000;  ///< instructions walked per tracelet
  uint64_t seed = 1;
  SeedWeight weight = SeedWeight::Insns;
  size_t max_call_depth = 4096;  ///< deeper calls drop the oldest return address
};

/// Why a tracelet ended.
enum class TraceletEnd : uint8_t {
  Length,              ///< tracelet_len instructions walked
  Unmapped,            ///< the walk reached an address outside the mapped code
  Undecodable,         ///< bytes the decoder does not understand
  Trap,                ///< hlt / ud2 / int3 / ebreak
  UnprofiledIndirect,  ///< an ijmp or icall with no profiled successor
  UnprofiledReturn,    ///< a ret with an empty call stack and no profiled successor
};
inline constexpr int kNumTraceletEnds = 6;
const char* to_string(TraceletEnd e);

struct TraceletResult {
  TraceletEnd end = TraceletEnd::Length;
  uint64_t seed_pc = 0;
  uint64_t end_pc = 0;  ///< early end: the unmapped or undecodable address, the trap, the unprofiled branch
  uint64_t records = 0;
  uint64_t walked = 0;  ///< instructions walked (in records + after the last one)
};

struct FabricateStats {
  uint64_t tracelets = 0;
  uint64_t ends[kNumTraceletEnds] = {};
  uint64_t records = 0;
  uint64_t kinds[6] = {};
  uint64_t instructions = 0;  ///< in records
  uint64_t events = 0;
  uint64_t tail = 0;          ///< walked after a tracelet's last record (in no record)
  uint64_t br_profiled = 0;   ///< conditional branches decided by their profile
  uint64_t br_static = 0;     ///< unprofiled conditional branches: backward taken, forward not taken
  uint64_t indirect_guessed = 0;  ///< ijmp/icall successors from GuessTarget
  uint64_t ret_popped = 0;    ///< returns to the call stack's address
  uint64_t ret_guessed = 0;   ///< returns with an empty call stack, from GuessTarget
  uint64_t call_overflows = 0;
  std::vector<uint64_t> object_insns;  ///< instructions in records, by CodeImage object
};

class Fabricator {
 public:
  /// Seeds are the profile's blocks that start in mapped code. Throws
  /// std::runtime_error if there are none.
  Fabricator(const ProfileDb& db, CodeImage& code, FabricateOptions o);
  /// Fabricates tracelet `index` with tracelet_rng(seed, index): picks a
  /// seed block, then walk().
  TraceletResult tracelet(uint64_t index, std::vector<trace::Record>& out);
  /// Algorithm 1 from `start` with an empty call stack: walks up to
  /// tracelet_len instructions and appends the branch records to `out`.
  TraceletResult walk(uint64_t start, std::mt19937_64& rng, std::vector<trace::Record>& out);
  const FabricateStats& stats() const { return stats_; }
  uint64_t seeds() const { return seeds_.size(); }
  /// Weight of the profile's blocks left out of the seeds (not in mapped code).
  uint64_t unmapped_seed_weight() const { return unmapped_seed_weight_; }
  uint64_t seed_weight() const { return total_; }

 private:
  uint64_t pick_seed(std::mt19937_64& rng) const;
  const ProfileDb& db_;
  CodeImage& code_;
  FabricateOptions o_;
  std::vector<uint64_t> seeds_, cum_;
  uint64_t total_ = 0, unmapped_seed_weight_ = 0;
  std::vector<uint64_t> stack_;
  FabricateStats stats_;
};

// ================================================================ quality

/// BL path profile of a record stream: the path-stack functional model with
/// the BL preset (depth 16, MaxLen 32 by default, as `hwprof paths`).
/// restart() empties the stack between tracelets: paths still open are
/// dropped, and a tracelet's first paths (which began before its seed)
/// come out incomplete and are not profiled.
class BlProfiler {
 public:
  explicit BlProfiler(unsigned depth = 16, unsigned max_len = 32);
  void add(const trace::Record& r);
  void restart();
  const model::PathProfile& profile() const { return profile_; }

 private:
  model::PathStackAlgo algo_;
  model::Ppcr ppcr_;
  model::PathProfile profile_;
};

/// The BL path profile of a trace file (the whole trace as one stream).
model::PathProfile bl_profile(const std::string& trace_path);

/// M_f(P_r, P_f) of 004 section 3.2.2, in percent: sum over the real
/// profile's paths of min(c(p, P_r), c(p, P_f)) with c = count share.
double flow_overlap(const model::PathProfile& real, const model::PathProfile& fab);

// ================================================================ output map

/// Provenance written into the fabricated trace's load map.
struct FabricatedMapInfo {
  std::string source_trace;
  std::string trace;  ///< the fabricated trace's file name
  uint64_t tracelets = 0, tracelet_len = 0, seed = 0;
  Sampling sampling;
  std::string weight;
  uint64_t instructions = 0;                ///< in the fabricated trace's records
  std::vector<uint64_t> object_insns;       ///< by index into the map's objects
  std::vector<uint64_t> tracelet_records;   ///< records of each tracelet, in order
  std::vector<std::pair<uint64_t, TraceletResult>> early;  ///< tracelets that ended early, by index
};

/// Copies the load map `src` to `dst` (atomically: temporary file + rename)
/// with `trace` set to the fabricated trace, `instructions`, each object's
/// `insns` and `unmapped_insns` recounted for the fabricated trace, and a
/// `fabricated` object with the provenance, the number of records of each
/// tracelet (so that per-tracelet analyses can split the trace again) and
/// the tracelets that ended early; a note says so. Every other key is kept
/// as it was. Throws std::runtime_error on failure.
void write_fabricated_map(const std::string& src, const std::string& dst, const FabricatedMapInfo& info);

}  // namespace hwprof::analyses
