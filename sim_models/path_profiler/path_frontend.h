// Cycle model of rtl/path_profiler/hwprof_path_frontend.sv: branch queue ->
// path classifier -> path stack, the PPCR register and the register map of
// docs/path_stack.md. Sub-models compose exactly as the RTL instantiates
// them; the ready chain is combinational from desc_ready back to the queue's
// deq_ready, so it is evaluated from the consumer backwards before any stage
// commits its edge.
#pragma once

#include <cstdint>

#include "branch_queue.h"
#include "path_classifier.h"
#include "path_regs.h"
#include "path_stack.h"

namespace hwprof::model {

/// Cycle model of rtl/path_profiler/hwprof_ppcr_reg.sv.
class PpcrReg {
 public:
  struct In {
    bool we = false;
    uint32_t wdata = 0;
    bool err_clear = false;
  };
  struct Out {
    uint32_t ppcr = Ppcr::kBl;
    bool err = false;
  };
  void reset() {
    value_ = Ppcr::kBl;
    err_ = false;
  }
  uint32_t value() const { return value_; }
  bool err() const { return err_; }
  /// A rejected write sets err even when err_clear is high in the same cycle.
  Out step(const In& in) {
    Out o{value_, err_};
    if (in.err_clear) err_ = false;
    if (in.we) {
      if (Ppcr::legal(in.wdata))
        value_ = in.wdata & Ppcr::kMask;
      else
        err_ = true;
    }
    return o;
  }

 private:
  uint32_t value_ = Ppcr::kBl;
  bool err_ = false;
};

class PathFrontend {
 public:
  /// Mirrors the ports without suffixes.
  struct In {
    bool rec_valid = false;
    BranchRecord rec_data{};
    bool desc_ready = false;
    bool csr_we = false;
    unsigned csr_addr = 0;
    uint32_t csr_wdata = 0;
  };
  struct Out {
    bool rec_ready = false;
    bool desc_valid = false;
    Emission desc{};  ///< meaningful only when desc_valid
    uint32_t csr_rdata = 0;
  };

  PathFrontend(unsigned queue_depth = 4, unsigned depth = 16, unsigned max_len = 32)
      : queue_(queue_depth), stack_(depth, max_len) {}

  void reset() {
    queue_.reset();
    classifier_.reset();
    stack_.reset();
    ppcr_.reset();
  }

  /// The register read path (combinational from the address and the state).
  uint32_t csr_read(unsigned addr, const PathStack::Stats& s, unsigned occupancy) const {
    switch (static_cast<PathCsr>(addr)) {
      case PathCsr::Ppcr: return ppcr_.value();
      case PathCsr::Status:
        return (ppcr_.err() ? kPathStatusPpcrErr : 0u) |
               reg_field(occupancy, kPathStatusOccupancyLsb, kPathStatusOccupancyW);
      case PathCsr::Records: return s.records;
      case PathCsr::Emitted: return s.emitted;
      case PathCsr::Incomplete: return s.incomplete;
      case PathCsr::Splits: return s.splits;
      case PathCsr::Overflows: return s.overflows;
      case PathCsr::EmptyPops: return s.empty_pops;
      case PathCsr::StallCycles: return s.stall_cycles;
      case PathCsr::Params:
        return reg_field(stack_.algo().depth(), kPathParamsDepthLsb, kPathParamsDepthW) |
               reg_field(stack_.algo().max_len(), kPathParamsMaxLenLsb, kPathParamsMaxLenW) |
               reg_field(queue_.depth(), kPathParamsQueueDepthLsb, kPathParamsQueueDepthW);
    }
    return 0;
  }

  Out step(const In& in) {
    Out o;
    // Ready chain, consumer first (all combinational in the RTL).
    const bool stack_ready = stack_.in_ready(in.desc_ready);
    const bool cls_ready = classifier_.in_ready(stack_ready);
    const uint32_t ppcr = ppcr_.value();  // value before this edge
    const PathStack::Stats stats_before = stack_.stats();
    const unsigned occupancy_before = stack_.algo().occupancy();
    o.csr_rdata = csr_read(in.csr_addr, stats_before, occupancy_before);

    auto q = queue_.step({in.rec_valid, in.rec_data, cls_ready});
    auto c = classifier_.step({ppcr, q.deq_valid, q.deq_data, stack_ready});
    auto s = stack_.step({c.out_valid, c.out_data, in.desc_ready});
    const bool wr_ppcr = in.csr_we && in.csr_addr == unsigned(PathCsr::Ppcr);
    const bool clr_err = in.csr_we && in.csr_addr == unsigned(PathCsr::Status) && (in.csr_wdata & kPathStatusPpcrErr);
    ppcr_.step({wr_ppcr, in.csr_wdata, clr_err});

    o.rec_ready = q.enq_ready;
    o.desc_valid = s.out_valid;
    o.desc = s.out;
    return o;
  }

  const PathStack& stack() const { return stack_; }
  const BranchQueue& queue() const { return queue_; }
  uint32_t ppcr() const { return ppcr_.value(); }

 private:
  BranchQueue queue_;
  PathClassifier classifier_;
  PathStack stack_;
  PpcrReg ppcr_;
};

}  // namespace hwprof::model
