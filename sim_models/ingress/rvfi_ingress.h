// Models of rtl/ingress/hwprof_rvfi_ingress.sv: RVFI retirements (NRET = 1
// or 2, XLEN = 32) to hwprof branch records and val records (docs/soc.md).
//
//   rvfi_decode()   the instruction classification (kind, target, taken,
//                   ilen) of one retirement;
//   RvfiRecorder    the functional algorithm: per retirement, the record it
//                   makes (if any) with insns / events since the previous
//                   record. Written once: the cycle model, the SoC harness
//                   (which writes the trace) and the tests use it;
//   rvfi_val()      whether a retirement makes a val record (its data
//                   address); used by the cycle model and the SoC harness;
//   RvfiIngress     the cycle model: stage s1 (the retirements registered),
//                   stage s2 (RvfiRecorder per retirement, channel 0 then
//                   channel 1; the output FIFO and the val FIFO as
//                   hwprof_fifo_sync with Nret push ports; the status
//                   counters), one step() per clock edge. A record is
//                   offered two clocks after its retirement at the earliest;
//                   counters lag one clock.
#pragma once

#include <cstdint>

#include "branch_record.h"
#include "sync_fifo.h"

namespace hwprof::model {

/// One RVFI retirement slot (the rvfi_* signals the ingress reads).
struct RvfiRetire {
  bool valid = false;
  uint64_t order = 0;
  uint32_t insn = 0;
  bool trap = false;
  bool halt = false;
  bool intr = false;
  uint32_t pc_rdata = 0;
  uint32_t pc_wdata = 0;
  uint8_t mem_rmask = 0;
  uint8_t mem_wmask = 0;
  uint32_t mem_addr = 0;
  bool event = false;  ///< the core's event_i (ev_sel 3)
};

/// Event selection (ev_sel_i).
enum class RvfiEvents : uint8_t { MemAccess = 0, Loads = 1, Stores = 2, CoreEvent = 3 };

/// The classification of one instruction word.
struct RvfiDecoded {
  bool ctl = false;  ///< a control transfer (makes a record unless it traps)
  BranchKind kind = BranchKind::Br;
  uint32_t target = 0;
  bool taken = false;
  uint8_t ilen = 4;
};

/// Classifies `insn` retired at pc with next pc `pc_wdata` (see the RTL
/// header: branches, jal/jalr by the x1/x5 hints, RV32C forms).
RvfiDecoded rvfi_decode(uint32_t insn, uint32_t pc, uint32_t pc_wdata);

/// True if retirement `r` counts as an event under `sel`.
bool rvfi_event(const RvfiRetire& r, RvfiEvents sel);

/// True if retirement `r` (valid) makes a val record (value r.mem_addr,
/// weight 1) when val records are enabled: a load or store that does not trap.
bool rvfi_val(const RvfiRetire& r);

/// The functional algorithm: the record stream of a retirement stream.
class RvfiRecorder {
 public:
  void reset() { insns_ = events_ = 0; }
  /// One retirement (r.valid must be true), events selected by `sel`.
  /// Returns true and fills `out` when it makes a record.
  bool retire(const RvfiRetire& r, RvfiEvents sel, BranchRecord& out);
  /// Instructions / events counted since the last record (saturated).
  uint32_t pending_insns() const { return insns_; }
  uint32_t pending_events() const { return events_; }

 private:
  uint32_t insns_ = 0, events_ = 0;
};

/// Cycle model of hwprof_rvfi_ingress.
class RvfiIngress {
 public:
  /// Retirement channels at most (the RTL's Nret).
  static constexpr unsigned kMaxNret = 2;
  struct In {
    uint8_t ev_sel = 0;
    RvfiRetire rvfi;      ///< channel 0 (the older)
    bool out_ready = false;
    RvfiRetire rvfi1;     ///< channel 1 (Nret = 2; ignored with Nret = 1)
    bool val_en = false;
    bool val_ready = false;
  };
  struct Out {
    bool out_valid = false;
    BranchRecord out_data{};  ///< meaningful only when out_valid
    bool val_valid = false;
    uint32_t val_data = 0;    ///< meaningful only when val_valid
    uint32_t retired = 0, records = 0, dropped = 0, traps = 0, intrs = 0, order_gaps = 0;
    uint32_t vals = 0, val_dropped = 0;
    bool halted = false;
  };

  explicit RvfiIngress(unsigned depth = 4, unsigned nret = 1, unsigned val_depth = 4);
  unsigned depth() const { return fifo_.depth(); }
  unsigned nret() const { return nret_; }
  unsigned val_depth() const { return val_fifo_.depth(); }
  void reset();
  /// One rising edge: outputs as sampled before it, then the state change.
  Out step(const In& in);

 private:
  unsigned nret_;
  SyncFifo<BranchRecord> fifo_;
  SyncFifo<uint32_t> val_fifo_;
  RvfiRecorder rec_;
  RvfiRetire s1_[kMaxNret];  ///< stage s1: the retirements of the previous cycle
  uint8_t s1_sel_ = 0;       ///< and the event selection of its cycle
  bool s1_val_en_ = false;   ///< and its val_en
  uint32_t retired_ = 0, records_ = 0, dropped_ = 0, traps_ = 0, intrs_ = 0, order_gaps_ = 0;
  uint32_t vals_ = 0, val_dropped_ = 0;
  uint64_t order_next_ = 0;
  bool order_seen_ = false, halted_ = false;
};

}  // namespace hwprof::model
