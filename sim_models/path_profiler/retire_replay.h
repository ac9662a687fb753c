// Retire-stage replay: drives a branch queue engine (the BranchQueue model,
// the Verilated RTL, or both in lock-step) with a record stream the way a
// W-wide retire stage would, and drains it with a profiler whose service time
// per record depends on the record's class, as in paper 000 section 7.3:
//
//  * Producer (retire stage). A record with `insns` = k stands for k-1 plain
//    instructions followed by the branch. Each cycle up to RetireWidth
//    instructions retire, in order. The branch is offered (enq_valid) in the
//    cycle its plain instructions are done and a retire slot is left; if the
//    queue refuses it, retirement stalls (that cycle counts as a stall).
//    At most one branch enters the queue per cycle (one write port).
//  * Consumer (path profiler). deq_ready = not busy. A record of class c
//    keeps the profiler busy for Latency[c] cycles (1 = one per clock).
//    Defaults are the paper's BL latencies: forward 1, backward 5, call 2,
//    return 3 (pop 1 + HPT miss 2), indirect 5.
//  * Overhead = (retire cycles - ideal retire cycles) / ideal retire cycles,
//    where the ideal run has a queue that never refuses a record.
//
// The stimulus is written once here and reused by the CLI, the benchmarks and
// the lock-step tests, so the RTL and the model always see the same inputs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "branch_queue.h"
#include "branch_record.h"

namespace hwprof::model {

struct ReplayConfig {
  unsigned retire_width = 4;
  /// Consumer busy cycles per record, indexed by BranchClass.
  std::array<unsigned, kNumClasses> latency = {1, 5, 2, 3, 5};
  /// Progress callback (records so far), called every 2^20 records.
  std::function<void(uint64_t)> progress;
  /// Called for every record the consumer takes, in order.
  std::function<void(const BranchRecord&)> on_dequeue;
};

struct ReplayStats {
  uint64_t records = 0;
  uint64_t instructions = 0;
  uint64_t retire_cycles = 0;   ///< cycle in which the last branch retired (+1)
  uint64_t cycles = 0;          ///< cycles until the queue drained
  uint64_t ideal_retire_cycles = 0;
  uint64_t enq_stall_cycles = 0;  ///< branch offered, queue full: retire stalls
  uint64_t consumer_busy_cycles = 0;
  uint64_t max_occupancy = 0;
  std::vector<uint64_t> occupancy;  ///< histogram: cycles at each count
  std::array<uint64_t, kNumClasses> per_class{};
  double overhead() const {
    return ideal_retire_cycles ? double(retire_cycles - ideal_retire_cycles) / double(ideal_retire_cycles) : 0.0;
  }
};

/// A queue that accepts every record at once and never shows one: the ideal
/// reference for the overhead.
struct IdealQueue {
  void reset() {}
  BranchQueue::Out step(const BranchQueue::In&) { return {true, false, {}, 0}; }
};

namespace detail {
// Runs the producer/consumer loop on `engine`; returns the stats.
template <typename Engine>
ReplayStats replay_once(Engine& engine, const RecordSource& src, const ReplayConfig& cfg, bool count_ideal) {
  ReplayStats st;
  BranchRecord rec;
  bool have = src(rec);
  uint64_t plain = have ? rec.insns - 1u : 0;  // plain instructions still to retire
  unsigned busy = 0;                           // consumer busy cycles left
  bool done = !have;
  uint64_t queued = 0, consumed = 0;
  for (uint64_t cycle = 0;; ++cycle) {
    if (done && (count_ideal || consumed == queued)) {
      st.cycles = cycle;
      break;
    }
    unsigned budget = cfg.retire_width;
    if (!done) {
      uint64_t take = plain < budget ? plain : budget;
      plain -= take;
      budget -= static_cast<unsigned>(take);
    }
    BranchQueue::In in;
    in.enq_valid = !done && plain == 0 && budget > 0;
    in.enq_data = rec;
    in.deq_ready = busy == 0;
    BranchQueue::Out out = engine.step(in);
    if (!count_ideal) {
      if (st.occupancy.size() <= out.count) st.occupancy.resize(out.count + 1);
      ++st.occupancy[out.count];
      if (out.count > st.max_occupancy) st.max_occupancy = out.count;
    }
    // Consumer.
    if (busy > 0) {
      --busy;
      ++st.consumer_busy_cycles;
    } else if (out.deq_valid) {
      BranchClass c = classify(out.deq_data);
      unsigned lat = cfg.latency[static_cast<int>(c)];
      busy = lat > 0 ? lat - 1 : 0;
      ++st.per_class[static_cast<int>(c)];
      ++consumed;
      if (cfg.on_dequeue) cfg.on_dequeue(out.deq_data);
    }
    // Producer.
    if (in.enq_valid) {
      if (out.enq_ready) {
        ++st.records;
        ++queued;
        st.instructions += rec.insns;
        st.retire_cycles = cycle + 1;
        if (cfg.progress && (st.records & 0xfffff) == 0) cfg.progress(st.records);
        have = src(rec);
        if (!have) {
          done = true;
        } else {
          plain = rec.insns - 1u;
          // Slots left in this cycle after the branch retire the next
          // record's plain instructions (but no second branch).
          --budget;
          uint64_t take = plain < budget ? plain : budget;
          plain -= take;
        }
      } else {
        ++st.enq_stall_cycles;
      }
    }
  }
  return st;
}
}  // namespace detail

/// Replays `src` through `engine` (anything with reset() and
/// BranchQueue::Out step(const BranchQueue::In&)). `src_again` must yield the
/// same stream a second time; it drives the ideal reference run.
template <typename Engine>
ReplayStats replay(Engine& engine, const RecordSource& src, const RecordSource& src_again, const ReplayConfig& cfg) {
  engine.reset();
  ReplayStats st = detail::replay_once(engine, src, cfg, false);
  IdealQueue ideal;
  ReplayConfig icfg = cfg;
  icfg.progress = nullptr;
  icfg.on_dequeue = nullptr;
  st.ideal_retire_cycles = detail::replay_once(ideal, src_again, icfg, true).retire_cycles;
  return st;
}

}  // namespace hwprof::model
