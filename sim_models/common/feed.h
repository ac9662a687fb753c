// feed_stream: offers a stream of items on a valid/ready port, one per
// accepted handshake, the loop every replay driver runs (profiler_replay.h,
// dcr_replay.h, detector_replay.h, rap_replay.h).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace hwprof::model {

/// Each loop iteration is one clock: `cycle(valid, item)` steps the engine
/// once with valid and the item on the port and returns the engine's ready.
/// Before an item is offered, `idle()` (when set) may insert bubbles; once
/// offered, valid stays high until the engine takes it. `progress(n)` is
/// called every 2^20 items taken. Throws std::runtime_error(`hang`) when no
/// item is taken for more than `hang_cycles` cycles. Returns the items taken.
template <typename Item, typename Source, typename Cycle>
uint64_t feed_stream(Source& src, const std::function<bool()>& idle, const std::function<void(uint64_t)>& progress,
                     uint64_t hang_cycles, const std::string& hang, Cycle&& cycle) {
  uint64_t taken = 0, since = 0;
  Item cur{};
  bool have = src(cur);
  bool offering = false;
  while (have) {
    if (!offering && !(idle && idle())) offering = true;
    const bool ready = cycle(offering, cur);
    ++since;
    if (offering && ready) {
      offering = false;
      since = 0;
      ++taken;
      if (progress && (taken & 0xfffff) == 0) progress(taken);
      have = src(cur);
    }
    if (since > hang_cycles) throw std::runtime_error(hang);
  }
  return taken;
}

}  // namespace hwprof::model
