// The branch record as the RTL sees it (rtl/common/hwprof_pkg.sv,
// branch_rec_t): fixed widths, saturating counts, and its path-stack class.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace hwprof::model {

inline constexpr unsigned kAddrW = 32;    // hwprof_pkg::AddrW
inline constexpr unsigned kInsnsW = 16;   // hwprof_pkg::InsnsW
inline constexpr unsigned kEventsW = 8;   // hwprof_pkg::EventsW
inline constexpr unsigned kBranchRecW = 3 + 2 * kAddrW + 1 + 4 + kInsnsW + kEventsW;  // 96

/// Branch kinds: hwprof_pkg::kind_e, the same codes as the branch kinds of
/// trace::Kind (host/lib/trace.h; the trace library converts, see
/// host/lib/trace_source.h).
enum class BranchKind : uint8_t { Br = 0, Jmp = 1, Ijmp = 2, Call = 3, Icall = 4, Ret = 5 };
inline constexpr unsigned kNumBranchKinds = 6;
/// "br", "jmp", "ijmp", "call", "icall", "ret" (the trace format's names).
const char* kind_name(BranchKind k);

/// hwprof_pkg::branch_rec_t.
struct BranchRecord {
  uint8_t kind = 0;  ///< BranchKind code 0..5
  uint32_t pc = 0;
  uint32_t target = 0;
  bool taken = false;
  uint8_t ilen = 0;
  uint16_t insns = 0;
  uint8_t events = 0;

  /// From a record's full-width fields: low AddrW address bits, insns and
  /// events saturated to their widths.
  static BranchRecord make(BranchKind kind, uint64_t pc, uint64_t target, bool taken, uint8_t ilen, uint32_t insns,
                           uint32_t events);
  /// next = taken ? target : pc + ilen (modulo 2^AddrW).
  uint32_t next() const { return taken ? target : static_cast<uint32_t>(pc + ilen); }
  /// Packs as the SystemVerilog packed struct: word 0 holds bits 31:0
  /// (events, insns, ilen, taken, low target bits), kind lands in bits 95:93.
  std::array<uint32_t, 3> pack() const;
  static BranchRecord unpack(const std::array<uint32_t, 3>& w);
  std::string str() const;
  bool operator==(const BranchRecord& o) const {
    return kind == o.kind && pc == o.pc && target == o.target && taken == o.taken && ilen == o.ilen &&
           insns == o.insns && events == o.events;
  }
  bool operator!=(const BranchRecord& o) const { return !(*this == o); }
};

/// Path-stack class of a record (hwprof-spec.md section 2, paper 000 Table 1).
enum class BranchClass : uint8_t { Forward = 0, Backward = 1, Call = 2, Return = 3, Indirect = 4 };
inline constexpr int kNumClasses = 5;
const char* class_name(BranchClass c);

/// call/icall -> Call; ret -> Return; ijmp -> Indirect; br/jmp taken with
/// target <= pc (AddrW-bit compare) -> Backward; every other br/jmp -> Forward.
BranchClass classify(const BranchRecord& r);

/// A stream of branch records: fills `r` and returns true, false at the end.
/// The models never open files: a trace file's stream comes from the trace
/// library (trace::branch_source, host/lib/trace_source.h).
using RecordSource = std::function<bool(BranchRecord&)>;

}  // namespace hwprof::model
