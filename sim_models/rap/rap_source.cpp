#include "rap_source.h"

#include <memory>
#include <utility>

#include "rap_tree2d.h"

namespace hwprof::model {

RapEventSource rap_code_source(RecordSource branches, uint64_t limit) {
  struct St {
    bool have_prev = false;
    uint32_t prev_next = 0;
    uint64_t count = 0;
  };
  auto st = std::make_shared<St>();
  return [src = std::move(branches), st, limit](RapEvent& e) {
    if (limit && st->count >= limit) return false;
    BranchRecord b;
    while (src(b)) {
      const bool emit = st->have_prev;
      e.value = st->prev_next;
      e.weight = b.insns;
      st->prev_next = b.next();
      st->have_prev = true;
      if (emit) {
        ++st->count;
        return true;
      }
    }
    return false;
  };
}

RapEvent rap_value_event(uint64_t value, uint32_t weight) {
  RapEvent e;
  e.value = static_cast<uint32_t>(value);
  e.weight = static_cast<uint16_t>(weight > 0xffffu ? 0xffffu : weight);
  return e;
}

RapEvent rap_pair_event(uint64_t code, uint64_t data, uint32_t weight, unsigned dim_bits) {
  RapEvent e;
  e.value = rap2d_key(code, data, dim_bits);
  e.weight = static_cast<uint16_t>(weight > 0xffffu ? 0xffffu : weight);
  return e;
}

}  // namespace hwprof::model
