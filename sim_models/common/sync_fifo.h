// Cycle model of rtl/prim/hwprof_fifo_sync.sv (which replaced
// hwprof_sync_fifo and hwprof_rap_event_queue). Same cycle
// behaviour: in_ready = count != Depth, out_valid = count != 0 (both
// registered); push and pop in the same cycle both happen; no fall-through;
// clear empties the queue at the edge and wins over a push of the same cycle.
// The second push port (NPush = 2: in_valid1 / in_data1, the younger entry of
// the cycle, only with in_valid) enters when there is room for two
// (in_ready1 = count <= Depth - 2); with room for one only the first enters.
// Depth 0 is a model-only pass-through (no queue: in_ready = out_ready,
// out_valid = in_valid), used to measure "no branch queue" (paper 000 Fig. 18).
#pragma once

#include <cstdint>
#include <deque>

namespace hwprof::model {

template <typename T>
class SyncFifo {
 public:
  struct In {
    bool in_valid = false;
    T in_data{};
    bool out_ready = false;
    bool clear = false;  ///< synchronous clear (wins over a push)
    bool in_valid1 = false;  ///< NPush = 2: a second, younger entry (only with in_valid)
    T in_data1{};
  };
  struct Out {
    bool in_ready = false;
    bool in_ready1 = false;  ///< room for two entries (NPush = 2)
    bool out_valid = false;
    T out_data{};  ///< meaningful only when out_valid
    unsigned count = 0;
  };

  explicit SyncFifo(unsigned depth) : depth_(depth) {}
  unsigned depth() const { return depth_; }

  /// Asynchronous reset: empties the queue.
  void reset() { q_.clear(); }

  /// One rising clock edge. Returns the outputs as sampled at the edge (the
  /// values the DUT shows with inputs `in` applied), then commits the edge.
  Out step(const In& in) {
    Out o;
    if (depth_ == 0) {
      o.in_ready = in.out_ready;
      o.out_valid = in.in_valid;
      o.out_data = in.in_data;
      return o;
    }
    o.count = static_cast<unsigned>(q_.size());
    o.in_ready = q_.size() != depth_;
    o.in_ready1 = q_.size() + 2 <= depth_;
    o.out_valid = !q_.empty();
    if (o.out_valid) o.out_data = q_.front();
    const bool push = in.in_valid && o.in_ready;
    const bool push1 = push && in.in_valid1 && o.in_ready1;
    const bool pop = o.out_valid && in.out_ready;
    if (in.clear) {
      q_.clear();
      return o;
    }
    if (pop) q_.pop_front();
    if (push) q_.push_back(in.in_data);
    if (push1) q_.push_back(in.in_data1);
    return o;
  }

 private:
  unsigned depth_;
  std::deque<T> q_;
};

}  // namespace hwprof::model
