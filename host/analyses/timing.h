// Trace-driven out-of-order timing model (paper 004 section 4.1, Fig. 9;
// hwprof-spec.md section 7; docs/analyses.md, "Critical-path analysis").
//
// The model is the Fields et al. dependence graph (004 Fig. 3) evaluated in
// program order: every dynamic instruction i gets three timestamps, D[i]
// (dispatch into the window), E[i] (issue to a functional unit) and C[i]
// (commit), each the latest arrival over its incoming edges:
//
//   D[i] = max( D[i-1] + 0             D-D  in-order dispatch
//               D[i-F] + 1             D-D  dispatch (fetch) bandwidth F
//               C[i-R] + 1             C-D  finite ROB of R entries
//               E[i-1] + lat[i-1] + P  E-D  i-1 is a mispredicted branch,
//                                           P = refill penalty )
//   E[i] = max( D[i] + 1               D-E  (plus issue-bandwidth stalls)
//               E[p] + lat[p] )        E-E  for every producer p of a source
//                                           register, and for a load the
//                                           last store to the same address
//                                           expression (mem_deps)
//   C[i] = max( E[i] + lat[i]          E-C
//               C[i-W] + 1             C-C  commit bandwidth W
//               C[i-1] + 0 )           C-C  in-order commit
//
// and D[0] = 0. Issue bandwidth (total per cycle, and memory ports) is the
// one resource that is not a fixed edge: an instruction issues in the first
// cycle >= its ready time that has a free slot (instructions take slots in
// program order), and the wait is charged to its D-E edge, whose latency is
// E[i] - D[i] (at least 1). So every node time equals the longest path from
// D[0] in the graph with these latencies, and the last commit time is the
// critical-path length.
//
// Each node also records which incoming edge determined its time (the
// last-arriving one; 004 section 4.2). Ties go by a fixed priority:
//   D node: E-D, C-D, D-D (bandwidth), D-D (in order);
//   E node: E-E (the youngest producer among equal ones), D-E;
//   C node: E-C, C-C (bandwidth), C-C (in order).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace.h"

namespace hwprof::analyses {

// ================================================================ instructions

/// Execution class of an instruction's operation (the memory access is
/// separate: StaticInsn::load / store).
enum class OpClass : uint8_t { IntAlu, IntMul, IntDiv, Fp, FpDiv, Branch, Nop };
inline constexpr int kNumOpClasses = 7;
const char* to_string(OpClass c);

/// Source / destination registers an instruction can name (more are dropped).
inline constexpr int kMaxRegs = 8;

/// What the timing model needs of one static instruction.
struct StaticInsn {
  uint64_t pc = 0;
  uint8_t len = 0;
  OpClass cls = OpClass::IntAlu;
  bool load = false;   ///< reads memory (latency of a load; a miss can be injected)
  bool store = false;  ///< writes memory (takes a memory port)
  bool is_cf = false;  ///< ends a basic block (a branch record's instruction)
  trace::Kind kind = trace::Kind::Br;  ///< is_cf: which kind
  uint8_t nsrc = 0, ndst = 0;
  /// Canonical register ids (1..255; sub-registers map to their full
  /// register, flags are one register).
  uint8_t src[kMaxRegs] = {}, dst[kMaxRegs] = {};
  /// The address expression of the explicit memory operand: an id of
  /// (segment, base, index, scale, displacement) (rip-relative: the
  /// absolute address, no base), 0 = none; and its registers.
  uint32_t addr_expr = 0;
  uint8_t addr_base = 0, addr_index = 0;
};

// ================================================================ machine

struct Latencies {
  uint32_t int_alu = 1;
  uint32_t int_mul = 3;
  uint32_t int_div = 20;
  uint32_t fp = 4;
  uint32_t fp_div = 16;
  uint32_t branch = 1;
  uint32_t load_hit = 3;     ///< a load's access; an ALU op folded into it adds nothing,
                             ///< another class adds its own latency
  uint32_t load_miss = 150;  ///< replaces load_hit on an injected cache miss
  uint32_t store = 1;
};

struct MachineConfig {
  uint32_t fetch = 4;      ///< F: instructions dispatched per cycle
  uint32_t issue = 4;      ///< instructions issued per cycle
  uint32_t mem_ports = 2;  ///< of which loads / stores
  uint32_t commit = 4;     ///< W: instructions committed per cycle
  uint32_t rob = 128;      ///< R: reorder-buffer entries
  uint32_t mispredict_penalty = 10;  ///< P: refill cycles after a mispredicted branch resolves
  /// Store -> load dependences through the same address expression with
  /// the same values of its registers (an E-E edge with the store's latency).
  bool mem_deps = true;
  /// With mem_deps: the store a load depends on is given by the caller
  /// (TimingModel::step's `mem_dist`: abstract-execution aliases, real
  /// addresses) instead of the address-expression rule.
  bool explicit_mem_deps = false;
  Latencies lat;
  /// Empty if usable, else "name: reason" for the first bad parameter.
  std::string check() const;
  /// The latency of an instruction of `s` (with an injected miss if `miss`).
  uint32_t latency(const StaticInsn& s, bool miss) const;
};

// ================================================================ graph edges

/// The seven edge types of 004 Fig. 3.
enum class Edge : uint8_t { DD, DE, EC, CC, EE, CD, ED, None };
inline constexpr int kNumEdges = 7;
const char* to_string(Edge e);  ///< "D-D", ...

/// Node of the dependence graph.
enum class Stage : uint8_t { D, E, C };

/// The incoming edge that determined a node's time.
struct Pred {
  Edge edge = Edge::None;  ///< None: D[0], the start
  uint64_t src = 0;        ///< dynamic index of the source node's instruction
};
/// The stage of the source node of an edge.
Stage source_stage(Edge e);
/// The stage of the destination node of an edge.
Stage dest_stage(Edge e);

/// One dynamic instruction after the timing model.
struct Timed {
  uint64_t d = 0, e = 0, c = 0;
  uint32_t lat = 0;
  bool mispredict = false, miss = false;
  bool mem_edge = false;  ///< pe is an E-E edge from the store this load reads (a memory dependence)
  Pred pd, pe, pc;  ///< determining edges of D, E, C
  uint64_t at(Stage s) const { return s == Stage::D ? d : s == Stage::E ? e : c; }
  const Pred& pred(Stage s) const { return s == Stage::D ? pd : s == Stage::E ? pe : pc; }
};

/// The timing model, one instruction at a time, in program order.
/// Instructions are indexed 0, 1, ... since the last reset().
class TimingModel {
 public:
  explicit TimingModel(const MachineConfig& m);
  /// Empty machine: the next instruction is index 0 with D = 0.
  void reset();
  /// Times instruction `s` (`mispredict`: s is a branch that mispredicts;
  /// `miss`: s is a load that misses). `mem_dist` (explicit_mem_deps only):
  /// s loads from the store `mem_dist` instructions earlier (0: from none;
  /// a store before reset() or more than the ROB back is ignored: it
  /// committed before s dispatched, so it can never decide s's E).
  Timed step(const StaticInsn& s, bool mispredict, bool miss, uint64_t mem_dist = 0);
  uint64_t instructions() const { return n_; }
  /// Cycles from the first dispatch to the last commit, inclusive
  /// (C of the last instruction + 1; 0 before any instruction).
  uint64_t cycles() const { return n_ ? last_c_ + 1 : 0; }
  const MachineConfig& config() const { return m_; }

 private:
  struct Slot {
    uint64_t d, e, c;
    uint32_t lat;
    bool mispredict;
    bool store;
  };
  struct RegState {
    bool valid = false;
    uint64_t idx = 0, ready = 0;
  };
  struct Issue {
    uint32_t all = 0, mem = 0;
  };
  struct MemKey {
    uint32_t expr;
    uint8_t base, index;
    uint64_t vbase, vindex;  // the writers of the address registers (UINT64_MAX: none since reset)
    bool operator==(const MemKey& o) const {
      return expr == o.expr && base == o.base && index == o.index && vbase == o.vbase && vindex == o.vindex;
    }
  };
  struct MemKeyHash {
    size_t operator()(const MemKey& k) const;
  };
  MemKey mem_key(const StaticInsn& s) const;
  const Slot& back(uint64_t k) const { return ring_[(n_ - k) % ring_.size()]; }
  MachineConfig m_;
  std::vector<Slot> ring_;  // the last max(F, W, R) instructions
  RegState regs_[256];
  std::unordered_map<uint64_t, Issue> issue_;  // cycle -> slots taken
  std::unordered_map<MemKey, RegState, MemKeyHash> stores_;  // last store per address
  uint64_t n_ = 0, last_c_ = 0, prune_below_ = 0;
};

// ================================================================ decoding

/// Decodes static instructions for the timing model (x86_64: capstone with
/// CS_OPT_DETAIL, registers from cs_regs_access; riscv64: built in) and
/// keeps them by pc. Pointers returned stay valid for the decoder's life.
class InsnDecoder {
 public:
  explicit InsnDecoder(std::string isa);
  ~InsnDecoder();
  InsnDecoder(const InsnDecoder&) = delete;
  InsnDecoder& operator=(const InsnDecoder&) = delete;
  /// The instruction at `pc` from `bytes` (n of them available); null if
  /// the bytes do not decode. Cached by pc: the bytes are read only once.
  const StaticInsn* decode(uint64_t pc, const uint8_t* bytes, size_t n);
  /// Disassembly text of a decoded pc ("" if never decoded).
  std::string disasm(uint64_t pc) const;
  /// Name of a canonical register id (for tests and messages).
  std::string reg_name(uint8_t id) const;
  const std::string& isa() const { return isa_; }

 private:
  uint32_t expr_id(const std::string& e);
  struct Impl;
  std::string isa_;
  std::unique_ptr<Impl> impl_;
  std::unordered_map<uint64_t, StaticInsn> cache_;
  std::unordered_map<uint64_t, std::string> text_;
  std::unordered_map<std::string, uint32_t> exprs_;  // address expression -> id
};

}  // namespace hwprof::analyses
