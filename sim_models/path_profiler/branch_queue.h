// Cycle model of rtl/path_profiler/hwprof_branch_queue.sv: a SyncFifo of
// BranchRecord, composed exactly as the RTL instantiates sync_fifo.
#pragma once

#include "branch_record.h"
#include "sync_fifo.h"

namespace hwprof::model {

class BranchQueue {
 public:
  /// Mirrors the ports without suffixes.
  struct In {
    bool enq_valid = false;
    BranchRecord enq_data{};
    bool deq_ready = false;
  };
  struct Out {
    bool enq_ready = false;
    bool deq_valid = false;
    BranchRecord deq_data{};  ///< meaningful only when deq_valid
    unsigned count = 0;
  };

  explicit BranchQueue(unsigned depth = 4) : fifo_(depth) {}
  unsigned depth() const { return fifo_.depth(); }
  void reset() { fifo_.reset(); }
  /// One rising edge: outputs sampled at the edge, then the state change.
  Out step(const In& in) {
    auto f = fifo_.step({in.enq_valid, in.enq_data, in.deq_ready});
    return {f.in_ready, f.out_valid, f.out_data, f.count};
  }

 private:
  SyncFifo<BranchRecord> fifo_;
};

}  // namespace hwprof::model
