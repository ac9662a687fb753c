// Critical-path analysis (paper 004 sections 2.1 and 4.2, Fig. 3;
// hwprof-spec.md section 7; docs/analyses.md, "Critical-path analysis").
//
// The instruction stream of a trace (recorded or fabricated: its branch
// records plus the program's code, read from the ELF files of its load map)
// runs through the timing model (timing.h) one tracelet at a time (default
// 1,000 instructions; a fabricated trace's tracelets are never joined).
// Each tracelet's critical path is delineated backwards from its last C
// node, following at each node the incoming edge that determined its time
// (timing.h gives the edges, latencies and the tie-break). An instruction
// whose E node is on the path is critical. Per static instruction: dynamic
// and critical counts, LoC = critical / dynamic, binary critical = LoC >
// 0.125. Branch mispredictions and cache misses are injected at random
// with per-static-branch rates (from the trace's own profile, or a global
// rate) and a global load-miss rate, from generators derived from the
// seed, so a run is reproducible.
//
// The same stream also runs, uninterrupted, through a second timing model
// whose commits give the cycles of each interval for per-interval CPI
// (intervals as the DCR phase tracker's, spec section 5).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "fabricate.h"
#include "timing.h"
#include "trace.h"

namespace hwprof::analyses {

// ================================================================ the path

/// One node of a critical path.
struct PathNode {
  Stage stage = Stage::D;
  uint64_t insn = 0;
};

struct CriticalPath {
  uint64_t length = 0;          ///< cycles: C of the last instruction - D of the first
  std::vector<PathNode> nodes;  ///< from D[0] to C[n-1]
  std::vector<Edge> edges;      ///< edges[k] joins nodes[k] and nodes[k+1]
  uint64_t edge_count[kNumEdges] = {};
  uint64_t edge_cycles[kNumEdges] = {};  ///< latency of the path's edges by type (sums to length)
  uint64_t mem_edges = 0, mem_cycles = 0;  ///< of the E-E edges, those of memory dependences (store -> load)
  std::vector<uint8_t> critical;         ///< per instruction: its E node is on the path
};

/// Delineates the critical path of timed instructions 0..n-1 (one
/// TimingModel run from reset()) by walking back from C[n-1] along the
/// recorded determining edges. Throws std::logic_error if a recorded edge
/// does not arrive exactly at its node's time (the model is inconsistent).
CriticalPath critical_path(const std::vector<Timed>& t);

// ================================================================ events

/// Misprediction and miss injection. A conditional branch, indirect jump
/// or indirect call mispredicts with its rate: the global rate if
/// `global_mispredict` >= 0, else its per-pc rate (absent: 0). Calls,
/// jumps and returns (a return-address stack) never mispredict. A load
/// misses with `miss_rate`.
struct EventRates {
  double global_mispredict = -1.0;
  std::unordered_map<uint64_t, double> mispredict;  ///< by branch pc
  double miss_rate = 0.0;
  double mispredict_rate(const StaticInsn& s) const;
};

/// Per-pc misprediction rates from a profile: a conditional branch's is a
/// static (bias) predictor's, min(taken, not taken) / executions; an
/// indirect jump's or call's, the share of its executions that did not go
/// to its most frequent successor.
std::unordered_map<uint64_t, double> profile_mispredict_rates(const ProfileDb& db);

/// True with probability p (p <= 0: never, p >= 1: always; one draw either way).
bool draw(std::mt19937_64& rng, double p);

// ================================================================ database

struct CritOptions {
  MachineConfig machine;
  uint64_t tracelet_len = 1000;
  uint64_t seed = 1;
  EventRates rates;
};

/// Criticality of one static instruction.
struct StaticCrit {
  uint64_t dynamic = 0, critical = 0;
  double loc() const { return dynamic ? double(critical) / double(dynamic) : 0.0; }
  bool binary() const { return loc() > 0.125; }
};

/// Runs tracelets through the timing model and collects the database.
class CritAnalyzer {
 public:
  explicit CritAnalyzer(const CritOptions& o);
  /// Appends an instruction to the current tracelet (events drawn here);
  /// a full tracelet is analysed at once.
  /// `mem_dist`: the store s loads from, that many instructions earlier
  /// (0: none; used with MachineConfig::explicit_mem_deps).
  void add(const StaticInsn& s, uint64_t mem_dist = 0);
  /// Ends the current tracelet early (the stream is not continuous here).
  void flush();
  /// Appends an instruction with its events given (tests).
  void add(const StaticInsn& s, bool mispredict, bool miss, uint64_t mem_dist = 0);

  const std::unordered_map<uint64_t, StaticCrit>& db() const { return db_; }
  uint64_t tracelets() const { return tracelets_; }
  uint64_t instructions() const { return insns_; }
  uint64_t cycles() const { return cycles_; }  ///< sum over tracelets of their cycles
  uint64_t path_cycles() const { return path_cycles_; }
  const uint64_t* edge_count() const { return edge_count_; }
  const uint64_t* edge_cycles() const { return edge_cycles_; }
  uint64_t mispredicts() const { return mispredicts_; }
  uint64_t misses() const { return misses_; }
  uint64_t mem_edges() const { return mem_edges_; }    ///< critical-path E-E edges that are memory dependences
  uint64_t mem_cycles() const { return mem_cycles_; }  ///< their cycles
  /// The last analysed tracelet (tests).
  const std::vector<Timed>& last_timed() const { return last_timed_; }
  const CriticalPath& last_path() const { return last_path_; }

 private:
  void analyse();
  CritOptions o_;
  TimingModel model_;
  std::mt19937_64 rng_;
  std::vector<Timed> timed_, last_timed_;
  std::vector<uint64_t> pcs_;
  CriticalPath last_path_;
  std::unordered_map<uint64_t, StaticCrit> db_;
  uint64_t tracelets_ = 0, insns_ = 0, cycles_ = 0, path_cycles_ = 0, mispredicts_ = 0, misses_ = 0;
  uint64_t mem_edges_ = 0, mem_cycles_ = 0;
  uint64_t edge_count_[kNumEdges] = {}, edge_cycles_[kNumEdges] = {};
};

// ================================================================ intervals

/// The DCR phase tracker's interval rule (spec section 5): an interval ends
/// after the record that brings the running instruction count to or past
/// the boundary; the next boundary is the previous one plus N.
class IntervalRule {
 public:
  explicit IntervalRule(uint64_t n);
  /// Adds a record of `insns` instructions; true if it ends an interval.
  bool add(uint64_t insns);
  uint64_t count() const { return count_; }
  uint64_t boundary() const { return boundary_; }

 private:
  uint64_t n_, count_ = 0, boundary_;
};

// ================================================================ instruction stream

/// Why a branch record's instructions were not modelled.
enum class Skip : uint8_t {
  SegmentStart,  ///< first record of the trace or of a tracelet: where its block starts is unknown
  Unmapped,      ///< the block lies outside the mapped code (no ELF: vdso, kernel)
  Undecodable,   ///< the decoder does not understand the bytes
  Mismatch,      ///< the code does not end the block where the record says (or not with its kind or count)
};
inline constexpr int kNumSkips = 4;
const char* to_string(Skip s);

/// The instructions of each branch record: the block from the previous
/// record's successor to the record's branch, decoded from the ELF code
/// (CodeImage, as trace fabrication reads it) and cached by block start.
class InsnStream {
 public:
  InsnStream(CodeImage& code, InsnDecoder& dec) : code_(code), dec_(dec) {}
  /// The next record does not follow the previous one.
  void restart() { have_prev_ = false; }
  /// The instructions of `r` (its block, then the branch), or null with
  /// the reason in `why`. Records must come in trace order; val records
  /// are ignored (null, why untouched).
  const std::vector<const StaticInsn*>* next(const trace::Record& r, Skip& why);
  uint64_t skipped_records(Skip s) const { return skip_records_[static_cast<int>(s)]; }
  uint64_t skipped_insns(Skip s) const { return skip_insns_[static_cast<int>(s)]; }

 private:
  struct Block {
    bool ok = false;
    Skip why = Skip::Mismatch;
    std::vector<const StaticInsn*> insns;
  };
  const Block& block(uint64_t start);
  CodeImage& code_;
  InsnDecoder& dec_;
  std::unordered_map<uint64_t, Block> cache_;
  bool have_prev_ = false;
  uint64_t prev_next_ = 0;
  uint64_t skip_records_[kNumSkips] = {}, skip_insns_[kNumSkips] = {};
};

// ================================================================ whole run

struct CritRun {
  uint64_t records = 0;        ///< branch records
  uint64_t instructions = 0;   ///< in the records
  uint64_t modelled = 0;       ///< of which modelled (not skipped)
  uint64_t stream_cycles = 0;  ///< the uninterrupted model's cycles
  std::vector<double> interval_cpi;  ///< per completed interval (NaN: nothing modelled in it)
  uint64_t tail_insns = 0;     ///< instructions after the last completed interval
};

/// Runs the whole trace (already validated): tracelets into `an`, every
/// modelled instruction into `stream` (uninterrupted, events drawn from
/// tracelet_rng(seed, UINT64_MAX)), intervals of `interval` instructions
/// (0: none). `segments`: records per independent piece (a fabricated
/// trace's tracelets), empty for one piece.
/// `aliases` (may be null; one entry per segment): the fabricated trace's
/// abstract-execution aliases (alias.h, OUT.alias), fed to the models as
/// explicit memory dependences (set MachineConfig::explicit_mem_deps).
CritRun run_critpath(const std::string& trace_path, InsnStream& in, CritAnalyzer& an, TimingModel& stream,
                     const CritOptions& o, uint64_t interval, const std::vector<uint64_t>& segments,
                     const std::function<void(uint64_t)>& progress = {},
                     const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>* aliases = nullptr);

}  // namespace hwprof::analyses
