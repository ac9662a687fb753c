#include "rap_source.h"

#include <memory>

#include "branch_record.h"
#include "trace.h"

namespace hwprof::model {

RapEventSource rap_source(const std::string& path, RapSourceKind kind, uint64_t limit) {
  std::shared_ptr<trace::Reader> rd = trace::Reader::open(path);
  struct St {
    bool have_prev = false;
    uint32_t prev_next = 0;
    uint64_t count = 0;
  };
  auto st = std::make_shared<St>();
  return [rd, st, kind, limit](RapEvent& e) {
    if (limit && st->count >= limit) return false;
    trace::Record r;
    while (rd->next(r)) {
      if (kind == RapSourceKind::Val) {
        if (r.is_branch()) continue;
        e.value = static_cast<uint32_t>(r.value);
        e.weight = static_cast<uint16_t>(r.weight > 0xffffu ? 0xffffu : r.weight);
        ++st->count;
        return true;
      }
      if (!r.is_branch()) continue;
      const BranchRecord b = BranchRecord::from_trace(r);
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

}  // namespace hwprof::model
